/**
 * The service assembled from its configuration: config → store → engine (the snapshot, loaded once) →
 * gateway. `npm start` builds one at start; a Vercel function instance builds one lazily on its first
 * request and reuses it while warm (`getServiceContext`), so the snapshot, the search index and the store
 * client are made once per instance, not once per request.
 */
import type { Config } from './config.js';
import { loadConfig } from './config.js';
import { createGateway, type Gateway } from '../gateway/gateway.js';
import { formatRequestLogLine, type RequestLogger } from '../gateway/log.js';
import { createUnknownCounter } from '../gateway/unknown-counter.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../stores/deadline.js';
import type { QueryEngine } from '../query/types.js';
import { openSnapshot } from '../query/open.js';
import { DEFAULT_SNAPSHOT_DIR } from '../format/paths.js';
import { knownFlags } from '../query/known-flags.js';
import { unknownFlagsProblem } from '../model/flag-names.js';
import { OperatorError } from '../errors/operator-error.js';
import { createStore } from './store.js';
import type { Store } from '../stores/types.js';
import type { Notifications, NotifyOptions } from '../notify/service.js';

export interface ServiceContext {
  config: Config;
  store: Store;
  engine: QueryEngine;
  /** The folder the snapshot was loaded from. */
  snapshotDir: string;
  /** Milliseconds spent loading the snapshot (reported at start, and by the benchmark). */
  loadMs: number;
  gateway: Gateway;
  /** Webhook subscriptions and their dispatcher; undefined when `WEBHOOK_SECRETS_KEY` is not set. */
  notifications: Notifications | undefined;
}

export interface ServiceOptions {
  /** Where request log lines go; default: one `console.log` line each (what a function platform collects). */
  log?: RequestLogger;
  /** Clock, DNS and timeouts of the notifications (tests). */
  notify?: NotifyOptions;
}

/** Build the service for `config`: create the store, load the snapshot, make the gateway. */
export async function createServiceContext(config: Config, options: ServiceOptions = {}): Promise<ServiceContext> {
  const snapshotDir = config.snapshotDir ?? DEFAULT_SNAPSHOT_DIR;
  const store = await createStore(config);
  let engine: QueryEngine;
  const started = performance.now();
  try {
    // Open as soon as Get Server can answer; the caller starts loading the rest (`engine.loadAll()`).
    engine = await openSnapshot(snapshotDir);
    // A misspelt REGISTRY_DENY_FLAGS would leave the feed unfiltered: refused at start, naming the closest flags.
    const problem = unknownFlagsProblem('REGISTRY_DENY_FLAGS', config.registryPolicy.denyFlags, knownFlags(engine));
    if (problem !== undefined) throw new OperatorError(problem);
  } catch (error) {
    await store.close();
    throw error;
  }
  // The store's marker is left now, so health can tell later whether the store lost its data meanwhile.
  // Not awaited: a store that is down at start is health's to report, and the start never waits on it.
  store.dataKept().catch(() => undefined);
  // The webhook machinery (the dispatcher, the receiver address rules and their HTTP agents, the signing) is
  // loaded only when webhooks are on: a start with them off answers sooner without it.
  const notifications =
    config.notify.secretsKey === undefined
      ? undefined
      : (await import('../notify/service.js')).createNotifications(
          store,
          {
            ...config.notify,
            baseUrl: config.notify.publicUrl ?? `http://${config.host}:${config.port}`,
            apiKeyHashes: config.apiKeyHashes,
          },
          options.notify,
        );
  const gateway = createGateway({
    engine,
    store,
    ...(notifications === undefined ? {} : { webhooks: notifications.subscriptions }),
    ...(config.countUnknown
      ? { countUnknown: createUnknownCounter(store, { timeoutMs: DEFAULT_STORE_TIMEOUT_MS }) }
      : {}),
    config: {
      freeDailyLimit: config.freeDailyLimit,
      apiKeyHashes: config.apiKeyHashes,
      selfService: config.selfService,
      registryPolicy: config.registryPolicy,
      staleAfterDays: config.staleAfterDays,
      ...(config.siteOrigin === undefined ? {} : { siteOrigin: config.siteOrigin }),
    },
    log: options.log ?? ((line) => console.log(formatRequestLogLine(line))),
  });
  return { config, store, engine, snapshotDir, gateway, notifications, loadMs: performance.now() - started };
}

let shared: Promise<ServiceContext> | undefined;

export interface SharedContextOptions {
  /**
   * Told of work that goes on after the first answer (the rest of the snapshot loading), so a platform that
   * freezes an instance once it has answered waits for it (Vercel's `waitUntil`).
   */
  afterAnswer?: (work: Promise<unknown>) => void;
}

/**
 * The context of this process, from `process.env`, created on first call and then reused. A failed start
 * (a bad variable, a missing snapshot) is not cached, so the next request tries again and logs why.
 */
export function getServiceContext(options: SharedContextOptions = {}): Promise<ServiceContext> {
  shared ??= (async () => {
    const context = await createServiceContext(loadConfig());
    // The rest of the snapshot loads while the first requests are answered; a part that fails its check
    // makes the requests that need it fail (500) and is logged here, once, in one line.
    const rest = context.engine
      .loadAll()
      .catch((error: unknown) => console.error(error instanceof Error ? error.message : String(error)));
    options.afterAnswer?.(rest);
    return context;
  })().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}
