/**
 * The worker thread of `schema-check.ts`: reads the input files as the build's own thread does
 * (`rawRecords`), checks every record with the record schema, and answers whether each passed and came out
 * of the schema as the build's thread makes it from the parsed input (`inSchemaOrder`: the same keys and
 * values, keys in the schema's order). It stops at the first record that is not, and says so; the build
 * then validates on its own thread and reports every problem.
 */
import { parentPort, workerData } from 'node:worker_threads';
import path from 'node:path';
import { ServerRecordSchema } from '../model/record-schema.js';
import { inSchemaOrder } from '../model/schema-order.js';
import { rawRecords } from './raw-records.js';
import { makeRecordScorer } from './score-records.js';
import type { SchemaCheckRequest, SchemaCheckVerdict } from './schema-check.js';

/** True when `output` is `input`: equal values, objects with the same keys in the same order. */
export function isParsedAsIs(input: unknown, output: unknown): boolean {
  if (input === null || output === null || typeof input !== 'object' || typeof output !== 'object') {
    return Object.is(input, output);
  }
  if (Array.isArray(input) !== Array.isArray(output)) return false;
  if (Array.isArray(input)) {
    const items = output as unknown[];
    if (input.length !== items.length) return false;
    for (let i = 0; i < input.length; i++) if (!isParsedAsIs(input[i], items[i])) return false;
    return true;
  }
  const keys = Object.keys(input);
  const outputKeys = Object.keys(output);
  if (keys.length !== outputKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== outputKeys[i]) return false;
    if (!isParsedAsIs((input as Record<string, unknown>)[key], (output as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** Check every record of `files`; stop at the first that fails the schema or that the build would make otherwise. */
export async function checkRecords({ files, cwd, scoring }: SchemaCheckRequest): Promise<SchemaCheckVerdict> {
  let records = 0;
  try {
    const score = await makeRecordScorer(scoring);
    for (const file of files) {
      for await (const batch of rawRecords(file, path.resolve(cwd, file))) {
        for (const { raw: given } of batch) {
          const raw = score(given);
          const result = ServerRecordSchema.safeParse(raw);
          if (!result.success || !isParsedAsIs(inSchemaOrder(raw, ServerRecordSchema), result.data))
            return { asIs: false };
          records++;
        }
      }
    }
  } catch {
    // Unreadable or malformed input: the build's own reading meets the same and says what it is.
    return { asIs: false };
  }
  return { asIs: true, records };
}

// Only as the schema check's worker: a test runner's own worker threads import this module too.
const request = workerData as Partial<SchemaCheckRequest> | null | undefined;
if (parentPort !== null && request?.kind === 'schema-check') {
  const port = parentPort;
  void checkRecords(request as SchemaCheckRequest).then((verdict) => port.postMessage(verdict));
}
