/**
 * Notifications assembled from the configuration, once per instance: the subscriptions the routes use and
 * the dispatcher the triggers run (`npm start`'s timer, `npm run notify`, the platform's cron). Off (both
 * undefined) without a secrets key. The agents that filter receiver addresses are made here, once.
 */
import type { LookupFunction } from 'node:net';
import type { KeyStore, NotifyStore } from '../stores/types.js';
import { type Lookup, receiverAgents } from './address-filter.js';
import { createDispatcher, type Dispatcher, type DispatcherDeps } from './dispatcher.js';
import type { Sender } from './send.js';
import { createSubscriptions, type Subscriptions } from './key-subscriptions.js';

export interface NotifySettings {
  secretsKey: Buffer | undefined;
  /** Old keys that still open signing secrets during a change of key. */
  previousSecretsKeys?: readonly Buffer[];
  allowHttp: boolean;
  allowPrivate: boolean;
  /** The service's address as receivers see it, without a trailing slash. */
  baseUrl: string;
  /** Hashes of the keys of `API_KEYS` (valid owners that are not in the store). */
  apiKeyHashes?: readonly string[];
}

export interface Notifications {
  subscriptions: Subscriptions;
  dispatcher: Dispatcher;
  close(): void;
}

export interface NotifyOptions extends Pick<
  DispatcherDeps,
  'now' | 'random' | 'owner' | 'log' | 'concurrency' | 'slowAfterMs'
> {
  /** Bound of one attempt (default 10 s). */
  timeoutMs?: number;
  /** DNS lookups in place of the system's: at subscription time, and inside each delivery's connection. */
  lookup?: { check: Lookup; connect: LookupFunction };
}

export function createNotifications(
  store: NotifyStore & Pick<KeyStore, 'findKey'>,
  settings: NotifySettings,
  options: NotifyOptions = {},
): Notifications | undefined {
  if (settings.secretsKey === undefined) return undefined;
  const { timeoutMs, lookup, ...dispatch } = options;
  const agents = receiverAgents(settings.allowPrivate);
  const sender: Sender = {
    secretsKey: settings.secretsKey,
    previousSecretsKeys: settings.previousSecretsKeys ?? [],
    agents,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(lookup === undefined ? {} : { lookup: lookup.connect }),
  };
  const subscriptions = createSubscriptions({
    store,
    sender,
    allowHttp: settings.allowHttp,
    allowPrivate: settings.allowPrivate,
    ...(lookup === undefined ? {} : { lookup: lookup.check }),
    ...(dispatch.now === undefined ? {} : { now: dispatch.now }),
  });
  const configured = new Set(settings.apiKeyHashes ?? []);
  const ownerValid = async (keyHash: string) => configured.has(keyHash) || (await store.findKey(keyHash)) !== undefined;
  const dispatcher = createDispatcher({ store, sender, baseUrl: settings.baseUrl, ownerValid, ...dispatch });
  return { subscriptions, dispatcher, close: () => agents.destroy() };
}
