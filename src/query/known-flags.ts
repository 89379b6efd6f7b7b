/**
 * The flags a served snapshot knows: every flag of the vocabulary and every flag its statistics count, read
 * once per loaded snapshot (the statistics are ready as soon as it opens).
 */
import { VOCABULARY_FLAGS } from '../model/flag-names.js';
import type { QueryEngine } from './types.js';

const known = new WeakMap<QueryEngine, ReadonlySet<string>>();

export function knownFlags(engine: QueryEngine): ReadonlySet<string> {
  let flags = known.get(engine);
  if (flags === undefined) {
    const stats = JSON.parse(engine.statsJson()) as { flag_summary?: Record<string, number> };
    flags = new Set([...VOCABULARY_FLAGS, ...Object.keys(stats.flag_summary ?? {}).map((flag) => flag.toUpperCase())]);
    known.set(engine, flags);
  }
  return flags;
}
