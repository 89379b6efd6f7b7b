/**
 * A posting list as a bit set answers as the list does: every record's position in it, or -1, whatever the
 * list's density and wherever its ids fall against the 32-record words.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DensePostings } from '../../src/search/dense-postings.js';

describe('dense postings', () => {
  it("give each record's position in the list, or -1", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 300 })
          .chain((count) =>
            fc.tuple(fc.constant(count), fc.uniqueArray(fc.integer({ min: 0, max: count - 1 }), { maxLength: count })),
          ),
        ([count, members]) => {
          const ids = Uint32Array.from(members).sort();
          const dense = new DensePostings(ids, count);
          for (let id = 0; id < count; id++) {
            expect(dense.positionOf(id)).toBe(ids.indexOf(id));
            expect(dense.has(id)).toBe(ids.includes(id));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts the 32nd record of a word (its bit is the sign bit)', () => {
    const ids = Uint32Array.from([0, 30, 31, 32, 63, 64]);
    const dense = new DensePostings(ids, 65);
    expect([0, 30, 31, 32, 63, 64].map((id) => dense.positionOf(id))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(dense.positionOf(33)).toBe(-1);
  });
});
