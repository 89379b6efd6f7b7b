/**
 * A record's id by its name in any letter case: by binary search over the names table (`findName`) and by
 * the hash index Get Server uses (`NameIndex`), comparing and hashing stored bytes where they are ASCII and
 * strings where they are not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeNames, encodeNames } from '../../src/format/index-layout.js';
import { fnv1a } from '../../src/format/fnv.js';
import { findName, NameIndex, type NameTable } from '../../src/format/name-lookup.js';
import { compareNames } from '../../src/format/name-order.js';
import { createSlicer } from '../../src/format/slicer.js';

/** A name index, made whole. */
async function built(table: NameTable): Promise<NameIndex> {
  const index = new NameIndex(table);
  await index.build(createSlicer(Infinity));
  return index;
}

/** Characters that lower-case in every way there is: ASCII, to ASCII from beyond it (the Kelvin sign), longer (İ), not at all. */
const CHARACTERS = [
  'a',
  'b',
  'B',
  'z',
  'Z',
  '-',
  '.',
  '/',
  '0',
  '\u212a',
  'k',
  'K',
  '\u0130',
  'i',
  'ß',
  'é',
  'É',
  'Σ',
  'σ',
  '😀',
  '\uffff',
];

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
    .map((c, i) =>
      flips[i % flips.length] && /[a-z]/i.test(c) ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c,
    )
    .join('');

describe('findName', () => {
  const word = fc.array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));

  it('finds every name in any ASCII case, and answers as a scan does for any other text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 1, maxLength: 60 }),
        fc.array(word, { maxLength: 20 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        async (candidates, others, flips) => {
          const { names, table } = tableOf(candidates);
          // Before it is built, the index answers by binary search; after, by its table.
          const [unbuilt, index] = [new NameIndex(table), await built(table)];
          names.forEach((name, id) => {
            for (const query of [name, name.toLowerCase(), flipAscii(name, flips)]) {
              expect(findName(table, query)).toBe(id);
              expect(unbuilt.find(query)).toBe(id);
              expect(index.find(query)).toBe(id);
            }
          });
          for (const query of [...others, ...names.map((name) => name.toUpperCase())]) {
            expect(findName(table, query)).toBe(scan(names, query));
            expect(index.find(query)).toBe(scan(names, query));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers the same through the stored bytes and through strings alone', async () => {
    const { names, table } = tableOf([
      'io.github.acme/Slack',
      'com.\u212aelvin/x',
      'com.kelvin/y',
      'İo/x',
      'io/ß',
      'IO/Z',
    ]);
    const stringsOnly: NameTable = {
      length: table.length,
      at: (id: number) => table.at(id),
      compareLowerAscii: () => undefined,
      hashLowerAscii: () => undefined,
      equalsLowerAscii: () => undefined,
    };
    const [index, stringIndex] = [await built(table), await built(stringsOnly)];
    for (const query of [
      ...names,
      'com.kelvin/x',
      'COM.KELVIN/Y',
      'i̇o/x',
      'IO/SS',
      'io/z',
      'io.github.acme/slack',
      'absent/x',
    ]) {
      expect(findName(table, query), query).toBe(findName(stringsOnly, query));
      expect(index.find(query), query).toBe(findName(table, query));
      expect(stringIndex.find(query), query).toBe(findName(table, query));
    }
    // Every ASCII name hashes the same from its bytes as from its string.
    names.forEach((name, id) => {
      if ([...name].every((c) => c.charCodeAt(0) < 0x80))
        expect(table.hashLowerAscii(id)).toBe(fnv1a(name.toLowerCase()));
    });
  });

  it('finds each of 5,000 names past the slots of others (probe runs), and no name it does not hold', async () => {
    const { names, table } = tableOf(Array.from({ length: 5000 }, (_, i) => `io.github.acme-${i % 70}/Server-${i}`));
    const index = await built(table);
    names.forEach((name, id) => expect(index.find(name.toUpperCase())).toBe(id));
    for (let i = 5000; i < 6000; i++) expect(index.find(`io.github.acme-${i % 70}/server-${i}`)).toBe(undefined);
  });
});
