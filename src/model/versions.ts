/**
 * Version order and OSV's affected ranges (https://ossf.github.io/osv-schema/#affectedranges-field): whether a
 * version of a package is affected by an advisory. Versions compare as SemVer 2.0 where they are SemVer
 * (npm, crates.io), and otherwise by their dot-separated release numbers, a pre-release or text part after
 * them ordering before the plain release (PyPI's `1.0rc1` < `1.0`): the forms MCP packages publish.
 */

import { comparePep440, compareSemVer } from './version-ranges.js';

interface ParsedVersion {
  release: number[];
  /** Pre-release identifiers; empty for a release. */
  pre: string[];
}

function parse(version: string): ParsedVersion {
  const text = version.trim().replace(/^v/i, '').split('+', 1)[0]!;
  const match = /^(\d+(?:\.\d+)*)(.*)$/.exec(text);
  if (match === null) return { release: [], pre: [text] };
  const rest = match[2]!.replace(/^[-.]/, '');
  return { release: match[1]!.split('.').map(Number), pre: rest === '' ? [] : rest.split(/[.-]/) };
}

function compareIdentifiers(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Number(a) - Number(b);
  if (numeric.test(a)) return -1;
  if (numeric.test(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Negative, zero or positive as version `a` orders before, with or after `b`. Two SemVer versions compare by
 * SemVer 2.0's precedence, two PEP 440 versions by PEP 440 (a post-release after its release, a dev release
 * before its pre-releases: `src/model/version-ranges.ts`); anything else by the release numbers below.
 */
export function compareVersions(a: string, b: string): number {
  const strict = compareSemVer(a, b) ?? comparePep440(a, b);
  if (strict !== null) return strict;
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.release.length, y.release.length); i++) {
    const difference = (x.release[i] ?? 0) - (y.release[i] ?? 0);
    if (difference !== 0) return difference;
  }
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const difference = compareIdentifiers(x.pre[i]!, y.pre[i]!);
    if (difference !== 0) return difference;
  }
  return x.pre.length - y.pre.length;
}

/** A range's events as OSV writes them: each one of introduced, fixed, last_affected. */
export interface RangeEvent {
  introduced?: string | undefined;
  fixed?: string | undefined;
  last_affected?: string | undefined;
}

/** Whether `version` lies in the range the events describe (introduced "0" is every version before the rest). */
export function inRange(version: string, events: readonly RangeEvent[]): boolean {
  // OSV: sort the events by version, then walk them: introduced opens, fixed and last_affected close.
  type Point = { kind: 'introduced' | 'fixed' | 'last_affected'; at: string };
  const points: Point[] = [];
  for (const event of events) {
    if (event.introduced !== undefined) points.push({ kind: 'introduced', at: event.introduced });
    else if (event.fixed !== undefined) points.push({ kind: 'fixed', at: event.fixed });
    else if (event.last_affected !== undefined) points.push({ kind: 'last_affected', at: event.last_affected });
  }
  const position = (point: Point, other: Point): number => {
    if (point.at === '0') return other.at === '0' ? 0 : -1;
    if (other.at === '0') return 1;
    return compareVersions(point.at, other.at);
  };
  points.sort(position);
  let affected = false;
  for (const point of points) {
    const cmp = point.at === '0' ? 1 : compareVersions(version, point.at);
    if (point.kind === 'introduced' && cmp >= 0) affected = true;
    else if (point.kind === 'fixed' && cmp >= 0) affected = false;
    else if (point.kind === 'last_affected' && cmp > 0) affected = false;
  }
  return affected;
}

/** The looks of a version a configuration pins (`1.2.3`, `0.9.0-beta.1`), not a tag such as `latest`. */
export function isVersion(text: string): boolean {
  return /^v?\d+(\.\d+)*([-.+][0-9A-Za-z.+-]*)?$/.test(text.trim());
}
