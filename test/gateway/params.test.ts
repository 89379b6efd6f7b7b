/**
 * Query-string validation (decisions, section 3): plain decimal integers, bounds, `order` in any case,
 * repeated and unknown parameters, `q` after trimming, and one 400 naming every problem in a stable order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ApiError } from '../../src/api/errors.js';
import { assertNoParams, parseListParams, parseSearchParams } from '../../src/api/params.js';
import { ListParamsSchema, SearchParamsSchema } from '../../src/model/schema.js';
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

/**
 * The rule `parse` follows, written plainly: the whole object's schema run on every given parameter, each
 * parameter's first issue named in the table's order, then unknown names. `parse` checks members one by
 * one and remembers their results; it must give what this gives, answer or message, for any query.
 */
function wholeObjectParse(
  query: string,
  schema: z.ZodType & { shape: Record<string, unknown> },
  integers: string[],
  lowerCased: string[],
): unknown {
  const names = Object.keys(schema.shape);
  const values: Record<string, unknown> = {};
  const repeated = new Set<string>();
  const unknown = new Set<string>();
  for (const [name, value] of new URLSearchParams(query)) {
    if (!names.includes(name)) unknown.add(name);
    else if (Object.hasOwn(values, name)) repeated.add(name);
    else if (integers.includes(name)) values[name] = /^[0-9]+$/.test(value) ? Number(value) : value;
    else values[name] = lowerCased.includes(name) ? value.toLowerCase() : value;
  }
  for (const name of repeated) delete values[name];
  const result = schema.safeParse(values);
  const problems = new Map<string, string>();
  for (const name of repeated) problems.set(name, `${name} is repeated; give it once`);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? '');
      if (!problems.has(name)) problems.set(name, issue.message);
    }
  }
  const messages = names.filter((name) => problems.has(name)).map((name) => problems.get(name));
  if (messages.length > 0 || unknown.size > 0) return { refused: messages.join('; ') };
  return result.data;
}

/** What `parse` gave: the parameters, or the message of its 400 up to the unknown names. */
function outcome(parse: () => unknown): unknown {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { refused: error.message.replace(/^Invalid query: /, '').replace(/(^|; )unknown parameters? .*$/, '') };
  }
}

describe('each parameter checked alone, results remembered', () => {
  const value = fc.oneof(
    fc.constantFrom('20', '0', '200', '201', '007', '-1', '1e2', '', ' ', 'asc', 'DESC', 'name', 'Trust_Score'),
    fc.constantFrom('popularity', 'NO_SOURCE', 'A,,B', ' x ', 'name,description', 'Description', 'mcp', 'x'),
    fc.string({ maxLength: 12 }),
    fc.nat({ max: 300 }).map(String),
  );
  const queryOf = (names: string[]) =>
    fc
      .array(fc.tuple(fc.constantFrom(...names, 'other', 'q'), value), { maxLength: 7 })
      .map((pairs) => pairs.map(([name, text]) => `${name}=${encodeURIComponent(text)}`).join('&'));

  it('gives what the whole object gives, for list parameters', () => {
    const names = Object.keys(ListParamsSchema.shape);
    fc.assert(
      fc.property(queryOf(names), (query) => {
        expect(outcome(() => parseListParams(query))).toStrictEqual(
          wholeObjectParse(query, ListParamsSchema, ['limit', 'offset', 'min_score'], ['order']),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('gives what the whole object gives, for search parameters', () => {
    const names = Object.keys(SearchParamsSchema.shape);
    fc.assert(
      fc.property(queryOf(names), (query) => {
        expect(outcome(() => parseSearchParams(query))).toStrictEqual(
          wholeObjectParse(query, SearchParamsSchema, ['limit', 'offset'], ['in']),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('answers a remembered value as the first time, past the point where remembered values are forgotten', () => {
    for (let round = 0; round < 2; round++) {
      for (let score = 0; score < 600; score++) {
        const query = `min_score=${score}&flags=F${score % 300}`;
        expect(outcome(() => parseListParams(query))).toStrictEqual(
          wholeObjectParse(query, ListParamsSchema, ['limit', 'offset', 'min_score'], ['order']),
        );
      }
    }
  });
});
