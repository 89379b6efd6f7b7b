/**
 * `npm run notify -- --snapshot <dir> [--wait <seconds>]`: deliver the webhook events of the snapshot in
 * `<dir>` (its changes since the snapshot before it, once per snapshot) and every retry that is due, then exit.
 * The last step of a republish, for deployments where no long-running server does it: the subscriptions and
 * the delivery state are in the shared store (`STORE=redis` or `upstash`), so whichever instance runs first
 * delivers, once.
 *
 * When another instance holds the delivery lease, this run waits for it (up to `--wait`, default 60 s, the
 * lease's own length, so a crashed holder's lease has ended by then) and then delivers this snapshot itself.
 * Nobody can tell that the other instance serves this snapshot, so this command never claims it does: when
 * the wait ends with the lease still held, it says that nothing was delivered and exits 1.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OperatorError } from '../src/errors/operator-error.js';
import { checkSecretsKey, keyCheckLine } from '../src/notify/key-check.js';
import { createNotifications } from '../src/notify/service.js';
import { notifyWarnings } from '../src/notify/warnings.js';
import { openSnapshot } from '../src/query/open.js';
import { loadConfig } from '../src/service/config.js';
import { createStore } from '../src/service/store.js';
import { runMain } from './lib/main.js';

const USAGE = `Usage: npm run notify -- --snapshot <dir> [--wait <seconds>]
  Delivers the webhook events of the snapshot in <dir> and every retry that is due, then exits.
  --wait  how long to wait for another instance's delivery run to end (default 60, at most 3600)
  Needs WEBHOOK_SECRETS_KEY and a shared store (STORE=redis or STORE=upstash).`;

/** Between two tries of the lease while another instance holds it. */
const LEASE_POLL_MS = 1000;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { snapshot: { type: 'string' }, wait: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  if (values.snapshot === undefined) throw new OperatorError(USAGE, { exitCode: 2 });
  const wait = values.wait ?? '60';
  if (!/^\d{1,4}$/.test(wait) || Number(wait) > 3600)
    throw new OperatorError('--wait must be a whole number of seconds from 0 to 3600', { exitCode: 2 });
  const waitMs = Number(wait) * 1000;
  const config = loadConfig();
  if (config.notify.secretsKey === undefined) {
    throw new OperatorError('Webhooks are off: set WEBHOOK_SECRETS_KEY (the key the signing secrets were sealed with)');
  }
  if (config.store === 'memory') {
    throw new OperatorError(
      'npm run notify needs the shared store (STORE=redis or STORE=upstash): with STORE=memory the subscriptions live inside the npm start process, which delivers them itself',
    );
  }
  for (const line of notifyWarnings(config.notify)) console.error(line);
  const store = await createStore(config);
  const check = await checkSecretsKey(store, config.notify.secretsKey, config.notify.previousSecretsKeys);
  const verdict = keyCheckLine(check);
  if (verdict !== undefined) console.error(verdict.line);
  if (verdict?.fatal === true) {
    await store.close();
    return 1;
  }
  if (check.resealed > 0)
    console.log(`Sealed the signing secrets of ${check.resealed} webhook subscription(s) again under the new key.`);
  const engine = await openSnapshot(path.resolve(values.snapshot));
  const notifications = createNotifications(store, {
    ...config.notify,
    baseUrl: config.notify.publicUrl ?? `http://${config.host}:${config.port}`,
    apiKeyHashes: config.apiKeyHashes,
  })!;
  try {
    const deadline = Date.now() + waitMs;
    let report = await notifications.dispatcher.run(engine);
    if (!report.ran) console.log(`Another instance is delivering; waiting up to ${wait} s for its run to end.`);
    while (!report.ran && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(LEASE_POLL_MS, deadline - Date.now())));
      report = await notifications.dispatcher.run(engine);
    }
    if (!report.ran) {
      console.error(
        `Another instance held the delivery lease for all of ${wait} s: nothing of snapshot ${engine.snapshot.id.slice(0, 12)} was delivered by this run. Run npm run notify again (a longer --wait), or let that instance's next run deliver it.`,
      );
      return 1;
    }
    const fan = report.fanOut;
    console.log(
      `Snapshot ${engine.snapshot.id.slice(0, 12)}: ${fan?.skipped ?? `${fan?.events ?? 0} events, ${fan?.queued ?? 0} deliveries queued`}; ` +
        `${report.attempts} attempts: ${report.delivered} delivered, ${report.retrying} to retry later, ${report.failed} failed`,
    );
    return 0;
  } finally {
    notifications.close();
    engine.close();
    await store.close();
  }
}

runMain(main);
