/** The statistics record (specification §2.3), computed once at build time. */
import { isCatalogName } from '../model/catalog.js';
import { TRUST_LABELS, type IndexedRecord, type Stats } from '../model/schema.js';

/**
 * The statistics of `all`: the specification's members over the scored servers (registry records, with the
 * catalog listings they carry), and the servers only a curator's catalog lists counted apart
 * (`catalog_only_servers`, `StatsSchema`).
 */
export function computeStats(all: readonly IndexedRecord[]): Stats {
  const records = all.filter((record) => !isCatalogName(record.name));
  const catalogOnly = all.length - records.length;
  const scores = records.map((record) => record.trust_score).sort((a, b) => a - b);
  const total = scores.length;
  const sum = scores.reduce((acc, score) => acc + score, 0);
  const middle = Math.floor(total / 2);
  const median = total === 0 ? 0 : total % 2 === 1 ? scores[middle]! : (scores[middle - 1]! + scores[middle]!) / 2;

  // Every band is listed, empty ones with 0, so a client never has to guess whether a label exists.
  const distribution: Record<string, number> = Object.fromEntries(TRUST_LABELS.map((label) => [label, 0]));
  const flags = new Map<string, number>();
  const targets = new Map<string, number>();
  let verified = 0;
  for (const record of records) {
    distribution[record.trust_label] = (distribution[record.trust_label] ?? 0) + 1;
    for (const flag of record.flags) flags.set(flag, (flags.get(flag) ?? 0) + 1);
    for (const target of record.targets) targets.set(target, (targets.get(target) ?? 0) + 1);
    if (record.verified_publisher) verified++;
  }
  // Most common first; equal counts by name, so the order is stable from build to build.
  const summary = (counts: Map<string, number>) =>
    Object.fromEntries([...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)));

  return {
    total_servers: total,
    average_score: total === 0 ? 0 : Math.round((sum / total) * 100) / 100,
    median_score: median,
    score_distribution: distribution,
    flag_summary: summary(flags),
    verified_publishers: verified,
    target_summary: summary(targets),
    catalog_only_servers: catalogOnly,
  };
}
