/**
 * Every bad setting an operator can make gives one line on stderr that names the setting and what is
 * allowed, and a non-zero exit; never a stack trace. Run as `npm start` runs the server, and as the key CLI.
 *
 * The cases run at the same time (each in a process of its own, sharing only the read-only snapshot): most of
 * a case's time is a process starting, or waiting for an unreachable store to give up.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, type ExpectStatic, it } from 'vitest';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';
import { childEnv, REPO, runKeysAsync } from './process.js';

let dir: string;
let snapshot: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-operator-'));
  snapshot = await buildTestSnapshot(RECORDS);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * Start the server as `npm start` does (`node dist/serve.mjs`, compiled by the e2e project's global setup) with
 * `env`; it must exit (not listen) within the bound.
 */
function serve(env: Record<string, string>): Promise<{ status: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [path.join(REPO, 'dist', 'serve.mjs')], {
    cwd: REPO,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', SNAPSHOT_DIR: snapshot, ...env }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // One that listens instead of exiting is killed, and its null status fails the case.
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr, stdout });
    }),
  );
}

/**
 * A non-zero exit whose reason is one line with the words that say what to fix, and no stack frame. (A
 * remote store's client may warn once before, on a line of its own, that it is retrying.)
 */
function expectOneLine(expect: ExpectStatic, result: { status: number | null; stderr: string }, pattern: RegExp): void {
  expect(result.status, result.stderr).not.toBe(0);
  expect(result.status, result.stderr).not.toBeNull();
  const lines = result.stderr.trim().split('\n');
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(
    lines.filter((line) => !/^(redis|upstash) store: .*retrying/.test(line)),
    result.stderr,
  ).toHaveLength(1);
  expect(lines.at(-1)).toMatch(pattern);
}

describe.concurrent('bad settings, at start', () => {
  it('a REGISTRY_DENY_FLAGS flag the snapshot has never seen, naming the closest known flags', async ({ expect }) => {
    expectOneLine(
      expect,
      await serve({ REGISTRY_DENY_FLAGS: 'DEAD_ENTRY,NO_SOURCES' }),
      /^REGISTRY_DENY_FLAGS names a flag no scored server has ever carried: "NO_SOURCES" \(did you mean NO_SOURCE\?\)/,
    );
  });

  it('an unresolvable HOST', async ({ expect }) => {
    expectOneLine(
      expect,
      await serve({ HOST: 'no-such-host.invalid' }),
      /^HOST=no-such-host\.invalid does not resolve/,
    );
  });

  it('an unreachable Redis when no API_KEYS is set', async ({ expect }) => {
    const result = await serve({
      STORE: 'redis',
      REDIS_URL: 'redis://127.0.0.1:1',
      KEYS_FILE: path.join(dir, 'unused.json'),
    });
    expectOneLine(expect, result, /^Cannot reach the redis store at start .*check REDIS_URL, or set API_KEYS$/);
  });

  it('an unreachable Upstash when no API_KEYS is set', async ({ expect }) => {
    const result = await serve({
      STORE: 'upstash',
      UPSTASH_REDIS_REST_URL: 'https://127.0.0.1:1',
      UPSTASH_REDIS_REST_TOKEN: 't',
    });
    expectOneLine(
      expect,
      result,
      /^Cannot reach the upstash store at start .*check UPSTASH_REDIS_REST_URL, or set API_KEYS$/,
    );
  });

  it('a KEYS_FILE that is not JSON', async ({ expect }) => {
    const file = path.join(dir, 'broken.json');
    await writeFile(file, '{ not json');
    expectOneLine(
      expect,
      await serve({ KEYS_FILE: file }),
      /^The key file .*broken\.json \(KEYS_FILE\) is not valid JSON/,
    );
  });

  it('a KEYS_FILE at an impossible path', async ({ expect }) => {
    expectOneLine(
      expect,
      await serve({ KEYS_FILE: '/dev/null/keys.json' }),
      /key file \/dev\/null\/keys\.json \(KEYS_FILE\)/,
    );
  });

  it('an API_KEYS entry longer than a key may be, or with a character a header cannot carry', async ({ expect }) => {
    const [tooLong, unsendable] = await Promise.all([
      serve({ API_KEYS: `ok-key,${'k'.repeat(300)}` }),
      serve({ API_KEYS: 'caf\u00e9-key' }),
    ]);
    expectOneLine(expect, tooLong, /API_KEYS entry 2 is 300 characters long; a key has at most 256/);
    expectOneLine(expect, unsendable, /API_KEYS entry 1 holds a character a header cannot carry/);
  });
});

describe.concurrent('bad settings, in the key CLI', () => {
  it('a KEYS_FILE at an impossible path', async ({ expect }) => {
    expectOneLine(
      expect,
      await runKeysAsync(['create'], { KEYS_FILE: '/dev/null/keys.json' }),
      /key file \/dev\/null\/keys\.json \(KEYS_FILE\)/,
    );
  });

  it('an unreachable Redis', async ({ expect }) => {
    expectOneLine(expect, await runKeysAsync(['list'], { STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:1' }), /redis/);
  });
});
