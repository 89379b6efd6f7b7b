/**
 * `npm run keys -- <command>`: issue, list and revoke API keys in the configured store (`STORE`; with the
 * default memory store, the key file `KEYS_FILE` that `npm start` reads, default `.local/keys.json`).
 *
 *   create [--plan free] [--label TEXT]   prints the new key once, alone on the last line of stdout
 *   list                                  hash prefix, plan, label, created_at; never a key
 *   revoke <hash-prefix>                  removes the key whose hash starts with the prefix (8+ hex), and
 *                                         deletes its webhook subscriptions (shared stores)
 *   webhooks list <hash-prefix>           the key's webhook subscriptions (id, status, receiver's host)
 *   webhooks delete <hash-prefix> [<id>]  deletes one of them, or all of them
 *
 * With the memory store the subscriptions live inside the `npm start` process, out of this command's reach:
 * there a revoked key's subscriptions are disabled by the server at their next delivery (it checks the owner).
 *
 * Only the SHA-256 hash of a key is stored, so a key cannot be shown again: a lost key is revoked and
 * replaced. A running `npm start` picks up a change to the key file without a restart.
 */
import { UsageError } from '../src/errors/operator-error.js';
import { runMain } from './lib/main.js';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/service/config.js';
import { generateKey, hashKey, hashPrefix } from '../src/keys/keys.js';
import { escapeLabel, LABEL_FORBIDDEN } from '../src/keys/label.js';
import { isPlanName, PLAN_NAMES, planTable } from '../src/keys/plans.js';
import { createStore } from '../src/service/store.js';
import type { Store } from '../src/stores/types.js';
import { SUBSCRIPTION_ID_PATTERN } from '../src/notify/subscription-schema.js';
import { deleteSubscription, deleteSubscriptionsOfKey, subscriptionsOfKey } from '../src/notify/key-subscriptions.js';

const USAGE = `Usage:
  npm run keys -- create [--plan free] [--label TEXT]
  npm run keys -- list
  npm run keys -- revoke <hash-prefix>
  npm run keys -- webhooks list <hash-prefix>
  npm run keys -- webhooks delete <hash-prefix> [<subscription-id>]`;

/** A mistake of the caller: printed as one message with a non-zero exit, never a stack trace. */

const MAX_LABEL = 200;

async function create(store: Store, args: string[], freeDailyLimit: number): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { plan: { type: 'string', default: 'free' }, label: { type: 'string', default: '' } },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError(`create takes no arguments besides --plan and --label\n${USAGE}`);
  const planName = values.plan;
  if (!isPlanName(planName)) throw new UsageError(`Unknown plan "${planName}"; plans: ${PLAN_NAMES.join(', ')}`);
  const plan = planTable(freeDailyLimit)[planName];
  if (!plan.issuable) {
    const issuable = PLAN_NAMES.filter((name) => planTable()[name].issuable).join(', ');
    throw new UsageError(
      `The ${plan.name} plan (${plan.dailyLimit} requests a day) is announced but not available yet: ` +
        `keys cannot be issued for it. Issuable plans: ${issuable}`,
    );
  }
  const label = values.label.trim();
  if (label.length > MAX_LABEL) throw new UsageError(`--label must be at most ${MAX_LABEL} characters`);
  if (LABEL_FORBIDDEN.test(label)) {
    throw new UsageError('--label must not contain control characters or bidirectional formatting characters');
  }

  const key = generateKey();
  const hash = hashKey(key);
  await store.addKey({ hash, plan: plan.name, label, created_at: new Date().toISOString() });
  console.log(`Created a ${plan.name}-plan key (${plan.dailyLimit} requests a day), hash prefix ${hashPrefix(hash)}.`);
  console.log('Copy it now: it is shown only this once and cannot be retrieved again.');
  console.log(key);
}

async function list(store: Store, args: string[], apiKeyCount: number): Promise<void> {
  if (args.length > 0) throw new UsageError(`list takes no arguments\n${USAGE}`);
  const keys = await store.listKeys();
  if (keys.length === 0) {
    console.log('No issued keys. Create one with: npm run keys -- create');
  } else {
    // A label stored by an older version (or written into the store by hand) may hold anything: escaped.
    const rows = keys.map((record) => [
      hashPrefix(record.hash),
      record.plan,
      record.created_at,
      escapeLabel(record.label),
    ]);
    const header = ['HASH', 'PLAN', 'CREATED_AT', 'LABEL'];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
    );
    for (const row of [header, ...rows]) {
      console.log(
        row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '),
      );
    }
  }
  if (apiKeyCount > 0) console.log(`(plus ${apiKeyCount} free-plan key(s) from API_KEYS, which are not stored)`);
}

function checkPrefix(prefix: string): string {
  if (!/^[0-9a-fA-F]{8,64}$/.test(prefix)) {
    throw new UsageError('A hash prefix is 8 to 64 hex characters, as shown by: npm run keys -- list');
  }
  return prefix.toLowerCase();
}

/** The one full hash, of an issued key or of API_KEYS, that starts with `prefix`. */
async function hashOf(store: Store, prefix: string, apiKeyHashes: readonly string[]): Promise<string> {
  const hashes = new Set([...(await store.listKeys()).map((record) => record.hash), ...apiKeyHashes]);
  const found = [...hashes].filter((hash) => hash.startsWith(prefix));
  if (found.length === 0) throw new UsageError(`No key's hash starts with ${prefix}`);
  if (found.length > 1) throw new UsageError(`More than one key's hash starts with ${prefix}; give more of it`);
  return found[0]!;
}

const MEMORY_WEBHOOKS =
  'With STORE=memory the webhook subscriptions live inside the npm start process, out of reach of this command';

async function revoke(store: Store, args: string[]): Promise<void> {
  const [given, ...rest] = args;
  if (given === undefined || rest.length > 0) throw new UsageError(`revoke takes one hash prefix\n${USAGE}`);
  const prefix = checkPrefix(given);
  const hash = (await store.listKeys()).find((record) => record.hash.startsWith(prefix))?.hash;
  if (!(await store.revokeKey(prefix)) || hash === undefined)
    throw new UsageError(`No key's hash starts with ${prefix}`);
  console.log(`Revoked the key ${prefix}. Requests with it now get 401.`);
  if (store.kind === 'memory') {
    console.log(`${MEMORY_WEBHOOKS}: the server disables them at their next delivery.`);
    return;
  }
  const deleted = await deleteSubscriptionsOfKey(store, hash);
  console.log(`Deleted its ${deleted} webhook subscription(s); none of them is delivered again.`);
}

async function webhooks(store: Store, args: string[], apiKeyHashes: readonly string[]): Promise<void> {
  const [action, given, id, ...rest] = args;
  const usage = `webhooks takes list <hash-prefix>, or delete <hash-prefix> [<subscription-id>]\n${USAGE}`;
  if (given === undefined || rest.length > 0 || (action === 'list' && id !== undefined)) throw new UsageError(usage);
  if (action !== 'list' && action !== 'delete') throw new UsageError(usage);
  if (store.kind === 'memory') throw new UsageError(`${MEMORY_WEBHOOKS}; use the /v1/webhooks routes with the key`);
  const hash = await hashOf(store, checkPrefix(given), apiKeyHashes);
  if (action === 'delete') {
    if (id === undefined) {
      console.log(
        `Deleted ${await deleteSubscriptionsOfKey(store, hash)} webhook subscription(s) of ${hashPrefix(hash)}.`,
      );
      return;
    }
    if (!SUBSCRIPTION_ID_PATTERN.test(id) || !(await deleteSubscription(store, hash, id)))
      throw new UsageError(
        `The key ${hashPrefix(hash)} has no webhook subscription ${JSON.stringify(id.slice(0, 40))}`,
      );
    console.log(`Deleted the webhook subscription ${id} of ${hashPrefix(hash)}.`);
    return;
  }
  const records = await subscriptionsOfKey(store, hash);
  if (records.length === 0) {
    console.log(`The key ${hashPrefix(hash)} has no webhook subscriptions.`);
    return;
  }
  // The receiver's host only: its path and query may hold the receiver's own token.
  const rows = records.map((record) => [
    record.id,
    record.status,
    record.created_at,
    escapeLabel(new URL(record.url).host),
  ]);
  const header = ['ID', 'STATUS', 'CREATED_AT', 'RECEIVER_HOST'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  for (const row of [header, ...rows])
    console.log(
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '),
    );
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    if (command === undefined) process.exitCode = 1;
    return;
  }
  const config = loadConfig();
  const store = await createStore(config);
  try {
    if (command === 'create') await create(store, args, config.freeDailyLimit);
    else if (command === 'list') await list(store, args, config.apiKeyHashes.length);
    else if (command === 'revoke') await revoke(store, args);
    else if (command === 'webhooks') await webhooks(store, args, config.apiKeyHashes);
    else throw new UsageError(`Unknown command "${command}"\n${USAGE}`);
  } finally {
    await store.close();
  }
}

runMain(() => main(process.argv.slice(2)));
