/**
 * `npm run keys -- <command>`: issue, list and revoke API keys in the configured store (`STORE`; with the
 * default memory store, the key file `KEYS_FILE` that `npm start` reads, default `.local/keys.json`).
 *
 *   create [--plan free] [--label TEXT]   prints the new key once, alone on the last line of stdout
 *   list                                  hash prefix, plan, label, created_at; never a key
 *   revoke <hash-prefix>                  removes the key whose hash starts with the prefix (8+ hex)
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

const USAGE = `Usage:
  npm run keys -- create [--plan free] [--label TEXT]
  npm run keys -- list
  npm run keys -- revoke <hash-prefix>`;

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

async function revoke(store: Store, args: string[]): Promise<void> {
  const [prefix, ...rest] = args;
  if (prefix === undefined || rest.length > 0) throw new UsageError(`revoke takes one hash prefix\n${USAGE}`);
  if (!/^[0-9a-fA-F]{8,64}$/.test(prefix)) {
    throw new UsageError('A hash prefix is 8 to 64 hex characters, as shown by: npm run keys -- list');
  }
  if (!(await store.revokeKey(prefix))) throw new UsageError(`No key's hash starts with ${prefix.toLowerCase()}`);
  console.log(`Revoked the key ${prefix.toLowerCase()}. Requests with it now get 401.`);
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
    else throw new UsageError(`Unknown command "${command}"\n${USAGE}`);
  } finally {
    await store.close();
  }
}

runMain(() => main(process.argv.slice(2)));
