/**
 * The one place a store is chosen: `STORE=memory` (default), `redis` or `upstash`. Everything else receives
 * a `Store` and never asks which one it is.
 */
import type { Config } from '../config.js';
import { createMemoryStore } from './memory.js';
import type { Store } from './types.js';

export type StoreConfig = Pick<Config, 'store' | 'keysFile' | 'redisUrl' | 'upstashUrl' | 'upstashToken'>;

export interface CreateStoreOptions {
  /** Clock for the memory store's counter expiry (tests); remote stores use the server's own clock. */
  now?: () => number;
}

/** A store that cannot be created with this build; its message is one line, printed as is at start. */
export class StoreNotAvailableError extends Error {
  override readonly name = 'StoreNotAvailableError';
}

/** Creates the configured store. Remote stores connect on first use, so this never waits on the network. */
export function createStore(config: StoreConfig, options: CreateStoreOptions = {}): Store {
  switch (config.store) {
    case 'memory':
      return createMemoryStore({ keysFile: config.keysFile, now: options.now });
    // The Redis (TCP) and Upstash (REST) stores plug in here (issue 4): one case each, calling the
    // backend's factory with the URL and token from `config`.
    case 'redis':
    case 'upstash':
      throw new StoreNotAvailableError(
        `STORE=${config.store} is not available yet in this build; use STORE=memory (the default)`,
      );
  }
}
