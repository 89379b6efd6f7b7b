/**
 * A Redis store of a test file's own whose tally of unknown identifiers holds what checks asked about today,
 * for the nights that read it (`rescore`'s `unknown` option). The tally is written before the file's tests and
 * every key under the file's prefix deleted after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { createRedisStore } from '../../src/stores/redis.js';
import { unknownDay } from '../../src/stores/unknown-tally.js';
import { deleteKeysWithPrefix, testRedisPrefix, testRedisUrl } from './redis-server.js';

const DAY_MS = 86_400_000;

/** Call inside a `describe`: `identifiers` asked once each today, under a prefix named after `name`. */
export function storeWithAskedIdentifiers(
  name: string,
  identifiers: readonly string[],
): { store: ReturnType<typeof createRedisStore>; prefix: string } {
  const url = testRedisUrl();
  const prefix = testRedisPrefix(name);
  const store = createRedisStore({ url, prefix });
  beforeAll(async () => {
    const now = Date.now();
    await store.countUnknown(unknownDay(now), [...identifiers], 100, now + 2 * DAY_MS);
  });
  afterAll(async () => {
    await store.close();
    await deleteKeysWithPrefix(url, prefix);
  });
  return { store, prefix };
}
