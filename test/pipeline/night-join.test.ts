import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RegistryDumpSchema, type ScorecardIndex } from '../../src/dataset/inputs.js';
import { joinDatasets } from '../../src/dataset/join.js';
import { importRegistryEntries } from '../../src/dataset/registry.js';
import type { CollectedEntry } from '../../src/pipeline/collect.js';
import { EntryFile } from '../../src/pipeline/entry-file.js';
import { joinNight, mergeByName } from '../../src/pipeline/night-join.js';
import { factsFromServer } from '../../src/scoring/facts.js';
import { flagContext } from '../../src/scoring/flags.js';
import { scoreServer } from '../../src/scoring/score.js';
import { makeTempDir } from '../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const AS_OF = '2026-06-01T00:00:00Z';

/** The committed registry entries, and poisoned ones of each kind the join leaves out. */
function collectedEntries(): CollectedEntry[] {
  const committed = JSON.parse(readFileSync(path.join(ROOT, 'data/registry/servers.json'), 'utf8')) as CollectedEntry[];
  const some = committed.slice(0, 300);
  const poisoned = structuredClone(some.slice(0, 4));
  poisoned[0]!.server.name = 'io.github.poison/long-remote';
  poisoned[0]!.server.remotes = [{ type: 'streamable-http', url: `https://example.com/${'a'.repeat(600)}` }];
  poisoned[1]!.server.name = some[5]!.server.name.toUpperCase();
  poisoned[2]!.server.name = 'io.github.poison/..';
  poisoned[3]!.server.name = 'io.github.poison/many-remotes';
  poisoned[3]!.server.remotes = Array.from({ length: 65 }, (_, i) => ({ type: 'sse', url: `https://e.com/${i}` }));
  const all = [...some, ...poisoned];
  return all.sort((a, b) => (a.server.name < b.server.name ? -1 : a.server.name > b.server.name ? 1 : 0));
}

function scorecardOf(entries: readonly CollectedEntry[]): ScorecardIndex {
  const context = flagContext(entries.map((entry) => factsFromServer(entry.server)));
  const servers: ScorecardIndex['servers'] = {};
  for (const entry of entries)
    servers[entry.server.name] = scoreServer(factsFromServer(entry.server), null, context, AS_OF);
  return { generated_at: AS_OF, servers };
}

describe('the night join, a server at a time', () => {
  it('makes the records, the left-out servers and the feed that the join of the whole registry makes', async () => {
    const entries = collectedEntries();
    const scorecard = scorecardOf(entries);
    const whole = joinDatasets(scorecard, RegistryDumpSchema.parse(entries));
    const feed = importRegistryEntries(
      whole.records.map((record) => record.name),
      RegistryDumpSchema.parse(entries),
      entries,
    );
    const file = EntryFile.write(await makeTempDir('night-join-'), entries);
    try {
      const night = joinNight(file, scorecard);
      expect(whole.leftOut.length).toBeGreaterThanOrEqual(4);
      expect(night.leftOut).toEqual(whole.leftOut);
      expect(night.names).toEqual(whole.records.map((record) => record.name));
      expect(night.flagged).toBe(whole.records.filter((record) => record.flags.length > 0).length);
      expect(JSON.stringify([...night.records()])).toBe(JSON.stringify(whole.records));
      // Made anew on each reading, the same each time.
      expect(JSON.stringify([...night.records()])).toBe(JSON.stringify(whole.records));
      const made = night.feed();
      expect(JSON.stringify([...made.entries])).toBe(JSON.stringify(feed.entries));
      expect(made.refused()).toBe(feed.refused.length);
    } finally {
      file.remove();
    }
  });

  it('merges a few records into the name order as a stable sort of both would', () => {
    const a = [
      { name: 'b', from: 'a' },
      { name: 'd', from: 'a' },
      { name: 'f', from: 'a' },
    ];
    const b = [
      { name: 'g', from: 'b' },
      { name: 'a', from: 'b' },
      { name: 'd', from: 'b' },
    ];
    const sorted = [...a, ...b].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    expect([...mergeByName(a, b)]).toEqual(sorted);
  });
});

describe('the entry file', () => {
  it('gives every entry back as it was given, by index and in order, and is removed', async () => {
    const dir = await makeTempDir('entry-file-');
    const entries = collectedEntries();
    const file = EntryFile.write(dir, entries);
    expect(file.size).toBe(entries.length);
    expect(file.names).toEqual(entries.map((entry) => entry.server.name));
    expect(JSON.stringify(file.get(7))).toBe(JSON.stringify(entries[7]));
    expect(JSON.stringify([...file])).toBe(JSON.stringify(entries));
    file.remove();
    expect(existsSync(path.join(dir, 'night-entries.jsonl'))).toBe(false);
  });
});
