/**
 * Keyless routes cannot be made to keep what clients ask: 100,000 requests for unknown feed and badge names
 * leave the heap where it was, within 5 MB (issue 32, point 2). Heap sizes are read after a full collection.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/gateway.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { testEngine } from './harness.js';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const NAMES = 100_000;
const MB = 1024 * 1024;

describe('keyless routes under a flood of unknown names', { timeout: 120_000 }, () => {
  it('keeps the heap within 5 MB after 100,000 unknown feed, badge and registry names', async () => {
    // No request log: the harness keeps every line, which is the test's memory, not the server's.
    const gateway = createGateway({
      engine: await testEngine(),
      store: createMemoryStore(),
      config: { freeDailyLimit: 100 },
    });
    const ask = async (path: string) => {
      const response = await gateway.handle({ method: 'GET', url: path, headers: { get: () => null } });
      expect(response.status).toBe(404);
    };
    // Warm: every code path has run and made what it keeps for good (the router, the headers, the engine).
    for (let i = 0; i < 1000; i++) {
      await ask(`/feeds/servers/io.warm/n${i}.atom`);
      await ask(`/badges/io.warm/n${i}.svg`);
      await ask(`/v0.1/servers/io.warm%2Fn${i}/versions/latest`);
    }
    const before = heapUsed();
    for (let i = 0; i < NAMES; i++) {
      const name = `io.flood${i % 97}/unknown-server-${i}-${'x'.repeat(i % 40)}`;
      await ask(`/feeds/servers/${name}.atom`);
      await ask(`/badges/${name}.svg`);
      await ask(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    }
    const grown = heapUsed() - before;
    expect(grown / MB).toBeLessThan(5);
  });
});
