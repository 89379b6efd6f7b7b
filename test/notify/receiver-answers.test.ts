/**
 * What a delivery reads of a receiver's answer (L3): only up to the excerpt it keeps, then the socket is
 * closed, so a receiver streaming a body without end costs the dispatcher neither time nor memory.
 */
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { receiverAgents } from '../../src/notify/address-filter.js';
import { postEvent } from '../../src/notify/post.js';
import { listenLocally } from '../support/local-server.js';

describe('a receiver answer', () => {
  const agents = receiverAgents(true);
  afterAll(() => agents.destroy());

  it('is read only up to the 500-character excerpt, then the connection is closed', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    let closedAt: number | undefined;
    const endless = http.createServer((request, response) => {
      request.resume();
      response.writeHead(500, { 'content-type': 'text/plain' });
      // Writes for as long as the client reads, up to 200 MB (a bound so a failing test still ends).
      const pump = () => {
        while (written < 200 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      response.on('close', () => (closedAt = performance.now()));
      pump();
    });
    const server = await listenLocally(endless);
    try {
      const started = performance.now();
      const result = await postEvent(new URL(`${server.url}/hook`), '{}', {}, { agents, timeoutMs: 5000 });
      expect(result).toMatchObject({ ok: false, status: 500, error: 'answered 500' });
      expect(result.body).toBe('x'.repeat(500));
      expect(performance.now() - started).toBeLessThan(2000);
      await expect.poll(() => closedAt, { timeout: 2000 }).toBeDefined();
      // What the socket buffers took before the close, not the whole answer.
      expect(written).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });
});
