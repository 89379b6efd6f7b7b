/**
 * Request bodies that never arrive whole (issue 32, point 5): a client that half-closes its side mid-body
 * gets 400 `invalid_body` (the socket can still carry the answer); one that resets the connection gets
 * nothing, since nothing can reach it. Neither is a 500, and a flood of them writes at most one line to
 * stderr, with no stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';
import { exchange } from '../support/raw-http.js';
import { type ServerProcess, startServer } from './process.js';

const KEY = 'mts_ABORTEDbodyTESTkeyQ7vX2pL9sT4wZ8mN3bR6yH1jK';

function cutBody(path: string, key?: string): string {
  const headers = [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    'Content-Length: 100',
    ...(key === undefined ? [] : [`X-API-Key: ${key}`]),
  ];
  return `${headers.join('\r\n')}\r\n\r\n{"label":"cut`;
}

describe('request bodies cut short', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let port: number;

  beforeAll(async () => {
    server = await startServer({ SNAPSHOT_DIR: await buildTestSnapshot(RECORDS), API_KEYS: KEY, STORE: 'memory' });
    port = Number(new URL(server.base).port);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 400 invalid_body to a client that half-closes mid-body, keyless and keyed', async () => {
    for (const [path, key] of [
      ['/v1/keys', undefined],
      ['/v1/check', KEY],
    ] as const) {
      const answer = await exchange(port, cutBody(path, key), { ending: 'half-close' });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { status: 400, code: 'invalid_body' } });
    }
  });

  it('writes at most one line, and no stack, for 200 bodies cut short', async () => {
    const before = server.stderr().length;
    for (let wave = 0; wave < 10; wave++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          exchange(port, cutBody('/v1/keys'), { ending: i % 2 === 0 ? 'abort' : 'half-close', boundMs: 5000 }),
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = server.stderr().slice(before);
    expect(written.split('\n').filter((line) => line !== '').length).toBeLessThanOrEqual(1);
    expect(written).not.toMatch(/\n\s+at /);
    const health = await fetch(`${server.base}/v1/health`);
    expect(health.status).toBe(200);
  });
});
