/**
 * The installed checker's start (`npm run bench -- --only checker`): the package packed (`prepack`: compile
 * and embed, then `npm pack`), installed from the tarball into an empty folder, and there
 * `mcp-trust-score check --user` run offline (no TRUST_API_URL) on the CLI fixtures' four project files and,
 * with HOME at the fixture tree, the user-level files of eleven clients, from process start to exit, against
 * `node -e 0` measured in the same rounds, one after the other. The figure judged is the ratio of the medians (target: at most 4 times Node's own start).
 * The same rounds also time `check` without `--user` (the four project files only, what a CI job checks), not
 * judged.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** Milliseconds from spawn to exit, and the exit code. */
async function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { ms: performance.now() - started, code };
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
    const checker: number[] = [];
    const projectOnly: number[] = [];
    const bare: number[] = [];
    // One warm-up each, so both start from a warm file cache, as a second run in a CI job does.
    await timed(bin, args, project, env);
    await timed(bin, projectArgs, project, env);
    await timed(process.execPath, ['-e', '0'], project, env);
    for (let round = 0; round < rounds; round++) {
      for (const [runArgs, times] of [
        [args, checker],
        [projectArgs, projectOnly],
      ] as const) {
        const check = await timed(bin, runArgs, project, env);
        // The fixtures hold failing servers: exit 1 is the verdict; anything else is a failed check.
        if (check.code !== 1)
          throw new Error(`mcp-trust-score ${runArgs.join(' ')} exited ${check.code}, not 1 (fail)`);
        times.push(check.ms);
      }
      bare.push((await timed(process.execPath, ['-e', '0'], project, env)).ms);
    }
    const ratio = median(checker) / median(bare);
    const ms = (value: number) => `${Math.round(value)} ms`;
    return [
      `| installed checker, offline, 4 + 12 files / 24 servers, spawn → exit (median of ${rounds}) | value | target |`,
      '|---|---|---|',
      `| \`mcp-trust-score check --user --format json\` (node_modules/.bin) | ${ms(median(checker))} | |`,
      `| \`mcp-trust-score check --format json\` (the 4 project files only) | ${ms(median(projectOnly))} | |`,
      `| \`node -e 0\` in the same rounds | ${ms(median(bare))} | |`,
      `| ratio | ${ratio.toFixed(2)}x | ${judged(Number(ratio.toFixed(2)), CHECKER_START_RATIO, 'x')} |`,
      `| tarball (\`npm pack\`) | ${(tarball.size / 1024).toFixed(0)} KiB, ${tarball.entryCount} files | |`,
    ].join('\n');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
