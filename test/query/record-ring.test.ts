/**
 * The ring of recently read records: a record it says it keeps is exactly the bytes written for it, however
 * the records' sizes and the order they are placed in wrap the ring.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordRing } from '../../src/query/record-ring.js';

describe('RecordRing', () => {
  it('keeps exactly the bytes written for each record it finds, and the newest records', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 400 }),
        fc.integer({ min: 1, max: 300 }),
        (lengths, asks, capacity) => {
          const ring = new RecordRing(capacity, lengths.length, (id) => lengths[id]!);
          const bytesOf = (id: number) => Buffer.alloc(lengths[id]!, id + 1);
          const placed: number[] = [];
          for (const ask of asks) {
            const id = ask % lengths.length;
            if (ring.find(id) !== -1) continue;
            const at = ring.place(id);
            if (lengths[id]! > capacity) {
              expect(at).toBe(-1);
              continue;
            }
            expect(at + lengths[id]!).toBeLessThanOrEqual(capacity);
            bytesOf(id).copy(ring.bytes, at);
            placed.push(id);
            // Every record it finds is intact; the one just placed is always found.
            expect(ring.find(id)).toBe(at);
            let keptBytes = 0;
            for (let other = 0; other < lengths.length; other++) {
              const start = ring.find(other);
              if (start === -1) continue;
              keptBytes += lengths[other]!;
              expect(ring.bytes.subarray(start, start + lengths[other]!).equals(bytesOf(other))).toBe(true);
            }
            expect(keptBytes).toBeLessThanOrEqual(capacity);
          }
          // The newest records are kept as long as they fit in half the ring together (a wrap may waste
          // up to a record's length at the end).
          let room = Math.floor(capacity / 2) - Math.max(...lengths);
          for (const id of [...new Set(placed.reverse())]) {
            room -= lengths[id]!;
            if (room < 0) break;
            expect(ring.find(id)).not.toBe(-1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('forgets the record just placed when its bytes could not be read', () => {
    const ring = new RecordRing(100, 3, () => 10);
    ring.place(0);
    ring.place(1);
    ring.forgetNewest();
    expect(ring.find(1)).toBe(-1);
    expect(ring.find(0)).toBe(0);
    expect(ring.place(2)).toBe(20);
  });
});
