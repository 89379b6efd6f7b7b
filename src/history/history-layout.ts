/**
 * The history artifact's layout, both ways: JSON lines (`src/format/json-lines.ts`), one line per server, so
 * the build writes it a line at a time and a server reads it a slice at a time.
 */
import { jsonLinesOf, parseJsonLinesSync, toJsonLines } from '../format/json-lines.js';
import type { HistoryArtifact } from './history.js';

/** The history's lines (`writeLines` writes them; `encodeHistory` is them in one string). */
export function historyLines(history: HistoryArtifact): Generator<string> {
  return jsonLinesOf({ ...history }, ['servers']);
}

export function encodeHistory(history: HistoryArtifact): string {
  return toJsonLines({ ...history }, ['servers']);
}

export function decodeHistorySync(bytes: Buffer): HistoryArtifact {
  return parseJsonLinesSync(bytes) as unknown as HistoryArtifact;
}
