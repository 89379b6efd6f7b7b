/**
 * `WEBHOOK_SECRETS_KEY` checked at start and changed without losing a subscription (L2): a wrong key stops
 * `npm run notify` and `npm start` with one line and no stack; the new key with the old one in
 * `WEBHOOK_SECRETS_KEY_PREVIOUS` delivers, signed with the secrets their owners hold, and seals them again
 * under the new key, after which the old one is no longer needed (a real Redis, a prefix of this test's own).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { createNotifications } from '../../src/notify/service.js';
import { createRedisStore } from '../../src/stores/redis.js';
import { childEnv, REPO, startServer, TSX_NODE_ARGS } from '../e2e/process.js';
import {
  deleteKeysWithPrefix,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
  withSkipReason,
} from '../support/redis-server.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

const redisUrl = testRedisUrl();
const skipReason = await redisSkipReason(redisUrl);

function runNotify(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, path.join(REPO, 'scripts/notify.ts'), ...args], {
    cwd: REPO,
    env: childEnv(env),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

describe.skipIf(skipReason !== undefined)(
  withSkipReason(`WEBHOOK_SECRETS_KEY at start, on Redis at ${redisUrl}`, skipReason),
  { timeout: 120_000 },
  () => {
    const prefix = testRedisPrefix('secrets-key');
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const base = {
      STORE: 'redis',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    };
    let snapshots: BuiltSnapshots;
    let receiver: Receiver;
    const secrets = new Map<string, string>();
    beforeAll(async () => {
      snapshots = await buildSnapshots();
      receiver = await startReceiver();
      const store = createRedisStore({ url: redisUrl, prefix, timeoutMs: 5000 });
      const settings = { secretsKey: oldKey, allowHttp: true, allowPrivate: true, baseUrl: 'https://t.example' };
      const notifications = createNotifications(store, settings)!;
      const keyHash = hashKey(generateKey());
      await store.addKey({ hash: keyHash, plan: 'free', label: 'l2', created_at: new Date().toISOString() });
      for (const name of ['one', 'two']) {
        const made = await notifications.subscriptions.create(keyHash, {
          url: `${receiver.url}/${name}`,
          servers: ['io.github.acme/alpha'],
        });
        secrets.set(`/${name}`, made.secret);
      }
      notifications.close();
      await store.close();
    });
    afterAll(async () => {
      await receiver?.close();
      await snapshots?.remove();
      await deleteKeysWithPrefix(redisUrl, prefix);
    });

    it('stops npm run notify with one line when the key opens no signing secret', async () => {
      const result = await runNotify(['--snapshot', snapshots.b], {
        ...base,
        WEBHOOK_SECRETS_KEY: newKey.toString('hex'),
      });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(
        /^WEBHOOK_SECRETS_KEY does not open the signing secrets of 2 of 2 webhook subscriptions: it is not the key/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(receiver.received).toHaveLength(0);
    });

    it('stops npm start with the same line', async () => {
      const started = startServer({ ...base, WEBHOOK_SECRETS_KEY: newKey.toString('base64') });
      const failure = await started.then(
        async (server) => {
          await server.stop();
          return 'it started';
        },
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/exited with 1 before listening/);
      expect(failure).toMatch(/WEBHOOK_SECRETS_KEY does not open the signing secrets of 2 of 2/);
      expect(failure).not.toMatch(/\n\s+at /);
    });

    it('delivers during a change of key with the old key in WEBHOOK_SECRETS_KEY_PREVIOUS, then needs only the new', async () => {
      const rotating = await runNotify(['--snapshot', snapshots.b], {
        ...base,
        WEBHOOK_SECRETS_KEY: newKey.toString('hex'),
        WEBHOOK_SECRETS_KEY_PREVIOUS: `${randomBytes(32).toString('hex')},${oldKey.toString('base64')}`,
      });
      expect(rotating.status).toBe(0);
      expect(rotating.stdout).toContain('Sealed the signing secrets of 2 webhook subscription(s) again');
      expect(rotating.stdout).toMatch(/4 attempts: 4 delivered/);
      expect(receiver.received).toHaveLength(4);
      for (const request of receiver.received) {
        const verified = new Webhook(secrets.get(request.path)!).verify(
          request.body,
          request.headers as Record<string, string>,
        );
        expect(verified).toMatchObject({ data: { server: 'io.github.acme/alpha' } });
      }
      const after = await runNotify(['--snapshot', snapshots.b], {
        ...base,
        WEBHOOK_SECRETS_KEY: newKey.toString('hex'),
      });
      expect(after.stderr).not.toMatch(/does not open/);
      expect(after.status).toBe(0);
    });
  },
);
