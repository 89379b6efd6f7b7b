/**
 * The one place a store is chosen: `STORE=memory` (default), `redis` or `upstash`. Everything else receives
 * a `Store` and never asks which one it is.
 */
import { OperatorError } from '../errors/operator-error.js';
import type { Config } from './config.js';
import { createMemoryStore } from '../stores/memory.js';
import type { Store } from '../stores/types.js';

export type StoreConfig = Pick<Config, 'store' | 'keysFile' | 'redisUrl' | 'upstashUrl' | 'upstashToken'> &
  Partial<Pick<Config, 'redisPrefix'>>;

export interface CreateStoreOptions {
  /** Clock for the memory store's counter expiry (tests); remote stores use the server's own clock. */
  now?: () => number;
}

/** A store that cannot be created with this build; its message is one line, printed as is at start. */
export class StoreNotAvailableError extends OperatorError {
  override name = 'StoreNotAvailableError';
}

/** A remote factory rejects a malformed URL at once; that is a configuration problem, reported in one line. */
async function asConfigError(create: () => Promise<Store>): Promise<Store> {
  try {
    return await create();
  } catch (error) {
    throw new StoreNotAvailableError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Creates the configured store. Remote stores connect on first use, so this never waits on the network;
 * their client libraries are imported only when chosen, which keeps them out of every memory-store start.
 */
export async function createStore(config: StoreConfig, options: CreateStoreOptions = {}): Promise<Store> {
  const prefix = config.redisPrefix;
  switch (config.store) {
    case 'memory':
      return createMemoryStore({ keysFile: config.keysFile, now: options.now });
    case 'redis': {
      const url = config.redisUrl;
      if (!url) throw new StoreNotAvailableError('STORE=redis needs REDIS_URL');
      return asConfigError(async () => (await import('../stores/redis.js')).createRedisStore({ url, prefix }));
    }
    case 'upstash': {
      const { upstashUrl: url, upstashToken: token } = config;
      if (!url || !token) {
        throw new StoreNotAvailableError('STORE=upstash needs UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN');
      }
      return asConfigError(async () =>
        (await import('../stores/upstash.js')).createUpstashStore({ url, token, prefix }),
      );
    }
  }
}
