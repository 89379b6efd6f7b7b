/**
 * The installed checker's start (`npm run bench -- --only checker`): the package packed (`prepack`: compile
 * and embed, then `npm pack`), installed from the tarball into an empty folder, and there
 * `mcp-trust-score check --user` run offline (no TRUST_API_URL) on the CLI fixtures' four project files and,
 * with HOME at the fixture tree, the user-level files of eleven clients, from process start to exit, against
 * `node -e 0` measured in the same rounds, one after the other. The figure judged is the ratio of the medians (target: at most 4 times Node's own start).
 * The same rounds also time `check` without `--user` (the four project files only, what a CI job checks), not
 * judged. And the same `check --user` with a fresh cache, judged against the same target: a snapshot newer than
 * the packed one, signed with a key the bench trusts through `TRUST_SNAPSHOT_KEYS` and installed in
 * `MCP_TRUST_SCORE_CACHE` as `mcp-trust-score update` installs it, so the check verifies and opens the cached
 * snapshot (and, its data fresh, tries no update).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { BUNDLE_INDEX_FILE, BUNDLE_SIGNATURE_FILE } from '../../src/format/snapshot-bundle.js';
import { newSigningKey, signingKeyOf, writeSnapshotBundle } from '../../src/publish/sign-bundle.js';
import { installSnapshot } from '../../src/update/snapshot-cache.js';
import { judged } from './targets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'cli', 'fail');
/** The user-level configurations of eleven MCP clients, as `--user` finds them under HOME. */
const HOME = path.join(ROOT, 'test', 'fixtures', 'cli', 'user-home');

/** The installed check, at most this many times `node -e 0` from start to exit (issue 31). */
export const CHECKER_START_RATIO = 4;

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** The stdout of a check that gives its verdict (exit 1 on the failing fixtures, 2 for the home's unreadable file). */
function verdictOf(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 1 && result.status !== 2)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return result.stdout;
}

/** Milliseconds from spawn to exit, and the exit code. */
async function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { ms: performance.now() - started, code };
}

/**
 * A cache holding a verified snapshot newer than the packed one: the packed records, one scored now, built,
 * signed with a new key and installed as `update` installs it. The keys file that trusts that key, beside it.
 */
async function freshCache(packedDir: string, work: string): Promise<{ cache: string; keysFile: string }> {
  const records = (await readFile(path.join(packedDir, 'records.ndjson'), 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  records[0]!.scored_at = new Date().toISOString();
  const snapshot = path.join(work, 'fresh-snapshot');
  await writeSnapshot(records, snapshot, { now: new Date() });
  const signer = newSigningKey(new Date(Date.now() - 86_400_000));
  const bundle = path.join(work, 'fresh-bundle');
  const index = await writeSnapshotBundle(snapshot, bundle, signingKeyOf(signer.privateKeyPem));
  const files = new Map<string, Buffer>();
  for (const name of [...index.files.map((file) => file.name), BUNDLE_INDEX_FILE, BUNDLE_SIGNATURE_FILE])
    files.set(name, await readFile(path.join(bundle, name)));
  const cache = path.join(work, 'cache');
  await installSnapshot(cache, index, files);
  const keysFile = path.join(work, 'bench-keys.json');
  await writeFile(keysFile, JSON.stringify({ bundle_url: null, keys: [signer.trusted] }));
  return { cache, keysFile };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function benchChecker(rounds = 15): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), 'mts-bench-checker-'));
  try {
    // What `npm pack` runs first (its output would mix with the --json answer), then the pack itself.
    run('npm', ['run', 'prepack'], ROOT);
    const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT)) as {
      filename: string;
      size: number;
      entryCount: number;
    }[];
    const tarball = packed[0]!;
    const project = path.join(work, 'project');
    await mkdir(project);
    await writeFile(path.join(project, 'package.json'), '{ "name": "a-project", "private": true }\n');
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, tarball.filename)], project);
    await cp(FIXTURE, project, { recursive: true });

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME,
      USERPROFILE: HOME,
      APPDATA: path.join(HOME, 'AppData', 'Roaming'),
    };
    for (const name of ['TRUST_API_URL', 'TRUST_API_KEY', 'XDG_CONFIG_HOME']) delete env[name];
    const bin = path.join(project, 'node_modules', '.bin', 'mcp-trust-score');
    const args = ['check', '--user', '--format', 'json'];
    const projectArgs = ['check', '--format', 'json'];
    const { cache, keysFile } = await freshCache(
      path.join(project, 'node_modules', 'mcp-trust-score', 'embedded-snapshot'),
      work,
    );
    const cachedEnv: NodeJS.ProcessEnv = { ...env, MCP_TRUST_SCORE_CACHE: cache, TRUST_SNAPSHOT_KEYS: keysFile };
    // The timed runs must answer from the cached snapshot, or the figure says nothing about it.
    const cachedNotice = (JSON.parse(verdictOf(bin, args, project, cachedEnv)) as { notice?: string }).notice;
    if (!/from mcp-trust-score update/.test(cachedNotice ?? ''))
      throw new Error(`check with the fresh cache did not use it: ${cachedNotice}`);
    const cached: number[] = [];
    const checker: number[] = [];
    const projectOnly: number[] = [];
    const bare: number[] = [];
    // One warm-up each, so both start from a warm file cache, as a second run in a CI job does.
    await timed(bin, args, project, env);
    await timed(bin, projectArgs, project, env);
    await timed(process.execPath, ['-e', '0'], project, env);
    for (let round = 0; round < rounds; round++) {
      for (const [runArgs, times, runEnv] of [
        [args, checker, env],
        [projectArgs, projectOnly, env],
        [args, cached, cachedEnv],
      ] as const) {
        const check = await timed(bin, runArgs, project, runEnv);
        // The fixtures hold failing servers: exit 1 is the verdict, 2 when the fixture home's broken file is read
        // (`--user`); the project files alone pass (0); anything else is a failed check.
        if (check.code === null || check.code > 2)
          throw new Error(`mcp-trust-score ${runArgs.join(' ')} exited ${check.code}, not a verdict (0, 1 or 2)`);
        times.push(check.ms);
      }
      bare.push((await timed(process.execPath, ['-e', '0'], project, env)).ms);
    }
    const ratio = median(checker) / median(bare);
    const cachedRatio = median(cached) / median(bare);
    const ms = (value: number) => `${Math.round(value)} ms`;
    return [
      `| installed checker, offline, 4 + 12 files / 24 servers, spawn → exit (median of ${rounds}) | value | target |`,
      '|---|---|---|',
      `| \`mcp-trust-score check --user --format json\` (node_modules/.bin) | ${ms(median(checker))} | |`,
      `| \`mcp-trust-score check --format json\` (the 4 project files only) | ${ms(median(projectOnly))} | |`,
      `| \`node -e 0\` in the same rounds | ${ms(median(bare))} | |`,
      `| ratio | ${ratio.toFixed(2)}x | ${judged(Number(ratio.toFixed(2)), CHECKER_START_RATIO, 'x')} |`,
      `| \`check --user --format json\` with a fresh cache (a verified cached snapshot newer than the packed one) | ${ms(median(cached))} | |`,
      `| ratio, fresh cache | ${cachedRatio.toFixed(2)}x | ${judged(Number(cachedRatio.toFixed(2)), CHECKER_START_RATIO, 'x')} |`,
      `| tarball (\`npm pack\`) | ${(tarball.size / 1024).toFixed(0)} KiB, ${tarball.entryCount} files | |`,
    ].join('\n');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
