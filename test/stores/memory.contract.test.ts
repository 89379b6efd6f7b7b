/**
 * The store contract against the memory store, with its real key file in a private temporary directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMemoryStore } from '../../src/stores/memory.js';
import { describeStoreContract } from './contract.js';

describeStoreContract('memory', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'mts-memory-store-'));
  return {
    store: createMemoryStore({ keysFile: path.join(dir, 'keys.json') }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
