/** Start `npm start`'s entry point (or the key CLI) as a real child process, the way `npm start` runs it. */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '../..');
/**
 * How a TypeScript script runs in a test: `node --import tsx <script>` in the repository, one process (tsx's
 * `bin` starts node again as a child, so it costs a second start and a kill reaches only the parent).
 */
export const TSX_NODE_ARGS = ['--import', 'tsx'];

/** The environment of a child: the parent's without any of the service's variables, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = { ...process.env };
  for (const name of [
    'HOST',
    'PORT',
    'SNAPSHOT_DIR',
    'API_KEYS',
    'FREE_DAILY_LIMIT',
    'STORE',
    'REDIS_URL',
    'UPSTASH_REDIS_REST_URL',
    'UPSTASH_REDIS_REST_TOKEN',
    'KEYS_FILE',
    'STALE_AFTER_DAYS',
    'REDIS_PREFIX',
    'SITE_ORIGIN',
  ])
    delete clean[name];
  return { ...clean, ...env };
}

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:<port>` as the server printed it. */
  base: string;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Run `npm start`'s entry point, `node dist/serve.mjs` (compiled by the e2e project's global setup), with `env`
 * (PORT=0 unless given) in `cwd`; resolves once it prints its address.
 */
export function startServer(env: Record<string, string>, cwd = REPO, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(REPO, 'dist', 'serve.mjs')], {
    cwd,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms\n${out}\n${err}`));
    }, timeoutMs);
    const onData = () => {
      const match = /Listening on (http:\/\/\S+)/.exec(out);
      if (!match?.[1]) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        child,
        base: match[1],
        stdout: () => out,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening\n${out}\n${err}`));
    });
  });
}

/** Run the key CLI synchronously. */
export function runKeys(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...TSX_NODE_ARGS, path.join(REPO, 'scripts/keys.ts'), ...args], {
    cwd: REPO,
    env: childEnv(env),
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Run the key CLI as a child process without blocking this one (to race it against a running server). */
export function runKeysAsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, path.join(REPO, 'scripts/keys.ts'), ...args], {
    cwd: REPO,
    env: childEnv(env),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}
