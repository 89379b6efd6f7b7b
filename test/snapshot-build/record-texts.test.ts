/**
 * The records' texts held out of the heap while a snapshot is built (src/snapshot-build/record-texts.ts): read
 * back in any order, byte for byte, whether in memory or spilled to a temporary file, chunks and texts
 * longer than a chunk included; and the file is gone once closed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordTexts } from '../../src/snapshot-build/record-texts.js';

/** Texts of every length, some with characters of several bytes, one longer than a megabyte. */
function texts(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    i === 7 ? `{"big":"${'é'.repeat(600_000)}"}` : `{"n":${i},"s":"${'x✓'.repeat(i % 300)}"}`,
  );
}

/** A fixed shuffle of 0..n-1. */
function order(n: number): number[] {
  const ids = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = (i * 7919 + 13) % (i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids;
}

function readBack(store: RecordTexts, ids: number[]): string {
  const parts: string[] = [];
  for (const chunk of store.linesOf(ids)) parts.push(chunk.toString('utf8'));
  return parts.join('');
}

describe('RecordTexts', () => {
  for (const [where, spillBytes] of [
    ['in memory', undefined],
    ['spilled to a file', 4096],
  ] as const) {
    it(`gives every text back in the order asked, ${where}`, () => {
      const all = texts(3000);
      const store = new RecordTexts(spillBytes);
      for (const text of all) store.add(text);
      expect(store.count).toBe(all.length);
      const file = store.spillFile;
      expect(file !== undefined).toBe(spillBytes !== undefined);
      const ids = order(all.length);
      expect(readBack(store, ids)).toBe(ids.map((id) => `${all[id]}\n`).join(''));
      // Asked again, and for a part only: the same.
      expect(readBack(store, ids.slice(0, 10))).toBe(
        ids
          .slice(0, 10)
          .map((id) => `${all[id]}\n`)
          .join(''),
      );
      if (file !== undefined) expect(existsSync(file)).toBe(true);
      store.close();
      if (file !== undefined) expect(existsSync(path.dirname(file))).toBe(false);
    });
  }
});
