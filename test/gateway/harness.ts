/**
 * What the gateway tests share: a small real snapshot (built with the real build and loaded with the real
 * loader), a memory store, a fixed clock, and helpers to call the gateway with Web Requests.
 */
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { createGateway, type Gateway, type GatewayConfig } from '../../src/gateway/gateway.js';
import type { RequestLogLine } from '../../src/gateway/log.js';
import type { QueryEngine } from '../../src/query/types.js';
import { loadSnapshot } from '../../src/query/open.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import type { PlanName } from '../../src/keys/record.js';
import { createUnknownCounter } from '../../src/gateway/unknown-counter.js';
import type { Store } from '../../src/stores/types.js';
import type { Subscriptions } from '../../src/notify/key-subscriptions.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

/** 2026-03-10T12:00:00Z: twelve hours before the next UTC midnight. */
export const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
export const NEXT_MIDNIGHT = Date.UTC(2026, 2, 11);
export const RESET_SECONDS = String(NEXT_MIDNIGHT / 1000);

export const RECORDS = [
  makeRecord({
    name: 'io.github.acme/postgres-mcp',
    trust_score: 91,
    targets: ['PostgreSQL'],
    verified_publisher: true,
    packages: [
      { registry_type: 'npm', identifier: '@acme/postgres-mcp', version: '1.0.0' },
      { registry_type: 'oci', identifier: 'ghcr.io/acme/postgres-mcp:1.0', version: null },
    ],
    remotes: [],
  }),
  makeRecord({
    name: 'io.github.acme/Slack-Bot',
    trust_score: 72,
    flags: ['NO_SOURCE'],
    targets: ['Slack'],
    packages: [{ registry_type: 'pypi', identifier: 'Slack_Bot.MCP', version: '0.3.0' }],
    remotes: [{ type: 'streamable-http', url: 'https://slack.acme.io/mcp' }],
  }),
  makeRecord({
    name: 'com.example/mcp',
    trust_score: 45,
    flags: ['NO_SOURCE', 'DEAD_ENTRY'],
    remotes: [{ type: 'sse', url: 'HTTPS://Example.COM/mcp/' }],
  }),
  makeRecord({
    name: 'org.sample/weather',
    trust_score: 12,
    flags: ['SENSITIVE_CRED_REQUEST'],
    description: 'Forecasts for any city',
  }),
  makeRecord({
    name: 'dev.tools/github-helper',
    trust_score: 64,
    description: 'GitHub issues, and the weather where your team works',
    targets: ['GitHub'],
    // Shares a package with postgres-mcp: a package may belong to several servers.
    packages: [
      { registry_type: 'npm', identifier: '@acme/postgres-mcp', version: '0.9.0' },
      { registry_type: 'oci', identifier: 'mcp/github', version: null },
    ],
  }),
];

let engine: Promise<QueryEngine> | undefined;

/** The engine of RECORDS, built and loaded once per test file. */
export function testEngine(): Promise<QueryEngine> {
  engine ??= buildTestSnapshot(RECORDS).then((dir) => loadSnapshot(dir));
  return engine;
}

export interface Harness {
  gateway: Gateway;
  store: Store;
  /** A valid free-plan key, issued in the store. */
  key: string;
  logs: RequestLogLine[];
  clock: { now: number };
  /** Call the gateway with a Web Request for `path` (e.g. `/v1/stats`), with the key unless told otherwise. */
  call(
    path: string,
    init?: { method?: string; key?: string | null; headers?: Record<string, string>; body?: string },
  ): Promise<Response>;
  /** Issue another key for `plan` and return it. */
  issue(plan?: PlanName): Promise<string>;
}

export async function harness(
  options: {
    config?: Partial<GatewayConfig>;
    store?: Store;
    engine?: QueryEngine | (() => QueryEngine);
    webhooks?: (store: Store, now: () => number) => Subscriptions | undefined;
    /** Count the identifiers the snapshot does not know in the store (`UNKNOWN_IDENTIFIER_COUNTING=on`). */
    countUnknown?: boolean;
  } = {},
): Promise<Harness> {
  const clock = { now: NOW };
  const store = options.store ?? createMemoryStore({ now: () => clock.now });
  const logs: RequestLogLine[] = [];
  const webhooks = options.webhooks?.(store, () => clock.now);
  const gateway = createGateway({
    engine: options.engine ?? (await testEngine()),
    store,
    ...(webhooks === undefined ? {} : { webhooks }),
    ...(options.countUnknown ? { countUnknown: createUnknownCounter(store, { timeoutMs: 1000 }) } : {}),
    // The records were scored 17 days before NOW: health calls them fresh here unless a test says otherwise.
    config: { freeDailyLimit: 100, staleAfterDays: 30, ...options.config },
    now: () => clock.now,
    log: (line) => logs.push(line),
  });
  const issue = async (plan: PlanName = 'free') => {
    const key = generateKey();
    await store.addKey({ hash: hashKey(key), plan, label: 'test', created_at: new Date(NOW).toISOString() });
    return key;
  };
  const key = options.store ? generateKey() : await issue();
  const call: Harness['call'] = (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const presented = init.key === undefined ? key : init.key;
    if (presented !== null) headers['x-api-key'] = presented;
    if (init.body !== undefined) headers['content-type'] ??= 'application/json';
    return gateway(new Request(`http://localhost${path}`, { method: init.method ?? 'GET', headers, body: init.body }));
  };
  return { gateway, store, key, logs, clock, call, issue };
}

/** The error body, checked to be exactly `{"error":{"message","status","code"}}` with the response's status. */
export async function errorOf(response: Response): Promise<{ message: string; status: number; code: string }> {
  const body = (await response.json()) as { error: { message: string; status: number; code: string } };
  if (Object.keys(body).join() !== 'error') throw new Error(`not an error body: ${JSON.stringify(body)}`);
  const { error } = body;
  if (Object.keys(error).sort().join() !== 'code,message,status')
    throw new Error(`bad error members: ${JSON.stringify(error)}`);
  if (typeof error.message !== 'string' || error.message === '') throw new Error('empty message');
  if (error.status !== response.status) throw new Error(`error.status ${error.status} != HTTP ${response.status}`);
  return error;
}

/** The envelope, checked to have `data` and `meta` (with a boolean `cached`) and nothing else. */
export async function envelopeOf<T = unknown>(
  response: Response,
): Promise<{ data: T; meta: Record<string, unknown> & { cached: boolean } }> {
  const body = (await response.json()) as { data: T; meta: Record<string, unknown> & { cached: boolean } };
  if (Object.keys(body).sort().join() !== 'data,meta')
    throw new Error(`not an envelope: ${JSON.stringify(body).slice(0, 200)}`);
  if (typeof body.meta.cached !== 'boolean') throw new Error('meta.cached is not a boolean');
  return body;
}

/** The three rate-limit headers of a response. */
export function limitsOf(response: Response): { limit: string | null; remaining: string | null; reset: string | null } {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  };
}
