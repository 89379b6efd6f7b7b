/**
 * A push deploy cannot serve an unchecked snapshot: the platform's build command (`npm run build:platform`)
 * never builds one, and fails in one line when `snapshot/` is missing or not current for the dataset, as it
 * is in a fresh clone (the snapshot is never committed); Git deployments are also turned off in vercel.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../e2e/process.js';
import { makeRecord } from '../support/records.js';

const TSX = path.join(REPO, 'node_modules/.bin/tsx');
let work: string;

function run(script: string) {
  const result = spawnSync(TSX, [path.join(REPO, 'scripts', script)], { cwd: work, encoding: 'utf8' });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}
const snapshotId = async () =>
  (JSON.parse(await readFile(path.join(work, 'snapshot', 'manifest.json'), 'utf8')) as { snapshot_id: string })
    .snapshot_id;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mts-platform-build-'));
  await mkdir(path.join(work, 'data'));
  await writeFile(path.join(work, 'data', 'servers.json'), JSON.stringify([makeRecord({ name: 'io.github.a/b' })]));
}, 30_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('the platform build command', () => {
  it('is build:platform, and Git deployments are off', async () => {
    const config = JSON.parse(await readFile(path.join(REPO, 'vercel.json'), 'utf8')) as {
      buildCommand: string;
      git?: { deploymentEnabled?: boolean };
    };
    expect(config.buildCommand).toBe('npm run build:platform');
    expect(config.git?.deploymentEnabled).toBe(false);
    const pkg = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['build:platform']).toBe('tsx scripts/platform-build.ts');
  });

  it('gives every function under api/, the cron route included, the snapshot files and a maxDuration (L11)', async () => {
    const config = JSON.parse(await readFile(path.join(REPO, 'vercel.json'), 'utf8')) as {
      functions: Record<string, { includeFiles?: string; maxDuration?: number }>;
    };
    const functions = await fg('api/**/*.ts', { cwd: REPO });
    expect(functions).toContain('api/cron/notify.ts');
    // What each glob takes, as the platform matches it: from the project's root.
    const matched = new Map<string, string[]>();
    for (const glob of Object.keys(config.functions)) matched.set(glob, await fg(glob, { cwd: REPO }));
    for (const file of functions) {
      const globs = [...matched].filter(([, files]) => files.includes(file)).map(([glob]) => glob);
      expect(globs, file).toHaveLength(1);
      const settings = config.functions[globs[0]!]!;
      expect(settings.includeFiles, file).toBe('snapshot/**');
      expect(settings.maxDuration, file).toBeGreaterThan(0);
    }
    // The dispatcher's run makes attempts of up to 10 s each: its function has room for more than one.
    expect(config.functions['api/cron/*.ts']?.maxDuration).toBe(60);
  });

  it('fails in one line and builds nothing when no snapshot was handed over (a fresh clone)', () => {
    const { status, out } = run('platform-build.ts');
    expect(status).toBe(1);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toMatch(
      /snapshot\/ is missing or not current for data\/; the deployment never builds a snapshot itself/,
    );
    expect(existsSync(path.join(work, 'snapshot'))).toBe(false);
  });

  it('deploys the snapshot the release built, untouched, and refuses one the dataset has moved past', async () => {
    expect(run('build.ts').status).toBe(0);
    const built = await snapshotId();
    const kept = run('platform-build.ts');
    expect(kept.status, kept.out).toBe(0);
    expect(kept.out).toContain(`deploying snapshot ${built} as it was built`);
    expect(await snapshotId()).toBe(built);
    // The dataset changed after the snapshot was built and checked: that snapshot no longer describes it.
    await writeFile(path.join(work, 'data', 'servers.json'), JSON.stringify([makeRecord({ name: 'io.github.a/c' })]));
    const stale = run('platform-build.ts');
    expect(stale.status).toBe(1);
    expect(stale.out).toMatch(/never builds a snapshot itself/);
    expect(await snapshotId()).toBe(built);
  });
});
