/**
 * The failure policy of the Upstash store over real HTTP, without Redis: an endpoint that accepts requests
 * and never answers (the request must be aborted, not left hanging) and an endpoint that refuses
 * connections. Both must reject with StoreUnavailableError within about a second.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/stores/types.js';
import { createUpstashStore } from '../../src/stores/upstash.js';
import { freePort } from '../support/redis-server.js';

const TIMEOUT_MS = 1000;
const REJECTED_WITHIN_MS = 2000;

async function timed(call: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  try {
    await call();
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

describe('the Upstash store when its endpoint does not answer', () => {
  let silent: Server;
  let url: string;
  const received: IncomingMessage[] = [];
  let aborted = 0;

  beforeAll(async () => {
    // Reads each request and never responds, like an endpoint stuck behind a dead upstream.
    silent = createServer((request) => {
      received.push(request);
      request.socket.on('close', () => {
        aborted += 1;
      });
      request.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('rejects with StoreUnavailableError within the bound and really aborts the hanging request', async () => {
    const store = createUpstashStore({ url, token: 'test-token', prefix: 'mts-test:silent:', timeoutMs: TIMEOUT_MS });
    const outcomes = await Promise.all([
      timed(() => store.increment('n', Date.now() + 60_000)),
      timed(() => store.findKey('b'.repeat(64))),
      timed(() => store.ping()),
    ]);
    for (const outcome of outcomes) {
      expect(outcome.error).toBeInstanceOf(StoreUnavailableError);
      expect(outcome.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(outcome.ms).toBeLessThan(REJECTED_WITHIN_MS);
    }
    expect(received.length).toBeGreaterThan(0);
    // The client closed its side: the fetch was aborted, not left waiting for an answer that never comes.
    await expect.poll(() => aborted, { timeout: 1000 }).toBe(received.length);
    await store.close();
  });

  it('rejects at once with StoreUnavailableError when nothing listens at the URL', async () => {
    const closedPort = await freePort();
    const store = createUpstashStore({
      url: `http://127.0.0.1:${closedPort}`,
      token: 'test-token',
      timeoutMs: TIMEOUT_MS,
    });
    const outcome = await timed(() => store.increment('n', Date.now() + 60_000));
    expect(outcome.error).toBeInstanceOf(StoreUnavailableError);
    expect(outcome.ms).toBeLessThan(REJECTED_WITHIN_MS);
    await store.close();
  });
});
