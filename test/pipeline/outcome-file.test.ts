import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RepositoryOutcome } from '../../src/pipeline/github.js';
import { LineFile } from '../../src/pipeline/line-file.js';
import { OutcomeFile } from '../../src/pipeline/outcome-file.js';
import { makeTempDir } from '../support/temp.js';

const facts = (owner: string, stars: number) => ({
  owner,
  repository: {
    stars,
    forks: null,
    watchers: 2,
    archived: false,
    spdxId: 'MIT',
    createdAt: '2024-01-01T00:00:00Z',
    pushedAt: null,
  },
  community: { hasSecurityPolicy: true, hasCodeOfConduct: false },
  participation: { all: [3, 0, 1], owner: [1, 0, 0] },
});

describe('the GitHub outcomes kept on disk for the rest of the night', () => {
  it('gives back each outcome by its key as it was written, nothing for another key, and counts as it writes', async () => {
    const dir = await makeTempDir('outcomes-');
    const outcomes = new Map<string, RepositoryOutcome>([
      ['a/one', { enriched: true, facts: facts('A', 5), notFound: false, unchanged: true }],
      ['b/two', { enriched: false, facts: null, notFound: false, unchanged: false, reason: 'GitHub answered “é” 500' }],
      ['c/three', { enriched: true, facts: null, notFound: true, unchanged: false }],
    ]);
    const seen: RepositoryOutcome[] = [];
    const file = OutcomeFile.write(dir, outcomes, (outcome) => seen.push(outcome));
    outcomes.forEach((outcome, key) => expect(file.get(key)).toEqual(outcome));
    expect(file.get('b/two')).toEqual(outcomes.get('b/two'));
    expect(file.get('A/one')).toBeUndefined();
    expect(file.size).toBe(3);
    expect(seen).toEqual([...outcomes.values()]);
    expect(readdirSync(dir)).toEqual(['night-outcomes.jsonl']);
    file.remove();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves no file when the values are not as many as announced', async () => {
    const dir = await makeTempDir('outcomes-');
    const file = path.join(dir, 'values.jsonl');
    expect(() => LineFile.write(file, 3, [1, 2])).toThrow(/2 values, not the 3 announced/);
    expect(() => LineFile.write(file, 1, [1, 2])).toThrow(/more than the 1 values announced/);
    expect(existsSync(file)).toBe(false);
  });
});
