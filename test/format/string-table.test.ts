/**
 * A string table finds an entry by comparing its bytes while they are ASCII and its string past them: the
 * same answer as a search of the strings, for tables of ASCII, accented, BMP-high and astral characters,
 * where UTF-8 bytes and UTF-16 code units disagree on the order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeU32, U32Writer } from '../../src/format/binary.js';
import { byCodeUnits } from '../../src/format/name-order.js';
import { addStrings, StringTable } from '../../src/format/tables.js';

function tableOf(strings: readonly string[]): StringTable {
  const writer = new U32Writer();
  const ranges = addStrings(writer, strings);
  return new StringTable(decodeU32(writer.encode({ ranges })), ranges);
}

// Characters on both sides of where UTF-8 byte order and code-unit order part (U+E000 and up against
// surrogate pairs), so a byte comparison that ran past ASCII would misplace them.
const character = fc.constantFrom('a', 'b', 'z', 'A', '-', '0', 'é', '\u00ff', '\ue000', '\uffff', '😀', '𝒜');
const text = fc.array(character, { maxLength: 6 }).map((characters) => characters.join(''));

describe('a string table', () => {
  it('finds every entry, and nothing else, as a search of its strings does', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 60 }), fc.array(text, { maxLength: 20 }), (entries, others) => {
        const sorted = [...new Set(entries)].sort(byCodeUnits);
        const table = tableOf(sorted);
        for (const [i, entry] of sorted.entries()) expect(table.find(entry)).toBe(i);
        for (const other of others) expect(table.find(other)).toBe(sorted.indexOf(other));
        for (const other of others) {
          for (let i = 0; i < sorted.length; i++)
            expect(Math.sign(table.compare(i, other))).toBe(byCodeUnits(sorted[i]!, other));
        }
      }),
      { numRuns: 300 },
    );
  });
});
