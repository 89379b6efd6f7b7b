/**
 * The deployment as the platform receives it, built offline: the Vercel CLI at the version pinned in
 * `test/deploy/vercel-cli/` (installed once into a cache folder outside the repository, so `npm ci` stays
 * lean), a copy of the checkout outside the repository, the release's own snapshot build, then
 * `vercel build` with a hand-written `.vercel/project.json` (no account, no network but the registry).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '../..');
const CLI_PIN = path.join(REPO, 'test/deploy/vercel-cli');

/** Run `command` in `cwd`; its output is returned, and a failure throws with the last lines of it. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status}):\n${output.split('\n').slice(-40).join('\n')}`,
    );
  }
  return output;
}

/**
 * The `vercel` binary of the pinned CLI, installed with `npm ci` from the committed lock into
 * `$XDG_CACHE_HOME/mcp-trust-score/vercel-cli-<hash of the lock>` (`~/.cache` by default) when not there.
 */
export async function vercelCli(): Promise<string> {
  const lock = await readFile(path.join(CLI_PIN, 'package-lock.json'));
  const manifest = await readFile(path.join(CLI_PIN, 'package.json'));
  const hash = createHash('sha256').update(manifest).update(lock).digest('hex').slice(0, 16);
  const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'mcp-trust-score');
  const folder = path.join(cache, `vercel-cli-${hash}`);
  const bin = path.join(folder, 'node_modules', '.bin', 'vercel');
  if (existsSync(bin)) return bin;
  const partial = `${folder}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await cp(path.join(CLI_PIN, 'package.json'), path.join(partial, 'package.json'));
  await cp(path.join(CLI_PIN, 'package-lock.json'), path.join(partial, 'package-lock.json'));
  // Install scripts are not needed by `vercel build` (its esbuild ships its binary as a package).
  // `npm install` with the lock, not `npm ci`: the committed lock lacks the CLI's optional native packages
  // of other platforms, and `npm ci` refuses a lock that does not list them.
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save'], partial);
  // Installed aside and renamed into place, so a run cut short never leaves a half-installed CLI behind.
  await rm(folder, { recursive: true, force: true });
  await rename(partial, folder);
  return bin;
}

/** The files of the checkout as git sees them (committed or new, never ignored), relative to the root. */
function checkoutFiles(): string[] {
  return run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], REPO)
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(REPO, file)));
}

export interface PlatformBuild {
  /** The folder everything lives in (removed by `remove`). */
  work: string;
  /** The copy of the checkout the build ran in. */
  project: string;
  /** `project/.vercel/output`. */
  output: string;
  /** How long the steps took, in seconds. */
  seconds: { install: number; copy: number; snapshot: number; build: number };
  remove(): Promise<void>;
}

/**
 * Copy the checkout (and its installed `node_modules`, as a CI cache would restore them) outside the
 * repository, build the snapshot there as a release does (`npm run build`), then `vercel build`.
 * `withSnapshot: false` leaves the snapshot unbuilt, as a push deploy from a fresh clone has it (the test of
 * that path needs no snapshot, so it does not pay for building one); `beforeBuild` may change the copy first.
 */
export async function buildPlatformOutput(
  options: { withSnapshot?: boolean; beforeBuild?: (project: string) => Promise<void> } = {},
) {
  const clock = () => performance.now() / 1000;
  let started = clock();
  const cli = await vercelCli();
  const install = clock() - started;
  const work = await mkdtemp(path.join(tmpdir(), 'mts-platform-'));
  const remove = () => rm(work, { recursive: true, force: true });
  try {
    started = clock();
    const project = path.join(work, 'project');
    for (const file of checkoutFiles()) await cp(path.join(REPO, file), path.join(project, file));
    // Hard links where the file system allows them (a copy of 200 MB of small files takes a minute): the
    // build only adds files, and `npm install` in the copy finds it up to date, so no file is written through.
    try {
      run('cp', ['-al', path.join(REPO, 'node_modules'), path.join(project, 'node_modules')], REPO);
    } catch {
      await rm(path.join(project, 'node_modules'), { recursive: true, force: true });
      run('cp', ['-a', path.join(REPO, 'node_modules'), path.join(project, 'node_modules')], REPO);
    }
    const copy = clock() - started;
    started = clock();
    if (options.withSnapshot !== false) run('npm', ['run', 'build'], project);
    const snapshot = clock() - started;
    await options.beforeBuild?.(project);
    await mkdir(path.join(project, '.vercel'), { recursive: true });
    // What `vercel link` would write, with the settings the project needs (none: vercel.json holds them).
    await writeFile(
      path.join(project, '.vercel', 'project.json'),
      JSON.stringify({ projectId: 'prj_offline', orgId: 'team_offline', settings: { framework: null } }),
    );
    started = clock();
    const env = { ...process.env, VERCEL_TELEMETRY_DISABLED: '1', CI: '1' };
    run(cli, ['build', '--yes'], project, env);
    const build = clock() - started;
    return {
      work,
      project,
      output: path.join(project, '.vercel', 'output'),
      seconds: { install, copy, snapshot, build },
      remove,
    } satisfies PlatformBuild;
  } catch (error) {
    await remove();
    throw error;
  }
}
