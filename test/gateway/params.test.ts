/**
 * Query-string validation (decisions, section 3): plain decimal integers, bounds, `order` in any case,
 * repeated and unknown parameters, `q` after trimming, and one 400 naming every problem in a stable order.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { assertNoParams, parseListParams, parseSearchParams } from '../../src/api/params.js';
import { errorOf, harness } from './harness.js';

function messageOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_parameter') return error.message;
    throw error;
  }
  throw new Error('expected an invalid_parameter error');
}

describe('list parameters', () => {
  it('applies the defaults to an empty query', () => {
    expect(parseListParams('')).toEqual({ limit: 50, offset: 0, sort: 'trust_score', order: 'desc' });
  });

  it('reads every parameter of the table', () => {
    expect(
      parseListParams('limit=200&offset=7&sort=scored_at&order=asc&min_score=0&flags=A,B&target=Slack&namespace=io.x'),
    ).toEqual({
      limit: 200,
      offset: 7,
      sort: 'scored_at',
      order: 'asc',
      min_score: 0,
      flags: 'A,B',
      target: 'Slack',
      namespace: 'io.x',
    });
  });

  it('accepts order in any case', () => {
    expect(parseListParams('order=ASC').order).toBe('asc');
    expect(parseListParams('order=Desc').order).toBe('desc');
  });

  for (const text of ['1e2', '+1', ' 1', '1 ', '1.0', '0x10', '', '-1', '١٢', '10abc', 'NaN', 'Infinity']) {
    it(`refuses limit=${JSON.stringify(text)}: an integer is plain decimal digits`, () => {
      expect(messageOf(() => parseListParams(`limit=${encodeURIComponent(text)}`))).toContain(
        'limit must be an integer from 1 to 200',
      );
    });
  }

  it('accepts leading zeros, which are still plain decimal digits', () => {
    expect(parseListParams('limit=007').limit).toBe(7);
  });

  it('refuses out-of-range limit, offset and min_score with the allowed range', () => {
    expect(messageOf(() => parseListParams('limit=0'))).toContain('limit must be an integer from 1 to 200');
    expect(messageOf(() => parseListParams('limit=201'))).toContain('limit must be an integer from 1 to 200');
    expect(messageOf(() => parseListParams('min_score=101'))).toContain('min_score must be an integer from 0 to 100');
    expect(messageOf(() => parseListParams(`offset=${'9'.repeat(40)}`))).toContain('offset must be an integer');
  });

  it('refuses an unknown sort and an order other than asc or desc, saying what is allowed', () => {
    expect(messageOf(() => parseListParams('sort=stars'))).toContain('sort must be one of: trust_score, name');
    expect(messageOf(() => parseListParams('order=up'))).toContain('order must be asc or desc');
  });

  it('refuses a repeated parameter, even with the same value twice', () => {
    expect(messageOf(() => parseListParams('limit=5&limit=5'))).toContain('limit is repeated');
  });

  it('refuses an unknown parameter and lists the allowed ones', () => {
    const message = messageOf(() => parseListParams('page=2'));
    expect(message).toContain('unknown parameter "page"');
    expect(message).toContain('allowed: limit, offset, sort, order, min_score, flags, target, namespace');
  });

  it('names every problem at once, parameters in table order and then unknown names as given', () => {
    const message = messageOf(() => parseListParams('zeta=1&order=sideways&alpha=2&limit=0&sort=x&sort=y'));
    const positions = ['limit must', 'sort is repeated', 'order must', '"zeta"', '"alpha"'].map((part) =>
      message.indexOf(part),
    );
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('refuses an empty filter value', () => {
    expect(messageOf(() => parseListParams('flags='))).toContain('flags must not be empty');
  });

  it('quotes unknown names escaped and cut, and counts the ones past the first five', () => {
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`).map((name) => `${name}=1`);
    const hostile = `${'"<x>'.repeat(30)}`;
    const message = messageOf(() => parseListParams(`${encodeURIComponent(hostile)}=1&${names.join('&')}`));
    expect(message).toContain('and 4 more');
    expect(message).toContain('\\"<x>');
    expect(message).not.toContain(hostile);
    expect(message.length).toBeLessThan(400);
  });
});

describe('search parameters', () => {
  it('requires q', () => {
    expect(messageOf(() => parseSearchParams(''))).toContain('q is required');
  });

  it('refuses q shorter than 2 characters after trimming', () => {
    expect(messageOf(() => parseSearchParams('q=%20a%20'))).toContain('q must be at least 2 characters');
    expect(parseSearchParams('q=%20ab%20')).toEqual({ q: 'ab', limit: 20, offset: 0, in: 'name' });
  });

  it('reads + as a space, as forms send it', () => {
    expect(parseSearchParams('q=slack+bot').q).toBe('slack bot');
  });

  it('accepts limit 1 to 200 and refuses the rest', () => {
    expect(parseSearchParams('q=ab&limit=200').limit).toBe(200);
    expect(messageOf(() => parseSearchParams('q=ab&limit=201'))).toContain('limit must be an integer from 1 to 200');
  });

  it('refuses list parameters it does not take', () => {
    expect(messageOf(() => parseSearchParams('q=ab&sort=name'))).toContain(
      'unknown parameter "sort" (allowed: q, limit, offset, in)',
    );
  });

  it('pages with offset, a plain integer from 0', () => {
    expect(parseSearchParams('q=ab&offset=40').offset).toBe(40);
    expect(messageOf(() => parseSearchParams('q=ab&offset=-1'))).toContain('offset must be an integer from 0 to');
    expect(messageOf(() => parseSearchParams('q=ab&offset=1e2'))).toContain('offset must be an integer from 0 to');
  });

  it('reads in as name, description or both, in any case, and refuses anything else', () => {
    expect(parseSearchParams('q=ab&in=NAME,Description').in).toBe('name,description');
    expect(parseSearchParams('q=ab&in=description').in).toBe('description');
    for (const bad of ['names', 'name,', 'name;description', 'name,description,name', '']) {
      expect(
        messageOf(() => parseSearchParams(`q=ab&in=${encodeURIComponent(bad)}`)),
        bad,
      ).toContain('in must be name, description, or both separated by a comma (name,description)');
    }
  });
});

describe('endpoints without parameters', () => {
  it('accept an empty query, a bare ? and stray ampersands', () => {
    expect(() => assertNoParams('')).not.toThrow();
    expect(() => assertNoParams('&&')).not.toThrow();
  });

  it('refuse any parameter', () => {
    expect(messageOf(() => assertNoParams('x=1&y'))).toContain(
      'unknown parameters "x", "y" (this endpoint takes no parameters)',
    );
  });
});

describe('through the gateway', () => {
  it('answers 400 invalid_parameter naming the parameter on every keyed route and on health', async () => {
    const h = await harness();
    const cases: [string, string][] = [
      ['/v1/servers?limit=abc', 'limit'],
      ['/v1/search?q=a', 'q must be at least'],
      ['/v1/stats?verbose=1', '"verbose"'],
      ['/v1/servers/com.example/mcp?full=1', '"full"'],
      ['/v1/health?x=1', '"x"'],
    ];
    for (const [path, named] of cases) {
      const response = await h.call(path);
      expect(response.status, path).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('invalid_parameter');
      expect(error.message).toContain(named);
    }
  });
});
