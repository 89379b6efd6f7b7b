/**
 * SIGTERM to the process group of `npm start` (newcomer's point; M3's bounded shutdown): npm, its shell and
 * the server all get the signal. With a request under way that a hanging webhook receiver holds open, the
 * server stops listening at once and every process of the group is gone within the documented bound (10 s).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/keys/keys.js';
import { childEnv, REPO } from '../e2e/process.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { makeTempDir } from '../support/temp.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('npm start and SIGTERM to its process group', { timeout: 90_000 }, () => {
  let snapshots: BuiltSnapshots;
  let hanging: LocalServer;
  beforeAll(async () => {
    snapshots = await buildSnapshots();
    hanging = await listenLocally(http.createServer(() => undefined));
  });
  afterAll(async () => {
    await hanging.close();
    await snapshots.remove();
  });

  it('stops listening at once and ends every process of the group within 10 s', async () => {
    const key = generateKey();
    const child = spawn('npm', ['start'], {
      cwd: REPO,
      detached: true,
      env: childEnv({
        HOST: '127.0.0.1',
        PORT: '0',
        SNAPSHOT_DIR: snapshots.b,
        KEYS_FILE: path.join(await makeTempDir('mts-sigterm-'), 'keys.json'),
        API_KEYS: key,
        WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
        WEBHOOKS_ALLOW_HTTP: 'true',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
      }),
    });
    const pid = child.pid!;
    try {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.resume();
      await expect.poll(() => /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out), { timeout: 60_000 }).not.toBeNull();
      const port = Number(/Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]);
      const base = `http://127.0.0.1:${port}`;
      const created = await fetch(`${base}/v1/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${hanging.url}/hook` }),
      });
      expect(created.status).toBe(201);
      const { data } = (await created.json()) as { data: { id: string } };
      // A test ping to the hanging receiver: a request under way for up to 10 s.
      const underWay = fetch(`${base}/v1/webhooks/${data.id}/test`, { method: 'POST', headers: { 'x-api-key': key } })
        .then((response) => response.status)
        .catch(() => 'cut');
      await new Promise((resolve) => setTimeout(resolve, 300));

      const signalled = performance.now();
      process.kill(-pid, 'SIGTERM');
      await expect.poll(() => refusesConnections(port), { timeout: 1500, interval: 50 }).toBe(true);
      await expect.poll(() => groupAlive(pid), { timeout: 12_000, interval: 100 }).toBe(false);
      expect(performance.now() - signalled).toBeLessThan(11_000);
      await underWay;
    } finally {
      if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
    }
  });
});
