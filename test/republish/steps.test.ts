/**
 * The republish's steps one at a time, each failing as a night would: one line naming the step, nothing
 * published, what is kept untouched. Real children (npm, git), a real HTTP server on 127.0.0.1, real folders.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printableLines } from '../../src/model/printable.js';
import { StepFailed } from '../../src/republish/commands.js';
import { localDeployer } from '../../src/republish/deployers.js';
import { checkHealth } from '../../src/republish/health-check.js';
import { keeperFor } from '../../src/republish/keeper.js';
import { republish } from '../../src/republish/republish.js';
import { takeStoreSettings } from '../../src/republish/store-settings.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

let root: string;
let snapshotA: string;
let snapshotB: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mts-republish-steps-'));
  snapshotA = await buildTestSnapshot([makeRecord({ name: 'org.example/a' })]);
  snapshotB = await buildTestSnapshot([makeRecord({ name: 'org.example/b' })]);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  for (const dir of [snapshotA, snapshotB]) if (dir) await rm(path.dirname(dir), { recursive: true, force: true });
});

const idOf = async (dir: string) =>
  (JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { snapshot_id: string }).snapshot_id;

/** A server on 127.0.0.1 that answers every request with `status` and `body`. */
async function answering(status: number, body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(body),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('the health check', () => {
  const quick = { attempts: 2, intervalMs: 10, timeoutMs: 2000 };

  it('passes when /v1/health names the new snapshot', async () => {
    const server = await answering(
      200,
      JSON.stringify({ data: { status: 'ok', snapshot: { id: 'abc', record_count: 1 } } }),
    );
    try {
      await expect(checkHealth('health check', server.url, 'abc', quick)).resolves.toMatchObject({ status: 'ok' });
    } finally {
      await server.close();
    }
  });

  for (const [what, status, body, last] of [
    [
      'another snapshot',
      200,
      JSON.stringify({ data: { status: 'ok', snapshot: { id: 'old', record_count: 1 } } }),
      'snapshot old',
    ],
    ['an error status', 503, '{}', 'status 503'],
    ['an answer that is not JSON', 200, '<html>', 'an answer that is not JSON'],
    ['JSON that is not the health record', 200, '{"data":{}}', 'an answer that is not the health record'],
  ] as const) {
    it(`fails with one line naming what it found when the deployment serves ${what}`, async () => {
      const server = await answering(status, body);
      try {
        const failure = await checkHealth('health check', server.url, 'new', quick).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(StepFailed);
        expect((failure as Error).message).toBe(
          `republish: health check failed, nothing was published: ${server.url}/v1/health does not serve snapshot new after 2 tries (last: ${last})`,
        );
      } finally {
        await server.close();
      }
    });
  }
});

describe('the git keeper', () => {
  it('keeps the snapshot as the only commit of the branch, and refuses to move a branch another run moved', async () => {
    const bare = path.join(root, 'lease.git');
    execFileSync('git', ['init', '--quiet', '--bare', bare]);
    const keeper = keeperFor(`git:${bare}#kept`, path.join(root, 'lease-work'));
    expect(await keeper.fetch(path.join(root, 'lease-prev'))).toBeUndefined();
    await keeper.keep(snapshotA, undefined, 'first');
    const kept = await keeper.fetch(path.join(root, 'lease-prev'));
    expect(await idOf(kept!.dir)).toBe(await idOf(snapshotA));
    expect((await readdir(kept!.dir)).sort()).toEqual(
      (await readdir(snapshotA)).filter((name) => name !== 'input-fingerprint.txt').sort(),
    );

    // Another run publishes in between: this run's keep must not overwrite it.
    const other = keeperFor(`git:${bare}#kept`, path.join(root, 'lease-other'));
    const otherKept = await other.fetch(path.join(root, 'lease-other-prev'));
    await other.keep(snapshotB, otherKept!.version, 'other');
    const failure = await keeper.keep(snapshotB, kept!.version, 'late').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailed);
    expect((failure as Error).message).toMatch(
      /^republish: keep failed, nothing was published: branch kept of .*lease\.git moved since this night fetched it \(now [0-9a-f]{40}\): another run published$/,
    );
    expect(execFileSync('git', ['--git-dir', bare, 'log', '--format=%s', 'kept'], { encoding: 'utf8' })).toBe(
      'other\n',
    );
  });

  it('fails fetch-previous with one line when the repository cannot be reached', async () => {
    const keeper = keeperFor(`git:${path.join(root, 'missing.git')}#kept`, path.join(root, 'missing-work'));
    await expect(keeper.fetch(path.join(root, 'missing-prev'))).rejects.toThrow(
      /^republish: fetch-previous failed, nothing was published: git ls-remote branch kept of .*missing\.git exited with 128: /,
    );
  });

  it('refuses a --keep it cannot read', () => {
    expect(() => keeperFor('s3://bucket/key', root)).toThrow(
      'republish: keep failed, nothing was published: --keep must be git:<repository>#<branch> or folder:<path>, not "s3://bucket/key"',
    );
  });
});

describe('the folder keeper', () => {
  it('replaces the kept folder only when it is still the one this night started from', async () => {
    const keeper = keeperFor(`folder:${path.join(root, 'kept-folder')}`, root);
    expect(await keeper.fetch(path.join(root, 'folder-prev'))).toBeUndefined();
    await keeper.keep(snapshotA, undefined, 'first');
    const kept = await keeper.fetch(path.join(root, 'folder-prev'));
    expect(kept?.version).toBe(await idOf(snapshotA));
    await expect(keeper.keep(snapshotB, 'someone-else', 'late')).rejects.toThrow(
      /keep failed, nothing was published: .* changed while this run went on/,
    );
    await keeper.keep(snapshotB, kept!.version, 'second');
    expect(await idOf(path.join(root, 'kept-folder'))).toBe(await idOf(snapshotB));
  });
});

describe('a night whose tests fail', () => {
  it('stops at the test step with its last line, before building, deploying or keeping anything', async () => {
    // A checkout whose `npm test` fails, as a broken commit's would.
    const checkout = path.join(root, 'checkout');
    await mkdir(checkout, { recursive: true });
    await writeFile(
      path.join(checkout, 'package.json'),
      JSON.stringify({
        name: 'failing',
        private: true,
        scripts: { test: `node -e "console.error('2 tests failed'); process.exit(1)"` },
      }),
    );
    const keptDir = path.join(root, 'kept-before-tests');
    const keeper = keeperFor(`folder:${keptDir}`, root);
    await keeper.keep(snapshotA, undefined, 'first');
    const lines: string[] = [];
    const failure = await republish({
      cwd: checkout,
      dataDir: path.join(checkout, 'data'),
      snapshotDir: path.join(checkout, 'snapshot'),
      buildArgs: [],
      workDir: path.join(root, 'tests-work'),
      keeper,
      deployer: localDeployer({
        cwd: checkout,
        buildArgs: [],
        snapshotDir: path.join(checkout, 'snapshot'),
        workDir: root,
      }),
      rescoreArgs: undefined,
      guardArgs: [],
      tests: true,
      first: false,
      log: (line) => lines.push(line),
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      'republish: test failed, nothing was published: npm test exited with 1: 2 tests failed',
    );
    expect(lines.some((line) => line.startsWith('build'))).toBe(false);
    expect(await idOf(keptDir)).toBe(await idOf(snapshotA));
  });
});

describe('the store settings of a night', () => {
  it('are taken out of the environment, empty ones dropped', () => {
    const env: NodeJS.ProcessEnv = { STORE: 'redis', REDIS_URL: 'redis://night', REDIS_PREFIX: ' ', PATH: '/bin' };
    expect(takeStoreSettings(env)).toEqual({ STORE: 'redis', REDIS_URL: 'redis://night' });
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('reach the rescore step and never the test step', async () => {
    // A checkout whose rescore writes down the store it was given, and whose tests fail saying which they see.
    const checkout = path.join(root, 'store-checkout');
    await mkdir(checkout, { recursive: true });
    const seen = path.join(root, 'rescore-saw-store.txt');
    await writeFile(
      path.join(checkout, 'package.json'),
      JSON.stringify({
        name: 'store-settings',
        private: true,
        scripts: {
          rescore: `node -e "require('fs').writeFileSync(process.argv[1], String(process.env.REDIS_URL))" ${seen}`,
          test: `node -e "console.error('tests saw ' + (process.env.REDIS_URL ?? 'no REDIS_URL')); process.exit(1)"`,
        },
      }),
    );
    const keptDir = path.join(root, 'kept-store');
    const keeper = keeperFor(`folder:${keptDir}`, root);
    await keeper.keep(snapshotA, undefined, 'first');
    const failure = await republish({
      cwd: checkout,
      dataDir: path.join(checkout, 'data'),
      snapshotDir: path.join(checkout, 'snapshot'),
      buildArgs: [],
      workDir: path.join(root, 'store-work'),
      keeper,
      deployer: localDeployer({
        cwd: checkout,
        buildArgs: [],
        snapshotDir: path.join(checkout, 'snapshot'),
        workDir: root,
      }),
      rescoreArgs: [],
      rescoreEnv: { REDIS_URL: 'redis://night-store' },
      guardArgs: [],
      tests: true,
      first: false,
      log: () => {},
    }).catch((error: unknown) => error);
    expect(await readFile(seen, 'utf8')).toBe('redis://night-store');
    expect((failure as Error).message).toMatch(/: test failed, .*tests saw (?!redis:\/\/night-store)/);
  });
});

describe('what a child prints', () => {
  it('reaches the log with control characters escaped and workflow commands defused', () => {
    expect(printableLines('ok\tline\n\x1b[31mred\x07\n::set-output name=x::y\n  ::error::boom')).toBe(
      'ok\tline\n\\u001b[31mred\\u0007\n  ::set-output name=x::y\n    ::error::boom',
    );
  });
});
