/**
 * `npx tsx scripts/search-queries-set.ts --docker <git dir> [--commit <sha>]`: writes the name queries that
 * measure search (`test/fixtures/search/name-queries.json`) from a local clone of Docker's MCP Catalog
 * (`docker/mcp-registry`). Each catalog server gives what a person types for it (its title, its catalog name);
 * the answers expected are the servers of `data/servers.json` whose repository is the catalog's source project
 * (ground truth by repository, never by name). The servers are split into a tuning half and a held-out half by
 * a hash of the catalog name, before any search is run. Run by hand; the test reads only the file it writes.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { UsageError } from '../src/errors/operator-error.js';
import { runMain } from './lib/main.js';

const USAGE = 'usage: npx tsx scripts/search-queries-set.ts --docker <docker/mcp-registry git dir> [--commit <sha>]';
const OUT = path.join('test', 'fixtures', 'search', 'name-queries.json');
const DATASET = path.join('data', 'servers.json');

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

const CatalogEntrySchema = z.looseObject({
  name: z.string().min(1),
  about: z.looseObject({ title: z.string().min(1).optional() }).optional(),
  source: z.looseObject({ project: z.string().min(1) }).optional(),
});

const DatasetSchema = z.array(
  z.looseObject({ name: z.string().min(1), install: z.looseObject({ repo_url: z.string().nullish() }).optional() }),
);

/** A repository URL as `host/owner/repo`, lower-cased, without `.git`, a trailing slash or a path inside it. */
export function repositoryKey(url: string): string | undefined {
  const match = /^https?:\/\/(?:www\.)?([^/]+)\/([^/]+)\/([^/#?]+)/i.exec(url.trim());
  if (!match) return undefined;
  return `${match[1]}/${match[2]}/${match[3]!.replace(/\.git$/i, '')}`.toLowerCase();
}

/** The half a catalog server belongs to: the first byte of its name's SHA-256, even or odd. */
const halfOf = (name: string): 'tuning' | 'held-out' =>
  createHash('sha256').update(name).digest()[0]! % 2 === 0 ? 'tuning' : 'held-out';

interface NameQuery {
  half: 'tuning' | 'held-out';
  catalog: string;
  query: string;
  repository: string;
  expected: string[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { docker: { type: 'string' }, commit: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.docker) throw new UsageError(`search-queries-set: the catalog's folder is needed\n${USAGE}`);
  const dir = values.docker;
  const commit = git(dir, 'rev-parse', `${values.commit ?? 'HEAD'}^{commit}`).trim();

  const byRepository = new Map<string, string[]>();
  for (const record of DatasetSchema.parse(JSON.parse(readFileSync(DATASET, 'utf8')))) {
    const url = record.install?.repo_url;
    const key = url === undefined || url === null ? undefined : repositoryKey(url);
    if (key === undefined) continue;
    byRepository.set(key, [...(byRepository.get(key) ?? []), record.name]);
  }

  const queries: NameQuery[] = [];
  let withoutMatch = 0;
  for (const folder of git(dir, 'ls-tree', '--name-only', `${commit}:servers`).trim().split('\n')) {
    const parsed = CatalogEntrySchema.safeParse(parseYaml(git(dir, 'show', `${commit}:servers/${folder}/server.yaml`)));
    if (!parsed.success) {
      console.error(`search-queries-set: servers/${folder}/server.yaml left out: ${parsed.error.issues[0]?.message}`);
      continue;
    }
    const server = parsed.data;
    const repository = server.source === undefined ? undefined : repositoryKey(server.source.project);
    const expected = repository === undefined ? undefined : byRepository.get(repository);
    if (repository === undefined || expected === undefined) {
      withoutMatch++;
      continue;
    }
    // What a person types: the title, and the catalog name when it is not the same words.
    const typed = [server.about?.title, server.name].filter((text): text is string => text !== undefined);
    const seen = new Set<string>();
    for (const query of typed) {
      const words = query
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      if (words.length < 2 || seen.has(words)) continue;
      seen.add(words);
      queries.push({ half: halfOf(server.name), catalog: server.name, query, repository, expected: expected.sort() });
    }
  }
  const set = {
    source: { repository: 'docker/mcp-registry', commit, licence: 'MIT', dataset: DATASET },
    queries,
  };
  writeFileSync(OUT, `${JSON.stringify(set, null, 2)}\n`);
  const half = (name: string) => queries.filter((query) => query.half === name).length;
  console.log(
    `wrote ${OUT}: ${queries.length} queries (${half('tuning')} tuning, ${half('held-out')} held-out); ` +
      `${withoutMatch} catalog servers have no registry server with their repository`,
  );
  return 0;
}

runMain(main);
