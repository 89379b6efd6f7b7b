/**
 * The notification commands as an operator runs them: `npm run notify -- --help` (newcomer's point), what
 * `npm run notify` says when another instance holds the delivery lease (L9: it waits and delivers, or says
 * truly that nothing was delivered), and `npm start`'s warning that the memory store keeps no subscription
 * over a restart (newcomer's point).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { DISPATCH_LEASE } from '../../src/notify/dispatcher.js';
import { createNotifications } from '../../src/notify/service.js';
import { createRedisStore } from '../../src/stores/redis.js';
import { childEnv, REPO, startServer } from '../e2e/process.js';
import {
  deleteKeysWithPrefix,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
  withSkipReason,
} from '../support/redis-server.js';
import { makeTempDir } from '../support/temp.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

const redisUrl = testRedisUrl();
const skipReason = await redisSkipReason(redisUrl);

/** Runs `npm run notify -- <args>` as an operator would, bounded in time. */
function runNotify(args: string[], env: Record<string, string>, timeoutMs = 60_000) {
  const child = spawn('npm', ['run', '--silent', 'notify', '--', ...args], { cwd: REPO, env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

describe('the notification commands', { timeout: 120_000 }, () => {
  let snapshots: BuiltSnapshots;
  let receiver: Receiver;
  beforeAll(async () => {
    snapshots = await buildSnapshots();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await snapshots.remove();
  });

  it('npm run notify -- --help prints the usage and exits 0', async () => {
    const result = await runNotify(['--help'], {});
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run notify -- --snapshot <dir>/);
  });

  it('npm start with webhooks on the memory store warns that subscriptions do not survive a restart', async () => {
    const keys = path.join(await makeTempDir('mts-notify-warning-'), 'keys.json');
    const server = await startServer({
      SNAPSHOT_DIR: snapshots.b,
      KEYS_FILE: keys,
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
    });
    try {
      await expect
        .poll(() => server.stdout(), { timeout: 10_000 })
        .toMatch(/STORE=memory: webhook subscriptions .* lost when it stops or restarts/);
    } finally {
      await server.stop();
    }
  });

  describe.skipIf(skipReason !== undefined)(withSkipReason(`on Redis at ${redisUrl}`, skipReason), () => {
    const prefix = testRedisPrefix('notify-lease');
    const secretsKey = randomBytes(32);
    const env = {
      STORE: 'redis',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      WEBHOOK_SECRETS_KEY: secretsKey.toString('hex'),
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    };
    afterAll(() => deleteKeysWithPrefix(redisUrl, prefix));

    it('never claims another instance will deliver: it says nothing was delivered, or waits and delivers', async () => {
      const store = createRedisStore({ url: redisUrl, prefix, timeoutMs: 5000 });
      const settings = { secretsKey, allowHttp: true, allowPrivate: true, baseUrl: 'https://t.example' };
      const notifications = createNotifications(store, settings)!;
      try {
        const keyHash = hashKey(generateKey());
        await store.addKey({ hash: keyHash, plan: 'free', label: 'l9', created_at: new Date().toISOString() });
        await notifications.subscriptions.create(keyHash, { url: `${receiver.url}/lease` });
        // Another instance (one that serves an older snapshot, or is shutting down) holds the lease.
        expect(await store.leaseAcquire(DISPATCH_LEASE, 'other-instance', 60_000)).toBe(true);
        receiver.received.length = 0;
        const refused = await runNotify(['--snapshot', snapshots.b, '--wait', '1'], env);
        expect(refused.status).toBe(1);
        expect(refused.stdout + refused.stderr).not.toMatch(/will deliver/);
        expect(refused.stderr).toMatch(/nothing of snapshot [0-9a-f]{12} was delivered by this run/);
        expect(receiver.received).toHaveLength(0);

        // The holder lets go while this run waits: it delivers the snapshot itself.
        const waiting = runNotify(['--snapshot', snapshots.b, '--wait', '30'], env);
        await new Promise((resolve) => setTimeout(resolve, 4000));
        await store.leaseRelease(DISPATCH_LEASE, 'other-instance');
        const delivered = await waiting;
        expect(delivered.stderr).not.toMatch(/nothing of snapshot/);
        expect(delivered.status).toBe(0);
        expect(delivered.stdout).toMatch(/6 events, 6 deliveries queued; 6 attempts: 6 delivered/);
        expect(receiver.received.filter((request) => request.path === '/lease')).toHaveLength(6);
      } finally {
        notifications.close();
        await store.close();
      }
    });
  });
});
