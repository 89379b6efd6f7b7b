/**
 * Starts one of the build's worker modules (`schema-check-worker`, `word-index-worker`, beside this file) as
 * a worker thread: compiled beside the builder's chunk in `dist/` (scripts/compile.mjs), or, when the build
 * runs from source (`npm run build`, the tests), the TypeScript module loaded through tsx's loader, which
 * the worker registers for itself (a loader given as `--import` does not reach a worker's first module on
 * Node 20). The worker's output streams are its own: what it prints never mixes with the build's report.
 */
import { Worker } from 'node:worker_threads';

export type BuildWorkerModule = 'schema-check-worker' | 'word-index-worker';

/**
 * Whether the build hands work to worker threads: `by size` (the default) only for a dataset large enough
 * that a worker saves more than its start costs (tens of milliseconds compiled, a few hundred through
 * tsx); `always` (tests of the workers' paths).
 */
export type BuildWorkers = 'by size' | 'always';

export function startBuildWorker(module: BuildWorkerModule, workerData: unknown): Worker {
  // None of this process's Node options: the worker's module needs none, and some (`--input-type`) would
  // stop it loading.
  const options = { workerData, stdout: true, stderr: true, execArgv: [] };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${module}.mjs`, import.meta.url), options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const source = JSON.stringify(new URL(`./${module}.ts`, import.meta.url).href);
  const bootstrap = `import(${tsx}).then(({ register }) => { register(); return import(${source}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * The one message a worker answers with, or `failed` when it stops, fails or says nothing (the caller then
 * does the work itself). The worker is stopped once it has answered.
 */
export function answerOf<T>(worker: Worker, failed: T): Promise<T> {
  return new Promise<T>((resolve) => {
    worker.once('message', (message: T) => resolve(message));
    worker.once('error', () => resolve(failed));
    worker.once('exit', () => resolve(failed));
  }).finally(() => void worker.terminate());
}
