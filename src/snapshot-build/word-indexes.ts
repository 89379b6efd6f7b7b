/**
 * The two word indexes of a snapshot (`search.bin` from the names, `descriptions.bin` from the
 * descriptions; `word-index-writer.ts`), made on a worker thread while the build's own thread writes the
 * other indexes and the lookup table, which need nothing from them. When the worker cannot make them (it fails or
 * stops), this thread does: the bytes are the same either way, only when they are ready differs.
 */
import { encodeDescriptionIndex, encodeNameIndex } from '../search/word-index-writer.js';
import { answerOf, type BuildWorkers, startBuildWorker } from './worker-module.js';

/** What the worker is started with: its role, and nothing else yet. */
export interface WordIndexRequest {
  kind: 'word-indexes';
}

/** What the worker is then sent. */
export interface WordIndexInput {
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
export function encodeWordIndexes({ names, descriptions }: WordIndexInput): Omit<WordIndexes, 'madeBy'> {
  return { search: encodeNameIndex(names), descriptions: encodeDescriptionIndex(descriptions) };
}

/** Fewer records than this are indexed on this thread: a worker would not pay off. */
const WORKER_MIN_RECORDS = 20_000;

export interface WordIndexMaker {
  /** Make the indexes (on the worker when one was started; never rejects). */
  make(names: readonly string[], descriptions: WordIndexInput['descriptions']): Promise<WordIndexes>;
  /** Stop the worker when the indexes will not be asked for (the build failed). */
  stop(): void;
}

/**
 * For a dataset of `records` records, start the worker now, before it has anything to do, so that its own
 * start (a few hundred milliseconds through tsx) overlaps the build's other work; it waits, holding nothing,
 * until `make` sends it the names and descriptions.
 */
export function startWordIndexes(records: number, workers: BuildWorkers = 'by size'): WordIndexMaker {
  const here = (names: readonly string[], descriptions: WordIndexInput['descriptions']): WordIndexes => ({
    ...encodeWordIndexes({ names, descriptions }),
    madeBy: 'this thread',
  });
  if (workers === 'by size' && records < WORKER_MIN_RECORDS) {
    return { make: async (names, descriptions) => here(names, descriptions), stop: () => undefined };
  }
  const worker = startBuildWorker('word-index-worker', { kind: 'word-indexes' });
  // Waiting for its input, the worker does not keep the process alive; once asked, it does.
  worker.unref();
  // Listened to from the start: a worker that fails while waiting is known to have failed.
  const answer = answerOf<{ search: Uint8Array; descriptions: Uint8Array } | undefined>(worker, undefined);
  return {
    make: async (names, descriptions) => {
      worker.ref();
      worker.postMessage({ names, descriptions } satisfies WordIndexInput);
      const made = await answer;
      if (made === undefined) return here(names, descriptions);
      const bytes = (view: Uint8Array) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
      return { search: bytes(made.search), descriptions: bytes(made.descriptions), madeBy: 'worker' };
    },
    stop: () => void worker.terminate(),
  };
}

/** The indexes of `names` and `descriptions`, on a worker thread for a large dataset; never rejects. */
export function makeWordIndexes(
  names: readonly string[],
  descriptions: WordIndexInput['descriptions'],
  workers: BuildWorkers = 'by size',
): Promise<WordIndexes> {
  return startWordIndexes(names.length, workers).make(names, descriptions);
}
