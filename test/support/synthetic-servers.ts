/**
 * A registry of any size for the rescoring's scale tests and benchmark: `count` servers, each one of the
 * committed registry entries (taken in turn, so the entries have the real mix of sizes, packages and remotes)
 * under a name of its own, with a GitHub repository of its own that the GitHub stand-in serves with statistics
 * ready. Deterministic: the same count gives the same servers and repositories.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { StandInRepository } from './github-standin.js';
import type { StandInEntry } from './registry-standin.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DAY_MS = 86_400_000;

let committed: StandInEntry[] | undefined;

/** The i-th synthetic server's GitHub owner and repository name. */
export const syntheticRepository = (i: number) => ({ owner: `synth-${i}`, name: `mcp-server-${i % 7}` });

export function syntheticServers(
  count: number,
  asOf = '2026-02-21T22:49:33Z',
): { entries: StandInEntry[]; repositories: StandInRepository[] } {
  committed ??= JSON.parse(readFileSync(path.join(ROOT, 'data/registry/servers.json'), 'utf8')) as StandInEntry[];
  const base = committed;
  const asOfMs = Date.parse(asOf);
  const entries: StandInEntry[] = [];
  const repositories: StandInRepository[] = [];
  for (let i = 0; i < count; i++) {
    const { owner, name } = syntheticRepository(i);
    const template = base[i % base.length]!;
    const entry = structuredClone(template);
    entry.server.name = `io.github.${owner}/${name}`;
    entry.server.repository = { url: `https://github.com/${owner}/${name}`, source: 'github' };
    entries.push(entry);
    const weeks = i % 53;
    repositories.push({
      owner,
      name,
      stars: (i * 37) % 5000,
      forks: (i * 11) % 400,
      watchers: (i * 5) % 90,
      archived: i % 41 === 0,
      spdxId: i % 5 === 0 ? null : 'MIT',
      createdAt: new Date(asOfMs - (20 + (i % 700)) * DAY_MS).toISOString().replace('.000Z', 'Z'),
      pushedAt: new Date(asOfMs - (i % 400) * DAY_MS).toISOString().replace('.000Z', 'Z'),
      hasCodeOfConduct: i % 3 === 0,
      participation: {
        all: Array.from({ length: 52 }, (_, week) => (week < weeks ? 1 + (i % 4) : 0)),
        owner: Array.from({ length: 52 }, (_, week) => (week < weeks ? 1 : 0)),
      },
    });
  }
  return { entries, repositories };
}
