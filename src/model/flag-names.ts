/**
 * A policy's flag names held against the flags a snapshot knows, so that a misspelt name is an error and not
 * a rule that matches nothing (a security gate that fails open). Used by `POST /v1/check`, the CLI's
 * `--deny-flags` (and so the Action's input) and `REGISTRY_DENY_FLAGS` at start. Each refusal names the
 * closest known flags, by edit distance.
 */
import { FLAGS } from './vocabulary.js';

/** The flags every snapshot is taken to know: those the scoring pipeline raises (the vocabulary). */
export const VOCABULARY_FLAGS: ReadonlySet<string> = new Set(FLAGS.map((flag) => flag.name));

/** Levenshtein distance between two short names (flag names are at most 64 characters). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Most edits a suggestion may be away: a third of the name, at least 2 (a typo, not another word). */
const closeEnough = (name: string) => Math.max(2, Math.floor(name.length / 3));

/**
 * Whether `flag` holds `name` as a part of it a person would type: whole words of it (`CRED`, `SENSITIVE_CRED` in
 * `SENSITIVE_CRED_REQUEST`), or its first half or more (`SENSITIVE_CR`). Letters that merely occur inside a
 * word (`OUR` in `NO_SOURCE`, `ACT` in `STAGING_ARTIFACT`) do not count.
 */
function holds(flag: string, name: string): boolean {
  if (name.length < 3) return false;
  return `_${flag}_`.includes(`_${name}_`) || (flag.startsWith(name) && name.length * 2 >= flag.length);
}

/**
 * The known flags close to `name`, nearest first (ties by name), at most `count`: a known flag that holds the
 * name (`SENSITIVE_CRED` → `SENSITIVE_CRED_REQUEST`) or one a few edits away (a typo). None when no flag
 * is close: an unrelated suggestion only misleads.
 */
export function closestFlags(name: string, known: Iterable<string>, count = 3): string[] {
  const upper = name.toUpperCase();
  const bound = closeEnough(upper);
  return [...known]
    .map((flag) => ({ flag, distance: holds(flag, upper) ? 0 : editDistance(upper, flag) }))
    .filter(({ distance }) => distance <= bound)
    .sort((a, b) => a.distance - b.distance || (a.flag < b.flag ? -1 : a.flag > b.flag ? 1 : 0))
    .slice(0, count)
    .map(({ flag }) => flag);
}

/**
 * Undefined when every name of `flags` is known (any case); otherwise one line that names each unknown flag,
 * the closest known ones, and every known flag. `what` names the setting (`--deny-flags`).
 */
export function unknownFlagsProblem(
  what: string,
  flags: readonly string[],
  known: ReadonlySet<string>,
): string | undefined {
  const unknown = [...new Set(flags.map((flag) => flag.toUpperCase()))].filter((flag) => !known.has(flag));
  if (unknown.length === 0) return undefined;
  const each = unknown.map((flag) => {
    const close = closestFlags(flag, known);
    return close.length === 0 ? `"${flag}" (no known flag is close)` : `"${flag}" (did you mean ${close.join(', ')}?)`;
  });
  const noun = unknown.length === 1 ? 'a flag' : 'flags';
  return (
    `${what} names ${noun} no scored server has ever carried: ${each.join('; ')}. ` +
    `Known flags: ${[...known].sort().join(', ')}`
  );
}
