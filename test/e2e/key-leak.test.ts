/**
 * No key in any log line, response or error: a recognisable key is sent in `X-API-Key` through every route
 * and every error path of the real server process (200, 304, HEAD, preflight, 400, 401, 404, 405, 414,
 * 429, 431, a malformed request, a missing Host, and 502 with its stderr line when the store is down), and
 * then looked for in everything the process wrote and everything it answered.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS } from '../gateway/harness.js';
import { exchange, type RawAnswer } from '../support/raw-http.js';
import { freePort } from '../support/redis-server.js';
import { buildTestSnapshot } from '../support/records.js';
import { type ServerProcess, startServer } from './process.js';

/** Recognisable in any text, and shaped like a real key. */
const KEY = 'mts_LEAKCANARYkeyQ7vX2pL9sT4wZ8mN3bR6yH1jK5dF0gA';
/** A key no store knows (the 401 path, and the store lookup on the 502 path). */
const UNKNOWN_KEY = 'mts_UNKNOWNCANARYkeyE4rT7yU1iO9pA2sD5fG8hJ3kL6z';
const LIMIT = 25;

/** Pieces of a key that must appear nowhere: the key, and any 16 characters of it. */
function fragmentsOf(key: string): string[] {
  const pieces = [key];
  for (let start = 0; start + 16 <= key.length; start += 8) pieces.push(key.slice(start, start + 16));
  return pieces;
}

function expectNoKeyIn(text: string, where: string): void {
  for (const key of [KEY, UNKNOWN_KEY]) {
    for (const piece of fragmentsOf(key)) expect(text.includes(piece), `${where} holds ${piece}`).toBe(false);
  }
}

function withKey(requestLine: string, key = KEY, extra = ''): string {
  return `${requestLine} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n${extra}\r\n`;
}

/** Everything a client can see of an answer. */
const visible = (answer: RawAnswer) => `${JSON.stringify(answer.headers)}\n${answer.body}`;

describe('keys in logs and answers', () => {
  let dir: string;
  let snapshot: string;
  let healthy: ServerProcess;
  let storeDown: ServerProcess;
  const answers: { what: string; answer: RawAnswer }[] = [];

  async function send(server: ServerProcess, what: string, text: string): Promise<RawAnswer> {
    const answer = await exchange(Number(new URL(server.base).port), Buffer.from(text, 'latin1'), { boundMs: 5000 });
    answers.push({ what, answer });
    return answer;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mts-leak-'));
    snapshot = await buildTestSnapshot(RECORDS);
    const common = { SNAPSHOT_DIR: snapshot, API_KEYS: KEY, FREE_DAILY_LIMIT: String(LIMIT) };
    [healthy, storeDown] = await Promise.all([
      startServer({ ...common, KEYS_FILE: path.join(dir, 'keys.json') }),
      // Nothing listens on this port: every store call fails, so keyed requests take the 502 path.
      startServer({ ...common, STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${await freePort()}` }),
    ]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([healthy?.stop(), storeDown?.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers every route and error path without the key in a header or body', async () => {
    const statuses: Record<string, number | undefined> = {};
    const cases: [string, string][] = [
      ['health', withKey('GET /v1/health')],
      ['stats', withKey('GET /v1/stats')],
      ['list', withKey('GET /v1/servers?limit=2')],
      ['get', withKey('GET /v1/servers/com.example/mcp')],
      ['search', withKey('GET /v1/search?q=mcp')],
      ['head', withKey('HEAD /v1/stats')],
      ['preflight', withKey('OPTIONS /v1/stats')],
      ['400 parameter', withKey('GET /v1/servers?limit=0')],
      ['400 key in the query', withKey(`GET /v1/search?q=mcp&api_key=${KEY}`)],
      ['400 URL rule', withKey('GET /v1/servers/../stats')],
      ['404 route', withKey('GET /v1/nowhere')],
      ['404 server', withKey('GET /v1/servers/com.example/none')],
      ['405', withKey('DELETE /v1/stats')],
      ['414', withKey(`GET /v1/search?q=${'a'.repeat(3000)}`)],
      ['414 past Node', withKey(`GET /v1/search?q=${'a'.repeat(20_000)}`)],
      ['431', withKey('GET /v1/stats', KEY, `X-Big: ${'b'.repeat(20_000)}\r\n`)],
      ['400 malformed', withKey('GET /v1/stats', KEY, 'X-Bad: a\u0001b\r\n')],
      ['400 no Host', `GET /v1/stats HTTP/1.1\r\nX-API-Key: ${KEY}\r\n\r\n`],
      ['401', withKey('GET /v1/stats', UNKNOWN_KEY)],
      ['401 key with a suffix', withKey('GET /v1/stats', `${KEY}x`)],
      ['401 repeated key', withKey('GET /v1/stats', KEY, `X-API-Key: ${KEY}\r\n`)],
      ['site', withKey('GET /')],
    ];
    for (const [what, text] of cases) statuses[what] = (await send(healthy, what, text)).status;

    const etag = answers.find((entry) => entry.what === 'stats')?.answer.headers.etag ?? '';
    statuses['304'] = (await send(healthy, '304', withKey('GET /v1/stats', KEY, `If-None-Match: ${etag}\r\n`))).status;
    let limited: number | undefined;
    for (let i = 0; i < LIMIT && limited !== 429; i++)
      limited = (await send(healthy, '429', withKey('GET /v1/stats'))).status;
    statuses['429'] = limited;
    statuses['502'] = (await send(storeDown, '502', withKey('GET /v1/stats'))).status;
    statuses['502 unknown key'] = (
      await send(storeDown, '502 unknown key', withKey('GET /v1/stats', UNKNOWN_KEY))
    ).status;

    // Every path was really taken.
    expect(statuses).toMatchObject({
      health: 200,
      stats: 200,
      list: 200,
      get: 200,
      search: 200,
      head: 200,
      preflight: 204,
      '400 parameter': 400,
      '400 key in the query': 400,
      '400 URL rule': 400,
      '404 route': 404,
      '404 server': 404,
      405: 405,
      414: 414,
      '414 past Node': 414,
      431: 431,
      '400 malformed': 400,
      '400 no Host': 400,
      401: 401,
      '401 key with a suffix': 401,
      '401 repeated key': 401,
      site: 200,
      304: 304,
      429: 429,
      502: 502,
      '502 unknown key': 502,
    });
    for (const { what, answer } of answers) expectNoKeyIn(visible(answer), `the ${what} answer`);
  }, 60_000);

  it('writes no key to stdout (the request log) or stderr, including the 502 report', async () => {
    await Promise.all([healthy.stop(), storeDown.stop()]); // flushes the buffered log lines
    const logs = healthy.stdout() + storeDown.stdout();
    expect(logs).toContain('"status":429'); // the request log really was written
    expect(storeDown.stderr()).toContain('answering 502'); // and the store failure really was reported
    expectNoKeyIn(logs, 'stdout');
    expectNoKeyIn(healthy.stderr() + storeDown.stderr(), 'stderr');
  }, 30_000);
});
