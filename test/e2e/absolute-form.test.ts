/**
 * Request targets in absolute form (`GET http://host/v1/stats HTTP/1.1`), which RFC 9112 section 3.2.2
 * asks a server to accept: they reach the API exactly as the origin form does, never the site (issue 32,
 * point 8).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';
import { exchange } from '../support/raw-http.js';
import { type ServerProcess, startServer } from './process.js';

const KEY = 'mts_ABSOLUTEformTESTkeyQ7vX2pL9sT4wZ8mN3bR6yH1jK5';

describe('absolute-form request targets', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let port: number;
  beforeAll(async () => {
    server = await startServer({ SNAPSHOT_DIR: await buildTestSnapshot(RECORDS), API_KEYS: KEY });
    port = Number(new URL(server.base).port);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (target: string) =>
    exchange(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${KEY}\r\nConnection: close\r\n\r\n`);

  it('answers GET http://host/v1/... as GET /v1/...', async () => {
    for (const [absolute, origin] of [
      [`http://127.0.0.1:${port}/v1/servers/io.github.acme/postgres-mcp`, '/v1/servers/io.github.acme/postgres-mcp'],
      [`HTTP://example.com/v1/search?q=postgres`, '/v1/search?q=postgres'],
      [`http://example.com/v1/nothing`, '/v1/nothing'],
      [`http://example.com/badges/io.github.acme/postgres-mcp.svg`, '/badges/io.github.acme/postgres-mcp.svg'],
    ]) {
      const [a, o] = [await get(absolute!), await get(origin!)];
      expect(a.status, absolute).toBe(o.status);
      expect(a.headers['content-type'], absolute).toBe(o.headers['content-type']);
      // The second of the two is a cache hit: `meta.cached` is all that may differ.
      const uncached = (body: string) => body.replace('"cached":true', '"cached":false');
      expect(uncached(a.body), absolute).toBe(uncached(o.body));
    }
    expect((await get('http://example.com/v1/nothing')).headers['content-type']).toContain('application/json');
  });
});
