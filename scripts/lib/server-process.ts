/**
 * The real server process, for end-to-end tests and HTTP benchmarks: `npm start`'s entry point,
 * `node dist/serve.mjs` (compiled by `npm run compile`, or by the e2e tests' global setup), on a free port
 * (PORT=0) with the given environment, ready once it prints its "Listening on" line. One helper for both, so
 * the tests and the benchmark measure the same thing `npm start` runs, with no TypeScript compiled at start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OperatorError } from '../../src/errors/operator-error.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const START_TIMEOUT_MS = 30_000;

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Everything the process wrote to stderr so far (diagnostics for failed assertions). */
  stderr(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

/** Start `npm start`'s entry point with `env` added to this process's environment. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const entry = path.join(REPO_ROOT, 'dist', 'serve.mjs');
  if (!existsSync(entry)) throw new OperatorError(`${entry} is missing: run npm run compile first`);
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS} ms:\n${stdout}\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening:\n${stdout}\n${stderr}`));
    });
  });
  // Keep draining stdout (one JSON line per request) so a full pipe never blocks the server.
  child.stdout?.on('data', () => {});

  return {
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(force);
    },
  };
}
