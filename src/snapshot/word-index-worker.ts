/**
 * The worker thread of `word-indexes.ts`: makes the name and description indexes from the names and
 * descriptions it is given, and answers with their bytes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { encodeWordIndexes, type WordIndexRequest } from './word-indexes.js';

// Only as the build's word-index worker: a test runner's own worker threads import this module too.
const request = workerData as Partial<WordIndexRequest> | null | undefined;
if (parentPort !== null && request?.kind === 'word-indexes') {
  const { search, descriptions } = encodeWordIndexes(request as WordIndexRequest);
  // Sent as their own buffers, handed over rather than copied.
  const searchBytes = new Uint8Array(search);
  const descriptionBytes = new Uint8Array(descriptions);
  parentPort.postMessage({ search: searchBytes, descriptions: descriptionBytes }, [searchBytes.buffer, descriptionBytes.buffer]);
}
