/**
 * A snapshot folder → a query engine: the loader (`src/snapshot/load.ts`) reads and verifies the artifacts,
 * the engine answers from them. The one entry point for whoever serves or measures a snapshot.
 */
import { type LoadTimings, readSnapshot } from '../snapshot/load.js';
import { createQueryEngine } from './engine.js';
import type { QueryEngine } from './types.js';

/** Load the snapshot in `dir` into a query engine. Throws SnapshotLoadError when it cannot be served. */
export async function loadSnapshot(dir: string, timings: LoadTimings = {}): Promise<QueryEngine> {
  const started = performance.now();
  const artifacts = await readSnapshot(dir, timings);
  try {
    const engine = createQueryEngine(artifacts, timings);
    timings.total = performance.now() - started;
    return engine;
  } catch (error) {
    artifacts.records.close();
    throw error;
  }
}
