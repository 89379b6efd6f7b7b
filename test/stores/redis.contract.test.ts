/**
 * The store contract against a real Redis over TCP (`REDIS_URL`, default 127.0.0.1:6379). Skipped with the
 * reason printed when no Redis answers; under CI that is a failure instead (see test/support/redis-server.ts).
 */
import { createClient } from 'redis';
import { afterAll, describe } from 'vitest';
import { createRedisStore } from '../../src/stores/redis.js';
import { deleteKeysWithPrefix, redisSkipReason, testRedisUrl } from '../support/redis-server.js';
import { describeStoreContract } from './contract.js';

const url = testRedisUrl();
const skipReason = await redisSkipReason(url);

describe.skipIf(skipReason !== undefined)(`Redis at ${skipReason ?? 'the test server'}`, () => {
  // One plain client to read what the store wrote (PTTL), as an independent observer.
  const observer = createClient({ url });
  afterAll(() => observer.destroy());

  describeStoreContract('redis', async (prefix) => {
    if (!observer.isOpen) await observer.connect();
    return {
      store: createRedisStore({ url, prefix }),
      counterTtlMs: (key) => observer.pTTL(`${prefix}counter:${key}`),
      cleanup: () => deleteKeysWithPrefix(url, prefix),
    };
  });
});
