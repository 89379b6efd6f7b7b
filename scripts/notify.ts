/**
 * `npm run notify -- --snapshot <dir>`: deliver the webhook events of the snapshot in `<dir>` (its changes
 * since the snapshot before it, once per snapshot) and every retry that is due, then exit. The last step of a
 * republish, for deployments where no long-running server does it: the subscriptions and the delivery state
 * are in the shared store (`STORE=redis` or `upstash`), so whichever instance runs first delivers, once.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OperatorError } from '../src/errors/operator-error.js';
import { createNotifications, notifyWarnings } from '../src/notify/service.js';
import { openSnapshot } from '../src/query/open.js';
import { loadConfig } from '../src/service/config.js';
import { createStore } from '../src/service/store.js';
import { runMain } from './lib/main.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { snapshot: { type: 'string' } }, strict: true });
  if (values.snapshot === undefined)
    throw new OperatorError('Usage: npm run notify -- --snapshot <dir>', { exitCode: 2 });
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
  const engine = await openSnapshot(path.resolve(values.snapshot));
  const notifications = createNotifications(store, {
    ...config.notify,
    baseUrl: config.notify.publicUrl ?? `http://${config.host}:${config.port}`,
    apiKeyHashes: config.apiKeyHashes,
  })!;
  try {
    const report = await notifications.dispatcher.run(engine);
    if (!report.ran) {
      console.log('Another instance is delivering right now; it will deliver this snapshot too. Nothing done.');
      return 0;
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
