/**
 * A snapshot folder → a query engine: the loader (`src/query/load.ts`) reads and verifies the artifacts,
 * the engine answers from them. The one entry point for whoever serves or measures a snapshot.
 */
import { type LoadTimings, readSnapshot } from './load.js';
import { createQueryEngine, type EngineOptions } from './engine.js';
import type { QueryEngine } from './types.js';

/**
 * Open the snapshot in `dir` as soon as it can answer Get Server: the manifest, the records and the names
 * read and checked; every other part loads when first needed or when `engine.loadAll()` is called (a
 * server calls it once it listens). Throws SnapshotLoadError when the snapshot cannot be served.
 */
export async function openSnapshot(
  dir: string,
  timings: LoadTimings = {},
  options: EngineOptions = {},
): Promise<QueryEngine> {
  const started = performance.now();
  const artifacts = await readSnapshot(dir, timings);
  try {
    const engine = createQueryEngine(artifacts, timings, options);
    timings.getReady = performance.now() - started;
    return engine;
  } catch (error) {
    artifacts.records.close();
    throw error;
  }
}

/** Open the snapshot in `dir` and load all of it, the history too, every artifact checked: for tools, tests and benchmarks. */
export async function loadSnapshot(
  dir: string,
  timings: LoadTimings = {},
  options: EngineOptions = {},
): Promise<QueryEngine> {
  const started = performance.now();
  const engine = await openSnapshot(dir, timings, options);
  try {
    await engine.loadAll();
    await engine.ready('history');
  } catch (error) {
    engine.close();
    throw error;
  }
  timings.total = performance.now() - started;
  return engine;
}
