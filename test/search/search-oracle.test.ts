/**
 * Which servers a search matches, against a naive oracle: every query word must equal, prefix, or (from
 * 4 characters) be within the typo distance of some word of the name. The engine's matching (term
 * expansion through the sorted terms and their trie, rarest word first, candidates probed or walked) must find
 * exactly that set, whatever the sizes involved.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesName, matchReadings, nameIndexTerms } from '../support/naive-search.js';
import { loadObjectEngine } from '../support/engine.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const VOCABULARY = [
  'mcp',
  'server',
  'postgres',
  'post',
  'github',
  'git',
  'slack',
  'weather',
  'tools',
  'kubernetes',
  'ab',
  'abc',
  'abcd',
];
const NAMESPACES = ['io.github.alice', 'com.acme', 'ai.mcp', 'dev.tools'];

function naiveMatches(names: string[], query: string): Set<string> {
  return new Set(matchReadings(names, query, nameIndexTerms(names), matchesName));
}

const typo = (word: string) =>
  fc.integer({ min: 0, max: Math.max(0, word.length - 1) }).map((at) => word.slice(0, at) + 'x' + word.slice(at + 1));

const queryArbitrary = fc
  .array(
    fc
      .constantFrom(...VOCABULARY)
      .chain((word) => fc.oneof(fc.constant(word), fc.constant(word.slice(0, 3)), typo(word))),
    { minLength: 1, maxLength: 3 },
  )
  .map((words) => words.join(' '));

const namesArbitrary = fc.uniqueArray(
  fc
    .tuple(fc.constantFrom(...NAMESPACES), fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 3 }))
    .map(([namespace, words]) => `${namespace}/${words.join('-')}`),
  { minLength: 1, maxLength: 80, selector: (name) => name.toLowerCase() },
);

describe('search matches exactly what a naive oracle matches', () => {
  it('on random datasets and random queries with prefixes and typos', async () => {
    await fc.assert(
      fc.asyncProperty(
        namesArbitrary,
        fc.array(queryArbitrary, { minLength: 1, maxLength: 15 }),
        async (names, queries) => {
          const engine = await loadObjectEngine(await buildTestSnapshot(names.map((name) => makeRecord({ name }))));
          for (const query of queries) {
            const expected = naiveMatches(names, query);
            const page = engine.search(query, 200);
            expect(page.total, query).toBe(expected.size);
            expect(new Set(page.items.map((r) => r.name)), query).toEqual(expected);
          }
          engine.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
