/**
 * The orders of decisions §6: name order is code-point order of the lower-cased name, then of the name
 * itself. JavaScript's `<` compares UTF-16 code units, which differs from code-point order only when a
 * surrogate pair meets a character from U+E000 to U+FFFF; the slow path handles exactly that case.
 */

/** Compare two strings by Unicode code points: negative, zero or positive. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Both below the surrogate range, or neither a surrogate: code units order like code points.
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate === ySurrogate) return x - y;
    // A surrogate (a code point ≥ U+10000) sorts after any BMP character.
    return xSurrogate ? 1 : -1;
  }
  return a.length - b.length;
}

/** Name order: lower-cased name by code points, then the name itself. */
export function compareNames(a: string, b: string): number {
  return compareCodePoints(a.toLowerCase(), b.toLowerCase()) || compareCodePoints(a, b);
}

const SURROGATE = /[\uD800-\uDFFF]/;
/** UTF-16 (code-unit) order, JavaScript's own `<`: the order `StringTable.find` searches in and the build sorts keyed
 * tables in; the same as code-point order for strings without surrogates. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The fastest exact code-point comparison for these strings: JavaScript's own `<` when none holds a
 * surrogate (then code units order like code points), `compareCodePoints` otherwise. A build sorts
 * hundreds of thousands of names; the native comparison is several times faster than a loop over them.
 */
export function codePointComparator(strings: Iterable<string>): (a: string, b: string) => number {
  for (const text of strings) if (SURROGATE.test(text)) return compareCodePoints;
  return byCodeUnits;
}
