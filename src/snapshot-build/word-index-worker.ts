/**
 * The worker thread of `word-indexes.ts`: waits for the names and descriptions, makes the name and
 * description indexes from them, and answers with their bytes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { encodeWordIndexes, type WordIndexInput, type WordIndexRequest } from './word-indexes.js';

// Only as the build's word-index worker: a test runner's own worker threads import this module too.
const request = workerData as Partial<WordIndexRequest> | null | undefined;
if (parentPort !== null && request?.kind === 'word-indexes') {
  const port = parentPort;
  port.once('message', (input: WordIndexInput) => {
    const { search, descriptions } = encodeWordIndexes(input);
    // Sent as their own buffers, handed over rather than copied.
    const searchBytes = new Uint8Array(search);
    const descriptionBytes = new Uint8Array(descriptions);
    port.postMessage({ search: searchBytes, descriptions: descriptionBytes }, [
      searchBytes.buffer,
      descriptionBytes.buffer,
    ]);
  });
}
