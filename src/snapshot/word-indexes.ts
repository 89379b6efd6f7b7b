/**
 * The two word indexes of a snapshot (`search.bin` from the names, `descriptions.bin` from the
 * descriptions; `search-postings.ts`), made on a worker thread while the build's own thread writes the
 * other indexes and the lookup table, which need nothing from them. When the worker cannot make them (it fails or
 * stops), this thread does: the bytes are the same either way, only when they are ready differs.
 */
import { encodeDescriptionIndex, encodeNameIndex } from './search-postings.js';
import { answerOf, type BuildWorkers, startBuildWorker } from './worker-module.js';

export interface WordIndexRequest {
  kind: 'word-indexes';
  /** The names in record-id order. */
  names: readonly string[];
  /** The descriptions in record-id order (none: null or undefined). */
  descriptions: readonly (string | null | undefined)[];
}

export interface WordIndexes {
  search: Buffer;
  descriptions: Buffer;
  /** Where they were made. */
  madeBy: 'worker' | 'this thread';
}

/** The indexes' bytes, made here: what the worker runs, and what this thread does when the worker cannot. */
export function encodeWordIndexes({ names, descriptions }: Omit<WordIndexRequest, 'kind'>): Omit<WordIndexes, 'madeBy'> {
  return { search: encodeNameIndex(names), descriptions: encodeDescriptionIndex(descriptions) };
}

/** Fewer records than this are indexed on this thread: a worker would not pay off. */
const WORKER_MIN_RECORDS = 20_000;

/** Start making the indexes, on a worker thread for a large dataset; the promise never rejects. */
export async function makeWordIndexes(
  names: readonly string[],
  descriptions: WordIndexRequest['descriptions'],
  workers: BuildWorkers = 'by size',
): Promise<WordIndexes> {
  if (workers === 'by size' && names.length < WORKER_MIN_RECORDS) {
    return { ...encodeWordIndexes({ names, descriptions }), madeBy: 'this thread' };
  }
  const request: WordIndexRequest = { kind: 'word-indexes', names, descriptions };
  const answer = await answerOf<{ search: Uint8Array; descriptions: Uint8Array } | undefined>(
    startBuildWorker('word-index-worker', request),
    undefined,
  );
  if (answer === undefined) return { ...encodeWordIndexes({ names, descriptions }), madeBy: 'this thread' };
  const bytes = (view: Uint8Array) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  return { search: bytes(answer.search), descriptions: bytes(answer.descriptions), madeBy: 'worker' };
}
