/**
 * The wrapper's HTTP client on the network conditions the real API cannot be made to produce on demand: a
 * server that never answers (the timeout must bound the call) and something that is not the API at all.
 * Both are real local HTTP servers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrustApiClient, TrustApiError } from '../../src/client/client.js';

describe('the API client', () => {
  let server: http.Server;
  let base: string;
  const received: { url: string; key: string | undefined }[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      received.push({ url: request.url ?? '', key: request.headers['x-api-key'] as string | undefined });
      if (request.url?.startsWith('/silent/')) return; // never answers
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not the API</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives up on a server that never answers once the timeout has passed', async () => {
    const client = createTrustApiClient({ baseUrl: `${base}/silent/v1`, apiKey: 'k', timeoutMs: 300 });
    const startedAt = performance.now();
    const error = await client.stats().catch((caught: unknown) => caught);
    const elapsed = performance.now() - startedAt;
    expect(error).toBeInstanceOf(TrustApiError);
    expect((error as TrustApiError).kind).toBe('timeout');
    expect((error as TrustApiError).message).toContain(`${base}/silent/v1/stats`);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000);
  });

  it('refuses an answer that is not the API’s JSON, naming the URL', async () => {
    const client = createTrustApiClient({ baseUrl: `${base}/v1/`, apiKey: 'secret-key', timeoutMs: 2000 });
    const error = await client.getServer('a.b/c d').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TrustApiError);
    expect((error as TrustApiError).kind).toBe('invalid_response');
    expect((error as TrustApiError).message).toContain('not JSON');
    expect((error as TrustApiError).message).not.toContain('secret-key');
    // Each path segment is percent-encoded on its own; the key travels only in X-API-Key.
    expect(received.at(-1)).toEqual({ url: '/v1/servers/a.b/c%20d', key: 'secret-key' });
  });

  it('sends only the list parameters it was given, under the API’s own names', async () => {
    const client = createTrustApiClient({ baseUrl: `${base}/v1`, apiKey: 'k', timeoutMs: 2000 });
    await client
      .list({ limit: 10, offset: 0, sort: 'name', order: 'asc', flags: 'NO_SOURCE,DEAD_ENTRY' })
      .catch(() => undefined);
    expect(received.at(-1)?.url).toBe('/v1/servers?limit=10&offset=0&sort=name&order=asc&flags=NO_SOURCE%2CDEAD_ENTRY');
  });
});
