/**
 * Whether a version falls in an advisory's affected ranges, by OSV's semantics: explicit `versions` lists,
 * and SEMVER or ECOSYSTEM ranges of `introduced` / `fixed` / `last_affected` events, sorted by version and
 * walked in order (https://ossf.github.io/osv-schema/#evaluation). Versions compare by SemVer 2.0 for npm and
 * crates.io, by PEP 440 release versions (with pre-, post- and dev-releases) for PyPI, by dotted numbers for
 * NuGet. A version that cannot be read answers `null`: the caller decides (a malicious record fails closed).
 */

/** The OSV ecosystems compared here, each by its own version rules. */
export type OsvEcosystem = 'npm' | 'PyPI' | 'crates.io' | 'NuGet';
/** One OSV range event: exactly one of introduced, fixed, last_affected. */
export type RangeEvent = { introduced: string } | { fixed: string } | { last_affected: string };
export interface AffectedRange {
  type: 'SEMVER' | 'ECOSYSTEM';
  events: RangeEvent[];
}
/** An OSV `affected` entry: with no ranges and no versions, every version is affected. */
export interface AffectedPackage {
  ecosystem: OsvEcosystem;
  name: string;
  ranges: AffectedRange[];
  versions: string[];
}

type Compare = (a: string, b: string) => number | null;

// ---- SemVer 2.0 --------------------------------------------------------------------------------------------

const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

interface SemVer {
  core: [bigint, bigint, bigint];
  pre: string[];
}

export function parseSemVer(text: string): SemVer | null {
  const match = SEMVER.exec(text.trim());
  if (!match) return null;
  const pre = match[4] === undefined ? [] : match[4].split('.');
  // SemVer 2.0: numeric pre-release identifiers have no leading zeros.
  if (pre.some((part) => /^\d+$/.test(part) && part.length > 1 && part.startsWith('0'))) return null;
  return { core: [BigInt(match[1]!), BigInt(match[2]!), BigInt(match[3]!)], pre };
}

function comparePreIdentifier(a: string, b: string): number {
  const aNumeric = /^\d+$/.test(a);
  const bNumeric = /^\d+$/.test(b);
  if (aNumeric && bNumeric) return Math.sign(Number(BigInt(a) - BigInt(b)));
  if (aNumeric) return -1; // numeric identifiers have lower precedence than alphanumeric ones
  if (bNumeric) return 1;
  return a < b ? -1 : a > b ? 1 : 0; // ASCII order
}

/** SemVer 2.0 precedence: build metadata ignored; a pre-release sorts before its release. */
export const compareSemVer: Compare = (a, b) => {
  const left = parseSemVer(a);
  const right = parseSemVer(b);
  if (!left || !right) return null;
  for (let i = 0; i < 3; i++) {
    if (left.core[i]! !== right.core[i]!) return left.core[i]! < right.core[i]! ? -1 : 1;
  }
  if (left.pre.length === 0 || right.pre.length === 0)
    return (right.pre.length === 0 ? 0 : 1) - (left.pre.length === 0 ? 0 : 1);
  for (let i = 0; i < Math.min(left.pre.length, right.pre.length); i++) {
    const order = comparePreIdentifier(left.pre[i]!, right.pre[i]!);
    if (order !== 0) return order;
  }
  return Math.sign(left.pre.length - right.pre.length);
};

// ---- PEP 440 (public versions: epoch, release, pre, post, dev) ----------------------------------------------

const PEP440 =
  /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?(?:(?:-(\d+))|(?:[-_.]?(post|rev|r)[-_.]?(\d*)))?(?:[-_.]?(dev)[-_.]?(\d*))?$/i;

interface Pep440 {
  epoch: bigint;
  release: bigint[];
  /** [phase 0 a / 1 b / 2 rc, number], or null. */
  pre: [number, bigint] | null;
  post: bigint | null;
  dev: bigint | null;
}

export function parsePep440(text: string): Pep440 | null {
  const match = PEP440.exec(text.trim());
  if (!match) return null;
  const phase = match[3]?.toLowerCase();
  const pre: [number, bigint] | null =
    phase === undefined
      ? null
      : [phase === 'a' || phase === 'alpha' ? 0 : phase === 'b' || phase === 'beta' ? 1 : 2, BigInt(match[4] || '0')];
  const post = match[5] !== undefined ? BigInt(match[5]) : match[6] !== undefined ? BigInt(match[7] || '0') : null;
  const dev = match[8] !== undefined ? BigInt(match[9] || '0') : null;
  return { epoch: BigInt(match[1] ?? '0'), release: match[2]!.split('.').map((part) => BigInt(part)), pre, post, dev };
}

const cmp = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/** PEP 440 ordering: epoch, release (trailing zeros ignored), then dev < pre < release < post. */
export const comparePep440: Compare = (a, b) => {
  const left = parsePep440(a);
  const right = parsePep440(b);
  if (!left || !right) return null;
  if (left.epoch !== right.epoch) return cmp(left.epoch, right.epoch);
  const length = Math.max(left.release.length, right.release.length);
  for (let i = 0; i < length; i++) {
    const order = cmp(left.release[i] ?? 0n, right.release[i] ?? 0n);
    if (order !== 0) return order;
  }
  const order = [preKey, postKey, devKey].map((key) => compareKeys(key(left), key(right))).find((o) => o !== 0);
  return order ?? 0;
};

// Sort keys after the release, as in the `packaging` library: a bare dev release sorts before any pre-release.
type Key = [number, bigint];
function preKey(v: Pep440): Key {
  if (v.pre === null && v.post === null && v.dev !== null) return [-1, 0n];
  if (v.pre === null) return [3, 0n];
  return [v.pre[0], v.pre[1]];
}
function postKey(v: Pep440): Key {
  return v.post === null ? [-1, 0n] : [0, v.post];
}
function devKey(v: Pep440): Key {
  return v.dev === null ? [1, 0n] : [0, v.dev];
}
function compareKeys(a: Key, b: Key): number {
  return a[0] !== b[0] ? Math.sign(a[0] - b[0]) : cmp(a[1], b[1]);
}

// ---- NuGet (dotted numbers, optional SemVer pre-release) --------------------------------------------------

export const compareNuGet: Compare = (a, b) => {
  const normal = (text: string): string | null => {
    const match = /^(\d+(?:\.\d+){0,3})(-[0-9A-Za-z.-]+)?(\+.*)?$/.exec(text.trim());
    if (!match) return null;
    const parts = match[1]!.split('.');
    while (parts.length < 3) parts.push('0');
    // A fourth part joins the third's comparison by padding; SemVer reads three, so fold the fourth in.
    const core =
      parts.length === 4
        ? `${parts[0]}.${parts[1]}.${BigInt(parts[2]!) * 1_000_000_000n + BigInt(parts[3]!)}`
        : parts.join('.');
    return `${core}${match[2] ?? ''}`;
  };
  const left = normal(a);
  const right = normal(b);
  return left === null || right === null ? null : compareSemVer(left, right);
};

export function comparatorFor(ecosystem: OsvEcosystem): Compare {
  switch (ecosystem) {
    case 'PyPI':
      return comparePep440;
    case 'NuGet':
      return compareNuGet;
    default:
      return compareSemVer;
  }
}

// ---- OSV evaluation ---------------------------------------------------------------------------------------

function eventVersion(event: RangeEvent): string {
  return 'introduced' in event ? event.introduced : 'fixed' in event ? event.fixed : event.last_affected;
}

/**
 * Whether `version` is in one range: its events sorted by version (OSV asks readers to sort them), then walked
 * in order, `introduced` opening and `fixed` / `last_affected` closing. Null when a version cannot be compared.
 */
export function inRange(range: AffectedRange, version: string, ecosystem: OsvEcosystem): boolean | null {
  const compare = range.type === 'SEMVER' ? compareSemVer : comparatorFor(ecosystem);
  if (compare(version, version) === null) return null;
  const isZero = (event: RangeEvent) => 'introduced' in event && event.introduced === '0';
  if (range.events.some((event) => !isZero(event) && compare(eventVersion(event), eventVersion(event)) === null)) {
    return null;
  }
  const sorted = [...range.events].sort((a, b) =>
    isZero(a) ? -1 : isZero(b) ? 1 : compare(eventVersion(a), eventVersion(b))!,
  );
  let affected = false;
  for (const event of sorted) {
    // "0" in introduced means every version from the first.
    const order = isZero(event) ? 1 : compare(version, eventVersion(event))!;
    if ('introduced' in event) {
      if (order >= 0) affected = true;
    } else if ('fixed' in event) {
      if (order >= 0) affected = false;
    } else if (order > 0) affected = false;
  }
  return affected;
}

/**
 * Whether an affected package covers `version`: listed in `versions`, or in one of its ranges. With no ranges
 * and no versions, OSV means every version. A null version (the record names none) is affected only when every
 * version is; a version that cannot be compared answers null.
 */
export function affects(affected: AffectedPackage, version: string | null): boolean | null {
  const everyVersion = affected.ranges.length === 0 && affected.versions.length === 0;
  if (everyVersion) return true;
  if (version === null) return null;
  const trimmed = version.trim().replace(/^v(?=\d)/, '');
  if (affected.versions.some((listed) => listed === version || listed === trimmed)) return true;
  let unknown = false;
  for (const range of affected.ranges) {
    const answer = inRange(range, trimmed, affected.ecosystem);
    if (answer === true) return true;
    if (answer === null) unknown = true;
  }
  return unknown ? null : false;
}

/** The first `fixed` version of the affected package's ranges above `version` (what to upgrade to), or null. */
export function fixedVersion(affected: AffectedPackage, version: string | null): string | null {
  const compare = comparatorFor(affected.ecosystem);
  const fixes = affected.ranges.flatMap((range) =>
    range.events.flatMap((event) => ('fixed' in event ? [event.fixed] : [])),
  );
  const above = version === null ? fixes : fixes.filter((fix) => (compare(fix, version) ?? 1) > 0);
  above.sort((a, b) => compare(a, b) ?? 0);
  return above[0] ?? null;
}
