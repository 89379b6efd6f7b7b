/**
 * Get Server's lookup: a record's id by its name in any letter case, by binary search over the names
 * table, comparing stored bytes where they are ASCII and strings where they are not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeNames, encodeNames } from '../../src/snapshot/encode.js';
import { findName } from '../../src/snapshot/name-lookup.js';
import { compareNames } from '../../src/snapshot/order.js';

/** Characters that lower-case in every way there is: ASCII, to ASCII from beyond it (the Kelvin sign), longer (İ), not at all. */
const CHARACTERS = ['a', 'b', 'B', 'z', 'Z', '-', '.', '/', '0', '\u212a', 'k', 'K', '\u0130', 'i', 'ß', 'é', 'É', 'Σ', 'σ', '😀', '\uffff'];

/** A table in name order, each lower-cased name once, as a snapshot holds them. */
function tableOf(candidates: string[]) {
  const byLower = new Map<string, string>();
  for (const name of candidates) if (!byLower.has(name.toLowerCase())) byLower.set(name.toLowerCase(), name);
  const names = [...byLower.values()].sort(compareNames);
  return { names, table: decodeNames(encodeNames(names)) };
}

/** The answer by a plain scan. */
const scan = (names: string[], query: string) => {
  const at = names.findIndex((name) => name.toLowerCase() === query.toLowerCase());
  return at === -1 ? undefined : at;
};

/** Flip the case of the ASCII letters where `flips` says so. */
const flipAscii = (text: string, flips: boolean[]) =>
  [...text]
    .map((c, i) => (flips[i % flips.length] && /[a-z]/i.test(c) ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
    .join('');

describe('findName', () => {
  const word = fc.array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));

  it('finds every name in any ASCII case, and answers as a scan does for any other text', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 60 }),
        fc.array(word, { maxLength: 20 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        (candidates, others, flips) => {
          const { names, table } = tableOf(candidates);
          names.forEach((name, id) => {
            expect(findName(table, name)).toBe(id);
            expect(findName(table, name.toLowerCase())).toBe(id);
            expect(findName(table, flipAscii(name, flips))).toBe(id);
          });
          for (const query of [...others, ...names.map((name) => name.toUpperCase())])
            expect(findName(table, query)).toBe(scan(names, query));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers the same through the stored bytes and through strings alone', () => {
    const { names, table } = tableOf(['io.github.acme/Slack', 'com.\u212aelvin/x', 'com.kelvin/y', 'İo/x', 'io/ß', 'IO/Z']);
    const stringsOnly = { length: table.length, at: (id: number) => table.at(id), compareLowerAscii: () => undefined };
    for (const query of [...names, 'com.kelvin/x', 'COM.KELVIN/Y', 'i̇o/x', 'IO/SS', 'io/z', 'io.github.acme/slack', 'absent/x'])
      expect(findName(table, query), query).toBe(findName(stringsOnly, query));
  });
});
