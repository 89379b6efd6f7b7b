/**
 * Two snapshots built with the project's build, the second with `previous` (as a republish makes it), whose
 * changes are known: the events a dispatcher must send for them, server by server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSnapshotWithDiff } from '../../src/snapshot-build/build.js';
import { labelForScore, type ServerRecord } from '../../src/model/schema.js';
import { makeRecord } from '../support/records.js';

const scored = (name: string, score: number, extra: Partial<ServerRecord> = {}) =>
  makeRecord({ name, trust_score: score, trust_label: labelForScore(score), ...extra });

export const SNAPSHOT_A: ServerRecord[] = [
  scored('io.github.acme/alpha', 80),
  scored('io.github.acme/beta', 60),
  scored('io.github.acme/gamma', 70),
  scored('com.example/delta', 55, {
    flags: ['NO_SOURCE'],
    packages: [{ registry_type: 'npm', identifier: '@example/delta', version: '1.0.0' }],
  }),
  scored('com.example/epsilon', 50, {
    packages: [{ registry_type: 'npm', identifier: '@example/epsilon', version: '3.0.0' }],
    remotes: [{ type: 'streamable-http', url: 'https://epsilon.example.com/mcp' }],
  }),
  scored('org.sample/zeta', 65, { packages: [{ registry_type: 'pypi', identifier: 'zeta-mcp', version: '2.0' }] }),
];

/** alpha: 80 → 45 (score and label); beta: 60 → 62; gamma: a flag raised; delta: its flag cleared; epsilon removed. */
export const SNAPSHOT_B: ServerRecord[] = [
  scored('io.github.acme/alpha', 45),
  scored('io.github.acme/beta', 62),
  scored('io.github.acme/gamma', 70, { flags: ['SENSITIVE_CRED_REQUEST'] }),
  scored('com.example/delta', 55, {
    packages: [{ registry_type: 'npm', identifier: '@example/delta', version: '1.0.0' }],
  }),
  scored('org.sample/zeta', 65, { packages: [{ registry_type: 'pypi', identifier: 'zeta-mcp', version: '2.0' }] }),
  scored('org.sample/newcomer', 30),
];

/** Every event of A → B, as `type server`. */
export const ALL_EVENTS = [
  'score.changed io.github.acme/alpha',
  'label.changed io.github.acme/alpha',
  'score.changed io.github.acme/beta',
  'flags.raised io.github.acme/gamma',
  'flags.cleared com.example/delta',
  'server.removed com.example/epsilon',
];

export interface BuiltSnapshots {
  a: string;
  b: string;
  remove(): Promise<void>;
}

export async function buildSnapshots(): Promise<BuiltSnapshots> {
  const work = await mkdtemp(path.join(tmpdir(), 'mts-notify-'));
  const write = async (name: string, records: ServerRecord[]) => {
    const file = path.join(work, `${name}.json`);
    await writeFile(file, JSON.stringify(records));
    return file;
  };
  const a = path.join(work, 'a');
  const b = path.join(work, 'b');
  // The snapshots' scores are set by hand (the changes above): built as given, not rescored with mts-2.
  const method = 'msc-7bc729d';
  await buildSnapshotWithDiff({ input: await write('a', SNAPSHOT_A), out: a, method });
  // A small dataset moves more than the guards' shares; a republish of it needs --force.
  await buildSnapshotWithDiff({ input: await write('b', SNAPSHOT_B), out: b, previous: a, force: true, method });
  return { a, b, remove: () => rm(work, { recursive: true, force: true }) };
}
