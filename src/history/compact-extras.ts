/**
 * The compact history's columns for what a scored point may carry after its flags (since artifact version 8):
 * the server's pinned tools' hash and its advisories' ids, each as codes in a dictionary. A history without
 * any (every one before version 8, most points of a large one) keeps no column for them.
 */
import type { ScoredPoint } from './history.js';

/** Distinct strings, each given the next code. */
export class Dictionary {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
}

/** The extras a point may end with, in the order the build writes them. */
const SUFFIXES = ['', ',tools_hash', ',advisories', ',tools_hash,advisories'];

/**
 * A scored point's keys without the extras it may carry after its flags (its shape), or undefined when they
 * are not as the build writes them (the point's server is then kept as read).
 */
export function withoutExtras(point: Record<string, unknown>): string | undefined {
  const keys = Object.keys(point).join(',');
  const end = keys.indexOf(',flags');
  if (end === -1) return keys;
  const at = end + ',flags'.length;
  if (!SUFFIXES.includes(keys.slice(at))) return undefined;
  if ('tools_hash' in point && typeof point.tools_hash !== 'string') return undefined;
  const advisories = point.advisories;
  // An empty list is never written (a point without advisories has no member): kept as read, it stays as read.
  const listed = Array.isArray(advisories) && advisories.length > 0 && advisories.every((id) => typeof id === 'string');
  if ('advisories' in point && !listed) return undefined;
  return keys.slice(0, at);
}

type Extras = Pick<ScoredPoint, 'tools_hash' | 'advisories'>;

/** The extras' columns, filled a point at a time while reading, then read by point index. */
export class ExtrasColumns {
  private readonly hashes = new Dictionary();
  private readonly ids = new Dictionary();
  private readonly hashOf: number[] = [];
  private readonly idsEnd: number[] = [];
  private readonly idCodes: number[] = [];
  private seen = false;
  // Once read: a tools hash's code plus one (0: none), and where each point's advisory codes end.
  private hashColumn: Uint32Array | undefined;
  private endColumn: Uint32Array | undefined;
  private codeColumn = new Uint32Array(0);

  /** The next point's extras (none for a removal). */
  add(point: Extras | undefined): void {
    this.hashOf.push(point?.tools_hash === undefined ? 0 : this.hashes.code(point.tools_hash) + 1);
    for (const id of point?.advisories ?? []) this.idCodes.push(this.ids.code(id));
    this.idsEnd.push(this.idCodes.length);
    if (point?.tools_hash !== undefined || point?.advisories !== undefined) this.seen = true;
  }

  /** Every point is added: keep the columns typed, or none when no point had extras. */
  finish(): void {
    if (this.seen) {
      this.hashColumn = Uint32Array.from(this.hashOf);
      this.endColumn = Uint32Array.from(this.idsEnd);
      this.codeColumn = Uint32Array.from(this.idCodes);
    }
    this.hashOf.length = 0;
    this.idsEnd.length = 0;
    this.idCodes.length = 0;
  }

  /** The codes of point `p`'s advisories; undefined when it has none. */
  private codes(p: number): Uint32Array | undefined {
    const ends = this.endColumn;
    if (ends === undefined) return undefined;
    const start = p === 0 ? 0 : ends[p - 1]!;
    return start === ends[p] ? undefined : this.codeColumn.subarray(start, ends[p]);
  }

  /** Point `p`'s extras as members, in the order the build writes them, absent when it has none. */
  of(p: number): Extras {
    const hash = this.hashColumn?.[p] ?? 0;
    const codes = this.codes(p);
    return {
      ...(hash === 0 ? {} : { tools_hash: this.hashes.values[hash - 1]! }),
      ...(codes === undefined ? {} : { advisories: Array.from(codes, (code) => this.ids.values[code]!) }),
    };
  }

  /** Whether points `a` and `b` carry the same extras. */
  same(a: number, b: number): boolean {
    if ((this.hashColumn?.[a] ?? 0) !== (this.hashColumn?.[b] ?? 0)) return false;
    const x = this.codes(a);
    const y = this.codes(b);
    if (x === undefined || y === undefined) return x === y;
    return x.length === y.length && x.every((code, i) => code === y[i]);
  }
}
