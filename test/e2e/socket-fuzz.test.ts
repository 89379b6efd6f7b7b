/**
 * Hostile bytes on a plain socket against the real server process (`node dist/serve.mjs`, as `npm start` runs
 * it): fast-check request lines (odd methods, targets with random bytes and encodings, very long targets,
 * dot segments, NUL, CRLF injection), header sets (no Host, a repeated X-API-Key, huge headers, forbidden
 * bytes), truncated requests and abrupt closes. Whatever arrives, the server answers (or closes) within a
 * bound, never with a 5xx other than 502, with `nosniff` and, for JSON, the error body; and afterwards it is
 * still alive and answers health.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_SERVER_OPTIONS } from '../../src/http/node-adapter.js';
import { RECORDS } from '../gateway/harness.js';
import { type Ending, exchange, type RawAnswer } from '../support/raw-http.js';
import { buildTestSnapshot } from '../support/records.js';
import { type ServerProcess, startServer } from './process.js';

const KEY = 'fuzz-known-key-0123456789';
let dir: string;
let server: ServerProcess;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-fuzz-'));
  server = await startServer({
    SNAPSHOT_DIR: await buildTestSnapshot(RECORDS),
    KEYS_FILE: path.join(dir, 'keys.json'),
    API_KEYS: KEY,
    FREE_DAILY_LIMIT: '1000000',
  });
  port = Number(new URL(server.base).port);
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The server is alive and well: the process runs, health answers 200, nothing reached the bug handler. */
async function expectServerHealthy(): Promise<void> {
  expect(server.child.exitCode, server.stderr()).toBeNull();
  const health = await exchange(port, 'GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', { boundMs: 5000 });
  expect(health.status).toBe(200);
  expect(server.stderr()).not.toContain('unexpected error');
}

/** What every answer must be: no 5xx but 502, `nosniff`, and a JSON error body that matches its status. */
function expectSaneAnswer(answer: RawAnswer, what: string): void {
  expect(answer.hung, `no answer and no close within the bound: ${what}`).toBe(false);
  if (answer.status === undefined) return; // closed without an answer: allowed, the socket was not left hanging
  expect(answer.status < 500 || answer.status === 502, `status ${answer.status}: ${what}`).toBe(true);
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
  if (answer.status >= 400 && answer.headers['content-type']?.startsWith('application/json') && answer.body !== '') {
    const body = JSON.parse(answer.body) as { error: { message: string; status: number; code: string } };
    expect(Object.keys(body.error).sort(), what).toEqual(['code', 'message', 'status']);
    expect(body.error.status, what).toBe(answer.status);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(answer.headers[header], `${header}: ${what}`).toMatch(/^\d+$/);
    }
  }
}

/**
 * The longest a socket may go without an answer or a close: a request the server is still waiting on is
 * answered 408 once the headers timeout passes (Node checks every `connectionsCheckingInterval`).
 */
const OPEN_BOUND_MS = NODE_SERVER_OPTIONS.headersTimeout + NODE_SERVER_OPTIONS.connectionsCheckingInterval + 3000;

// ---------------------------------------------------------------------------------------------------------
// Generators. Text is latin1: one character is one byte on the wire.

const bytes = (maxLength: number) => fc.uint8Array({ maxLength }).map((array) => Buffer.from(array).toString('latin1'));

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD', 'OPTIONS') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT', 'PRI', 'get', 'FOO', 'G ET', ''),
  },
  { weight: 1, arbitrary: bytes(8) },
);

const ESCAPES = [
  '%zz',
  '%',
  '%4',
  '%E0%A4',
  '%C3%28',
  '%FF',
  '%00',
  '%0D%0A',
  '%2F',
  '%2f',
  '%2e%2e',
  '%2E',
  '%C2%85',
  '%41',
  '%C3%A9',
  '+',
  '&',
  '=',
  '?',
  '#',
  '/',
  '..',
  '.',
  '\\',
  ';',
];
const escapes = fc
  .array(fc.oneof(fc.constantFrom(...ESCAPES), fc.string({ unit: 'binary-ascii', maxLength: 6 })), { maxLength: 8 })
  .map((parts) => parts.join(''));

const target = fc.oneof(
  // Real targets often enough that the answers cover 200s too, not only refusals.
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '/v1/health',
      '/v1/stats',
      '/v1/servers?limit=2',
      '/v1/servers/com.example/mcp',
      '/v1/search?q=mcp',
      '/',
      '/index.html',
      '/app.js',
      '/v1',
      '/v1/',
    ),
  },
  bytes(40).map((raw) => `/v1/${raw}`),
  fc
    .tuple(fc.constantFrom('/v1/servers/', '/v1/search?q=', '/v1/servers?namespace=', '/v1/', '/'), escapes)
    .map(([prefix, rest]) => prefix + rest),
  fc.tuple(escapes, escapes).map(([namespace, id]) => `/v1/servers/${namespace}/${id}`),
  fc.integer({ min: 1500, max: 40_000 }).map((length) => `/v1/search?q=${'a'.repeat(length)}`),
  fc.constantFrom(
    '/v1/servers/../stats',
    '/v1/./stats',
    '/v1/%2e%2e/%2e%2e/etc/passwd',
    '/../../etc/passwd',
    '/v1/servers/%2E%2E/%2E%2E',
    '/%2e%2e/package.json',
    '/v1/..%2f..%2fpackage.json',
  ),
  fc.constantFrom('/v1/stats\u0000', '/v1/search?q=a\u0000b', '/v1/stats%00', '/\u0000'),
  fc.constantFrom(
    `/v1/stats HTTP/1.1\r\nX-API-Key: ${KEY}\r\nX-Injected: 1`,
    '/v1/search?q=a\r\nSet-Cookie: x=1',
    '/v1/stats\r\n\r\nGET /v1/health',
    '/v1/stats\nHost: evil',
  ),
  fc.constantFrom('*', 'http://127.0.0.1/v1/stats', '//v1/stats', '', 'v1/stats', '/v1/stats#fragment'),
);

const version = fc.oneof(
  { weight: 8, arbitrary: fc.constant('HTTP/1.1') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'HTTP/', '', 'http/1.1', 'HTTP/9.9'),
  },
);

const header = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['X-API-Key', KEY],
    ['X-API-Key', KEY],
    ['X-API-Key', 'not-a-key'],
    ['X-API-Key', ''],
    ['x-api-key', `${KEY}\u00ff`],
    ['X-API-Key', 'a'.repeat(20_000)],
    ['Content-Length', '5'],
    ['Content-Length', '-1'],
    ['Content-Length', 'abc'],
    ['Transfer-Encoding', 'chunked'],
    ['Connection', 'close'],
    ['Connection', 'keep-alive'],
    ['Connection', 'upgrade'],
    ['Upgrade', 'websocket'],
    ['Expect', '100-continue'],
    ['If-None-Match', '*'],
    ['X-Big', 'b'.repeat(20_000)],
    ['X Bad', 'space in the name'],
    ['', 'no name'],
    ['X-Nul', 'a\u0000b'],
    ['X-Del', 'a\u007fb'],
    ['X-High', 'caf\u00c3\u00a9'],
    [' folded', 'obs-fold continuation'],
    ['Host', 'second-host'],
  ),
  fc.tuple(fc.string({ unit: 'binary-ascii', maxLength: 10 }), bytes(20)),
);

const headers = fc.record({
  host: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  others: fc.oneof(
    fc.constantFrom<[string, string][]>([['X-API-Key', KEY]], [], [['X-API-Key', 'not-a-key']]),
    fc.array(header, { maxLength: 5 }),
  ),
});

const body = fc.constantFrom('', '', 'hello', '0\r\n\r\n', 'zz\r\nnot a chunk\r\n');
const lineEnd = fc.oneof({ weight: 9, arbitrary: fc.constant('\r\n') }, { weight: 1, arbitrary: fc.constant('\n') });

/** A whole request as bytes, and a readable description for failure messages. */
const request = fc
  .record({ method, target, version, headers, body, lineEnd })
  .map(({ method: m, target: t, version: v, headers: h, body: b, lineEnd: eol }) => {
    const lines = [`${m} ${t}${v === '' ? '' : ` ${v}`}`];
    if (h.host) lines.push('Host: 127.0.0.1');
    for (const [name, value] of h.others) lines.push(name === ' folded' ? `${name} ${value}` : `${name}: ${value}`);
    const text = `${lines.join(eol)}${eol}${eol}${b}`;
    return {
      bytes: Buffer.from(text, 'latin1'),
      what: JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text),
    };
  });

/**
 * A request, possibly cut short, and how the client ends its side. A cut request is never left waiting (it
 * would wait for the headers timeout, which has its own test below): it is half-closed or reset.
 */
const attempt = fc
  .tuple(
    request,
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.constantFrom<Ending>('wait', 'half-close', 'abort'),
    fc.boolean(),
  )
  .map(([req, cutAt, chosen, truncate]) => {
    const length = truncate ? Math.floor(req.bytes.length * cutAt) : req.bytes.length;
    const ending: Ending = truncate && chosen === 'wait' ? 'half-close' : chosen;
    return {
      bytes: req.bytes.subarray(0, length),
      ending,
      what: `${ending}${truncate ? ` after ${length} bytes` : ''}: ${req.what}`,
    };
  });

// ---------------------------------------------------------------------------------------------------------

describe('the server on a raw socket, fuzzed', () => {
  it('answers or closes every random request within a bound, never with a 5xx but 502, and survives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(attempt, { minLength: 20, maxLength: 20 }), async (batch) => {
        const answers = await Promise.all(
          batch.map((one) => exchange(port, one.bytes, { ending: one.ending, boundMs: OPEN_BOUND_MS })),
        );
        answers.forEach((answer, index) => expectSaneAnswer(answer, batch[index]?.what ?? ''));
      }),
      { numRuns: 50 },
    );
    await expectServerHealthy();
  }, 120_000);

  it('answers random complete requests on connections left open, at worst when the headers time out', async () => {
    // Seeded, so that the same requests (complete, on connections left open) are sent on every run and the
    // coverage check below never depends on luck; the random property above explores beyond them.
    const batch = fc.sample(request, { numRuns: 300, seed: 7 });
    const seen = new Set<number>();
    const answers = await Promise.all(
      batch.map((one) => exchange(port, one.bytes, { ending: 'wait', boundMs: OPEN_BOUND_MS })),
    );
    answers.forEach((answer, index) => {
      const what = batch[index]?.what ?? '';
      expectSaneAnswer(answer, what);
      expect(answer.status !== undefined || answer.closed, what).toBe(true);
      if (answer.status !== undefined) seen.add(answer.status);
    });
    // The generators reach every kind of answer, so the property was not tested on one kind alone.
    for (const status of [200, 400, 401, 404, 405, 414, 431]) expect([...seen]).toContain(status);
    await expectServerHealthy();
  }, 60_000);
});

describe('the server on a raw socket, case by case', () => {
  const host = 'Host: 127.0.0.1\r\n';
  const key = `X-API-Key: ${KEY}\r\n`;
  const cases: [string, string, number, string][] = [
    ['a raw NUL in the target', `GET /v1/stats\u0000 HTTP/1.1\r\n${host}${key}\r\n`, 400, 'invalid_parameter'],
    [
      'a raw byte of 0x80 and above in the target',
      `GET /v1/search?q=caf\u00c3\u00a9 HTTP/1.1\r\n${host}${key}\r\n`,
      400,
      'invalid_parameter',
    ],
    ['a raw dot segment', `GET /v1/servers/../stats HTTP/1.1\r\n${host}${key}\r\n`, 400, 'invalid_parameter'],
    ['an encoded dot segment', `GET /v1/servers/%2E%2E/stats HTTP/1.1\r\n${host}${key}\r\n`, 400, 'invalid_parameter'],
    [
      'an encoded slash in the id',
      `GET /v1/servers/com.example/a%2Fb HTTP/1.1\r\n${host}${key}\r\n`,
      400,
      'invalid_parameter',
    ],
    [
      'invalid UTF-8, percent-encoded',
      `GET /v1/search?q=%C3%28 HTTP/1.1\r\n${host}${key}\r\n`,
      400,
      'invalid_parameter',
    ],
    [
      "a target of 3,000 bytes (the gateway's bound)",
      `GET /v1/search?q=${'a'.repeat(3000)} HTTP/1.1\r\n${host}${key}\r\n`,
      414,
      'uri_too_long',
    ],
    [
      "a target of 40,000 bytes (Node's header bound)",
      `GET /v1/search?q=${'a'.repeat(40_000)} HTTP/1.1\r\n${host}${key}\r\n`,
      414,
      'uri_too_long',
    ],
    [
      'a header of 20,000 bytes',
      `GET /v1/stats HTTP/1.1\r\n${host}${key}X-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    ['an HTTP/1.1 request without Host', `GET /v1/stats HTTP/1.1\r\n${key}\r\n`, 400, 'bad_request'],
    [
      'a forbidden byte in a header value',
      `GET /v1/stats HTTP/1.1\r\n${host}${key}X-Bad: a\u0001b\r\n\r\n`,
      400,
      'bad_request',
    ],
    ['an unknown method', `FOO /v1/stats HTTP/1.1\r\n${host}${key}\r\n`, 400, 'bad_request'],
    ['CONNECT', `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`, 405, 'method_not_allowed'],
    [
      'a repeated X-API-Key (joined, so matching no key)',
      `GET /v1/stats HTTP/1.1\r\n${host}${key}${key}\r\n`,
      401,
      'invalid_api_key',
    ],
  ];

  it.each(cases)('answers %s with the error body', async (what, text, status, code) => {
    const answer = await exchange(port, Buffer.from(text, 'latin1'), { boundMs: 5000 });
    expect(answer.status, `${what}: ${answer.body}`).toBe(status);
    expectSaneAnswer(answer, what);
    expect((JSON.parse(answer.body) as { error: { code: string } }).error.code).toBe(code);
    // Nothing of the request is quoted back: neither the key nor the long runs of filler.
    expect(answer.body).not.toContain(KEY);
    expect(answer.body).not.toMatch(/aaaaaaaaaa|bbbbbbbbbb/);
  });

  it('ends the request line at an injected CRLF: what follows is a header the client sent, never one of the answer', async () => {
    for (const text of [
      `GET /v1/stats\r\nSet-Cookie: injected=1 HTTP/1.1\r\n${host}${key}\r\n`,
      `GET /v1/search?q=ab\r\nSet-Cookie: injected=1\r\n${host}${key}\r\n`,
    ]) {
      const answer = await exchange(port, Buffer.from(text, 'latin1'), { boundMs: 5000 });
      expectSaneAnswer(answer, JSON.stringify(text));
      expect(answer.status).toBeDefined();
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(answer.body).not.toContain('injected');
    }
  });

  it('answers a request cut short by a half-close at once with 400', async () => {
    const answer = await exchange(port, `GET /v1/stats HTTP/1.1\r\n${host}X-API-`, {
      ending: 'half-close',
      boundMs: 5000,
    });
    expect(answer.status).toBe(400);
    expect(answer.ms).toBeLessThan(2000);
    expectSaneAnswer(answer, 'half-close mid-headers');
  });

  it('answers a client that stops sending mid-headers with 408 once the headers time out, and closes', async () => {
    const answer = await exchange(port, `GET /v1/stats HTTP/1.1\r\n${host}X-API-`, {
      boundMs: OPEN_BOUND_MS,
    });
    expect(answer.status).toBe(408);
    expect(answer.ms).toBeGreaterThanOrEqual(NODE_SERVER_OPTIONS.headersTimeout - 500);
    expectSaneAnswer(answer, 'slow client');
    expect((JSON.parse(answer.body) as { error: { code: string } }).error.code).toBe('request_timeout');
  }, 30_000);

  it('serves HTTP/1.0 without Host as usual', async () => {
    const answer = await exchange(port, 'GET /v1/health HTTP/1.0\r\n\r\n', { boundMs: 5000 });
    expect(answer.status).toBe(200);
  });

  it('is still alive and well after all of it', async () => {
    await expectServerHealthy();
  });
});
