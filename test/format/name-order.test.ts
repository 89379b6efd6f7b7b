/**
 * Name order is code-point order (decisions §6). The build sorts with JavaScript's own comparison when no
 * string holds a surrogate; either way the order must be the code-point order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointComparator, compareCodePoints } from '../../src/format/name-order.js';
import { computeArtifacts } from '../../src/snapshot-build/artifacts.js';
import { makeRecord } from '../support/records.js';

/** Code-point order by the definition: compare arrays of code points. */
function byDefinition(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const sign = (n: number) => Math.sign(n);
// Characters on both sides of the surrogate range, astral ones, and plain ASCII.
const character = fc.constantFrom('a', 'B', 'z', '.', '/', 'é', '\uE000', '\uFFFD', '😀', '𝔸', 'ß', 'İ');
const text = fc.array(character, { maxLength: 6 }).map((chars) => chars.join(''));

describe('code-point order', () => {
  it('is what the chosen comparator gives, with or without surrogates in the set', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 30 }), (strings) => {
        const compare = codePointComparator(strings);
        for (const a of strings)
          for (const b of strings) {
            expect(sign(compare(a, b))).toBe(sign(byDefinition(a, b)));
            expect(sign(compareCodePoints(a, b))).toBe(sign(byDefinition(a, b)));
          }
      }),
      { numRuns: 300 },
    );
  });

  it('orders records by lower-cased name, then name, the same with astral characters in the names', () => {
    const names = ['com.x/\uE000', 'com.x/😀', 'com.x/B', 'com.x/a', 'com.x/b', 'com.X/c'];
    const { names: ordered } = computeArtifacts(names.map((name) => makeRecord({ name })));
    const expected = [...names].sort((a, b) => byDefinition(a.toLowerCase(), b.toLowerCase()) || byDefinition(a, b));
    expect(ordered).toEqual(expected);
    expect(ordered.indexOf('com.x/\uE000')).toBeLessThan(ordered.indexOf('com.x/😀'));
  });
});
