/**
 * The record schema, checked on a second thread while the build's own thread parses the same input: the
 * build's largest single cost is the schema (about a fifth of it), and this machine, like most, has a second
 * core. The worker (`schema-check-worker.ts`) answers whether every record passed and came out of the
 * schema as the build makes it from the parsed input (keys in the schema's order, nothing else changed); only
 * then does the build keep the records it parsed itself. On any other answer, or any failure of the worker,
 * the build validates on its own thread as before (`read-input.ts`).
 */
import { answerOf, startBuildWorker } from './worker-module.js';
import type { ScoringChoice } from './score-records.js';

export interface SchemaCheckRequest {
  kind: 'schema-check';
  files: string[];
  cwd: string;
  /** How the build scores each record before it is checked: the worker scores the same way. */
  scoring: ScoringChoice;
}

/**
 * `asIs`: every record passed the schema, and its output was the parsed record with its keys in the schema's
 * order (`inSchemaOrder`), `records` of them, in the order `rawRecords` gives.
 */
export type SchemaCheckVerdict = { asIs: true; records: number } | { asIs: false };

export interface SchemaCheck {
  verdict: Promise<SchemaCheckVerdict>;
  /** Stop the worker (the build failed or no longer needs it). */
  stop(): Promise<void>;
}

export function startSchemaCheck(files: readonly string[], cwd: string, scoring: ScoringChoice): SchemaCheck {
  const request: SchemaCheckRequest = { kind: 'schema-check', files: [...files], cwd, scoring };
  const worker = startBuildWorker('schema-check-worker', request);
  return {
    verdict: answerOf<SchemaCheckVerdict>(worker, { asIs: false }),
    stop: async () => {
      await worker.terminate();
    },
  };
}
