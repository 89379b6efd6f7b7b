/**
 * Runs `npm run rescore` (or its command without npm, which starts faster) in a child process, without
 * blocking this process's event loop: the stand-ins it talks to run here. Without npm it is what
 * `npm run rescore` runs once dist/ is current, `node --optimize-for-size dist/rescore/rescore.mjs`, compiled by the
 * e2e project's global setup (test/support/compile.ts): a test that runs the rescoring is an e2e test
 * (`*.e2e.test.ts`; test/architecture.test.ts holds it).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface RescoreRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runRescore(
  args: readonly string[],
  options: { token?: string; viaNpm?: boolean; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<RescoreRun> {
  const [command, prefix] = options.viaNpm
    ? ['npm', ['run', '--silent', 'rescore', '--']]
    : [process.execPath, ['--optimize-for-size', path.join(ROOT, 'dist', 'rescore', 'rescore.mjs')]];
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.GITHUB_TOKEN;
  if (options.token !== undefined) env.GITHUB_TOKEN = options.token;
  Object.assign(env, options.env);
  return new Promise((resolve) => {
    execFile(
      command,
      [...prefix, ...args],
      { cwd: ROOT, env, encoding: 'utf8', timeout: options.timeoutMs ?? 300_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The options that point a rescoring at the stand-ins: their URLs, the day it scores as of, where it keeps
 * its cache, and a backoff of 10 ms (the stand-ins answer at once, so a retry need not wait as against GitHub).
 */
export function standInArgs(options: {
  registryUrl: string;
  githubUrl: string;
  asOf: string;
  cache: string;
}): string[] {
  return [
    '--registry-url',
    options.registryUrl,
    '--github-api-url',
    options.githubUrl,
    '--as-of',
    options.asOf,
    '--cache',
    options.cache,
    '--backoff',
    '10',
    // The package registries have stand-ins of their own (test/pipeline/packages.e2e.test.ts).
    '--packages',
    'off',
    // So do the remotes (test/pipeline/probe-nights.e2e.test.ts): the fixtures' remotes are real hosts, never asked.
    '--no-probe',
    // So is OSV (test/pipeline/advisories.e2e.test.ts).
    '--no-advisories',
    // The catalog and the store of unknown identifiers have a test of their own (test/pipeline/catalog-night.e2e.test.ts).
    '--no-catalog',
    '--unknown',
    'off',
  ];
}
