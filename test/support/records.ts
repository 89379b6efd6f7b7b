/** Test helpers: valid records with sensible defaults, and snapshots built from them in temp folders. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labelForScore, type ServerRecord } from '../../src/schema.js';
import { writeSnapshot } from '../../src/snapshot/build.js';

/** A valid record; `trust_label` follows `trust_score` unless given. */
export function makeRecord(overrides: Partial<ServerRecord> & { name: string }): ServerRecord {
  const trustScore = overrides.trust_score ?? 50;
  return {
    trust_score: trustScore,
    trust_label: labelForScore(trustScore),
    scores: { provenance: 50, maintenance: 50, popularity: 50, permissions: 50 },
    flags: [],
    badges: [],
    verified_publisher: false,
    targets: [],
    scored_at: '2026-02-21T22:49:33.106Z',
    install: { repo_url: null, version: null, package_types: [], transport_types: [] },
    ...overrides,
  };
}

/** Build a snapshot of `records` in a fresh temp folder and return the folder. */
export async function buildTestSnapshot(records: readonly unknown[]): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'mts-snapshot-')), 'snapshot');
  await writeSnapshot(records, dir, { now: new Date('2026-03-01T00:00:00.000Z') });
  return dir;
}
