/**
 * The hostile-input rules of docs/security.md, one by one, at the gateway (Request → Response, memory store, fixed
 * clock). Targets go through `handle` as raw request-target text, the way the Node adapter passes them:
 * a Web `Request` would resolve dot segments and percent-encode raw bytes before the gateway saw them.
 *
 * Every refusal is the error body with the rate-limit headers, `no-store` and `nosniff`, is not counted, and
 * never quotes the hostile input back.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { GatewayResponse } from '../../src/gateway/gateway.js';
import { MAX_QUERY_PARAMETERS, MAX_TARGET_BYTES } from '../../src/api/request-target.js';
import { harness, type Harness, RESET_SECONDS } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});

/** Send `target` exactly as written, with the harness's key unless told otherwise. */
function raw(target: string, options: { method?: string; key?: string | null } = {}): Promise<GatewayResponse> {
  const key = options.key === undefined ? h.key : options.key;
  const headers = new Map<string, string>(key === null ? [] : [['x-api-key', key]]);
  return h.gateway.handle({
    method: options.method ?? 'GET',
    url: target,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
  });
}

/**
 * The error of a refusal, after checking everything every refusal must carry. A refusal of the target
 * itself comes before the key and is not counted; a refusal of the query is a parameter problem, checked
 * after the key and the limit, so with a valid key it counts (decisions, section 5): pass `counted`.
 */
function refusal(
  response: GatewayResponse,
  status: number,
  code: string,
  options: { counted?: boolean } = {},
): { message: string } {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-ratelimit-limit']).toBe('100');
  if (options.counted) expect(Number(response.headers['x-ratelimit-remaining'])).toBeLessThan(100);
  else expect(response.headers['x-ratelimit-remaining']).toBe('100');
  expect(response.headers['x-ratelimit-reset']).toBe(RESET_SECONDS);
  const body = JSON.parse(String(response.body ?? '')) as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toEqual({ message: expect.any(String), status, code });
  const message = body.error.message as string;
  expect(message.length).toBeLessThan(300);
  return { message };
}

/** The remaining count the next real request reports: 99 means nothing was counted before it. */
async function remainingAfter(): Promise<string | undefined> {
  return (await raw('/v1/stats')).headers['x-ratelimit-remaining'];
}

describe('the length of the URL', () => {
  it(`answers 414 uri_too_long for a target longer than ${MAX_TARGET_BYTES} bytes, before routing and without counting`, async () => {
    const target = `/v1/search?q=${'a'.repeat(MAX_TARGET_BYTES)}`;
    const { message } = refusal(await raw(target), 414, 'uri_too_long');
    expect(message).toContain(String(MAX_TARGET_BYTES));
    refusal(await raw(`/nowhere/${'a'.repeat(MAX_TARGET_BYTES)}`), 414, 'uri_too_long');
    expect(await remainingAfter()).toBe('99');
  });

  it(`reads a target of exactly ${MAX_TARGET_BYTES} bytes (and refuses one byte more)`, async () => {
    const prefix = '/v1/servers?namespace=io.github.acme&';
    const padding = 'x='.padEnd(MAX_TARGET_BYTES - prefix.length, 'y');
    const exact = `${prefix}${padding}`;
    expect(exact.length).toBe(MAX_TARGET_BYTES);
    const response = await raw(exact);
    expect(response.status).toBe(400); // read, and refused for its unknown parameter "x", not its length
    expect(response.body).toContain('unknown parameter');
    refusal(await raw(`${exact}y`), 414, 'uri_too_long');
  });

  it('answers 414 through a Web Request too, measured on the path and query', async () => {
    const response = await h.call(`/v1/servers/a/${'b'.repeat(MAX_TARGET_BYTES)}`);
    expect(response.status).toBe(414);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the size of the query', () => {
  it(`refuses more than ${MAX_QUERY_PARAMETERS} parameters with a 400 naming the bound`, async () => {
    const many = Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, (_, i) => `p${i}=1`).join('&');
    const { message } = refusal(await raw(`/v1/servers?${many}`), 400, 'invalid_parameter', { counted: true });
    expect(message).toContain(`at most ${MAX_QUERY_PARAMETERS} query parameters`);
  });

  it(`counts only real parameters: ${MAX_QUERY_PARAMETERS} of them with empty pieces between pass the bound`, async () => {
    const pairs = Array.from({ length: MAX_QUERY_PARAMETERS }, () => 'limit=5').join('&&');
    const response = await raw(`/v1/servers?${pairs}`);
    expect(response.status).toBe(400);
    expect(response.body).toContain('limit is repeated'); // refused by the parameter rules, not the count
  });

  it('bounds every value the endpoints read: q and the filters at 200 characters', async () => {
    const long = 'a'.repeat(201);
    for (const [target, name] of [
      [`/v1/search?q=${long}`, 'q'],
      [`/v1/servers?namespace=${long}`, 'namespace'],
      [`/v1/servers?target=${long}`, 'target'],
      [`/v1/servers?flags=${long}`, 'flags'],
    ] as const) {
      const response = await raw(target);
      expect(response.status, target).toBe(400);
      expect(response.body).toContain(`${name} must be at most 200 characters`);
    }
  });
});

describe('slashes and dot segments in the path', () => {
  it('refuses an encoded slash in the namespace or the id, naming the rule', async () => {
    for (const [target, part] of [
      ['/v1/servers/io.github%2Facme/x', 'namespace'],
      ['/v1/servers/io.github.acme/a%2fb', 'id'],
    ] as const) {
      const response = await raw(target);
      expect(response.status, target).toBe(400);
      const { error } = JSON.parse(String(response.body ?? '')) as { error: { message: string; code: string } };
      expect(error.code).toBe('invalid_parameter');
      expect(error.message).toContain(`${part} may not contain "/" (%2F)`);
      expect(error.message).toContain('exactly one "/"');
    }
  });

  it('refuses dot segments, plain or percent-encoded, instead of resolving them', async () => {
    for (const target of [
      '/v1/servers/../stats',
      '/v1/./stats',
      '/v1/servers/%2E%2E/stats',
      '/v1/servers/%2e./stats',
      '/v1/servers/.%2E/stats',
      '/v1/servers/com.example/..',
      '/v1/servers/%2e/mcp',
      '/v1/..',
    ]) {
      const { message } = refusal(await raw(target), 400, 'invalid_parameter');
      expect(message, target).toContain('dot segments');
    }
    expect(await remainingAfter()).toBe('99');
  });

  it('still reads dots inside a segment, encoded or not', async () => {
    expect((await raw('/v1/servers/com%2Eexample/mcp')).status).toBe(200);
    expect((await raw('/v1/servers/com.example/..mcp')).status).toBe(404);
    expect((await raw('/v1/servers/com.example/...')).status).toBe(404);
  });
});

describe('control characters', () => {
  it('refuses a raw NUL, tab, line break or DEL anywhere in the target', async () => {
    for (const target of [
      '/v1/stats\u0000',
      '/v1/search?q=ab\u0000cd',
      '/v1/servers/a\tb/c',
      '/v1/search?q=a\r\nSet-Cookie:x',
      '/v1/st\u007fats',
      '/v1/search?q=\u001bab',
    ]) {
      const { message } = refusal(await raw(target), 400, 'invalid_parameter');
      expect(message, JSON.stringify(target)).toMatch(/control character \(0x[0-9A-F]{2}\)/);
    }
  });

  it('refuses percent-encoded control characters in the path and in the query', async () => {
    for (const target of [
      '/v1/servers/a%00/b',
      '/v1/search?q=ab%00',
      '/v1/search?q=ab%0D%0Aset-cookie',
      '/v1/servers?namespace=%7F',
      '/v1/search?q=ab%1f',
      '/v1/search?q=ab%C2%85',
    ]) {
      const { message } = refusal(await raw(target), 400, 'invalid_parameter', { counted: target.includes('?') });
      expect(message, target).toContain('percent-encoded control character');
    }
  });

  it('refuses a raw space, which a URL never holds', async () => {
    const { message } = refusal(await raw('/v1/search?q=two words'), 400, 'invalid_parameter');
    expect(message).toContain('a space is not allowed');
  });
});

describe('percent-encoding and UTF-8', () => {
  it('refuses a "%" that does not start a two-hex-digit escape, in the path and in the query', async () => {
    for (const target of [
      '/v1/servers/a/%zz',
      '/v1/servers/a/b%',
      '/v1/servers/a/%4',
      '/v1/search?q=100%',
      '/v1/search?q=%zz',
      '/v1/servers?flags=%G0',
    ]) {
      const { message } = refusal(await raw(target), 400, 'invalid_parameter', { counted: target.includes('?') });
      expect(message, target).toContain('every "%" must be followed by two hex digits');
    }
  });

  it('refuses percent-encoded bytes that are not UTF-8: truncated, invalid, overlong or a surrogate', async () => {
    for (const target of [
      '/v1/search?q=%E0%A4',
      '/v1/search?q=ab%C3%28',
      '/v1/servers/a/%FF',
      '/v1/servers/%C0%AF/x',
      '/v1/search?q=%ED%A0%80ab',
    ]) {
      const { message } = refusal(await raw(target), 400, 'invalid_parameter', { counted: target.includes('?') });
      expect(message, target).toContain('not UTF-8');
    }
  });

  it('refuses raw bytes of 0x80 and above (as Node reads them, one character per byte) and raw Unicode', async () => {
    for (const [target, byte] of [
      ['/v1/search?q=caf\u00c3\u00a9', 'C3'],
      ['/v1/servers/a/\u00ff', 'FF'],
      ['/v1/search?q=ab\u20ac', '20AC'],
    ] as const) {
      const { message } = refusal(await raw(target), 400, 'invalid_parameter');
      expect(message, target).toContain(`the byte 0x${byte}`);
    }
  });

  it('reads valid percent-encoded UTF-8 and "+" as usual', async () => {
    expect((await raw('/v1/search?q=caf%C3%A9')).status).toBe(200);
    expect((await raw('/v1/search?q=postgres+mcp')).status).toBe(200);
    expect((await raw('/v1/servers/io.github.acme/%53lack-Bot')).status).toBe(200);
  });

  it('refuses a fragment, which a client never sends', async () => {
    const { message } = refusal(await raw('/v1/search?q=c#sharp'), 400, 'invalid_parameter');
    expect(message).toContain('fragment');
  });
});

describe('every refusal', () => {
  it('comes before the route, the key and the limit for the path: an unknown route and a missing key get the same 400', async () => {
    refusal(await raw('/nowhere/%zz', { key: null }), 400, 'invalid_parameter');
    refusal(await raw('/v1/stats/%00', { key: 'not-a-key' }), 400, 'invalid_parameter');
    // A bad query is a parameter problem: the method is checked first (405), as for any parameter.
    refusal(await raw('/v1/health?%zz', { method: 'POST' }), 405, 'method_not_allowed');
  });

  it('never quotes the hostile input back, whatever it holds', async () => {
    const hostile = '<script>alert(1)</script>';
    for (const target of [
      `/v1/servers/${hostile}%00/x`,
      `/v1/search?q=${hostile}%zz`,
      `/v1/${hostile}/../stats`,
      `/v1/search?q=${hostile}\u0000`,
      `/v1/search?q=${hostile.repeat(100)}`,
    ]) {
      const response = await raw(target);
      expect(response.status, target).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain('<script>');
    }
  });

  it('is logged with its path (JSON-escaped by the log line) and no key', async () => {
    await raw('/v1/servers/a\u0000b/c?q=secret');
    const line = h.logs.at(-1);
    expect(line).toMatchObject({ status: 400, key: null, path: '/v1/servers/a\u0000b/c' });
  });
});

describe('X-Content-Type-Options', () => {
  it('is nosniff on every answer of the gateway: 200, 204, 304, 4xx, HEAD', async () => {
    const ok = await raw('/v1/stats');
    const answers = [
      ok,
      await raw('/v1/health', { key: null }),
      await raw('/v1/stats', { method: 'OPTIONS' }),
      await raw('/v1/stats', { method: 'HEAD' }),
      await raw('/v1/nowhere'),
      await raw('/v1/stats', { key: null }),
      await raw('/v1/stats', { method: 'DELETE' }),
      await h.gateway.handle({
        method: 'GET',
        url: '/v1/stats',
        headers: { get: (name) => ({ 'x-api-key': h.key, 'if-none-match': ok.headers.etag })[name] ?? null },
      }),
    ];
    expect(answers.map((response) => response.status)).toEqual([200, 200, 204, 200, 404, 401, 405, 304]);
    for (const response of answers) expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('is on the refusal the Node server makes for a request the gateway never saw', () => {
    const reply = h.gateway.refuse('headers_too_large', 'The request line and headers together exceed 16 KB');
    expect(reply.status).toBe(431);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['x-ratelimit-remaining']).toBe('100');
    expect(JSON.parse(String(reply.body ?? ''))).toEqual({
      error: { message: 'The request line and headers together exceed 16 KB', status: 431, code: 'headers_too_large' },
    });
  });
});

describe('the order of checks for a malformed query', () => {
  it('asks for the key first: a bad query without a key is a 401, as for any other parameter problem', async () => {
    for (const target of [
      '/v1/search?q=%zz',
      '/v1/search?q=ab%00',
      `/v1/servers?${Array.from({ length: 40 }, (_, i) => `p${i}=1`).join('&')}`,
    ]) {
      refusal(await raw(target, { key: null }), 401, 'missing_api_key');
    }
  });

  it('counts a bad query with a valid key, like any 400', async () => {
    const before = Number((await raw('/v1/stats')).headers['x-ratelimit-remaining']);
    refusal(await raw('/v1/search?q=%zz'), 400, 'invalid_parameter', { counted: true });
    expect(Number((await raw('/v1/stats')).headers['x-ratelimit-remaining'])).toBe(before - 2);
  });
});
