/**
 * `npx tsx scripts/search-queries-set.ts --docker <git dir> [--commit <sha>]` or `--official <git dir> --commit
 * <sha>`: writes the name queries that measure search from a local clone of a curated list. `--docker`: Docker's
 * MCP Catalog (`docker/mcp-registry`), each catalog server giving its title and its catalog name, written to
 * `test/fixtures/search/name-queries.json`. `--official`: the "Official Integrations" list of the MCP servers
 * repository's README (`modelcontextprotocol/servers`, before the list was retired), each entry giving its
 * listed name, written to `test/fixtures/search/name-queries-official.json`. The answers expected are the
 * servers of `data/servers.json` whose repository is the one the curator links (ground truth by repository,
 * never by name). The servers are split into a tuning half and a held-out half by a hash of the curator's name
 * for them, before any search is run. Run by hand; the test reads only the files it writes.
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

const USAGE =
  'usage: npx tsx scripts/search-queries-set.ts (--docker <docker/mcp-registry git dir> | ' +
  '--official <modelcontextprotocol/servers git dir>) [--commit <sha>]';
const FIXTURES = path.join('test', 'fixtures', 'search');
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

/** The half a curated server belongs to: the first byte of its curator's name's SHA-256, even or odd. */
const halfOf = (name: string): 'tuning' | 'held-out' =>
  createHash('sha256').update(name).digest()[0]! % 2 === 0 ? 'tuning' : 'held-out';

/** What a curator lists: its name for the server, what a person types for it, and the repository it links. */
interface Listed {
  catalog: string;
  typed: string[];
  project: string;
}

interface NameQuery {
  half: 'tuning' | 'held-out';
  catalog: string;
  query: string;
  repository: string;
  expected: string[];
}

function dockerCatalog(dir: string, commit: string): Listed[] {
  const listed: Listed[] = [];
  for (const folder of git(dir, 'ls-tree', '--name-only', `${commit}:servers`).trim().split('\n')) {
    const parsed = CatalogEntrySchema.safeParse(parseYaml(git(dir, 'show', `${commit}:servers/${folder}/server.yaml`)));
    if (!parsed.success) {
      console.error(`search-queries-set: servers/${folder}/server.yaml left out: ${parsed.error.issues[0]?.message}`);
      continue;
    }
    const server = parsed.data;
    if (server.source === undefined) continue;
    // What a person types: the title, and the catalog name.
    const typed = [server.about?.title, server.name].filter((text): text is string => text !== undefined);
    listed.push({ catalog: server.name, typed, project: server.source.project });
  }
  return listed;
}

/** An entry of the README's lists: `- <img …/> **[Name](https://…)** - what it does`. */
const LIST_ENTRY = /^- (?:<img [^>]*> )?\*\*\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)\*\*/;

function officialIntegrations(dir: string, commit: string): Listed[] {
  const readme = git(dir, 'show', `${commit}:README.md`).split('\n');
  const start = readme.findIndex((line) => /^### .*Official Integrations/.test(line));
  if (start < 0) throw new UsageError(`search-queries-set: README.md at ${commit} has no Official Integrations list`);
  const end = readme.findIndex((line, index) => index > start && /^#{2,3} /.test(line));
  const listed: Listed[] = [];
  for (const line of readme.slice(start + 1, end < 0 ? undefined : end)) {
    const entry = LIST_ENTRY.exec(line);
    if (entry) listed.push({ catalog: entry[1]!.trim(), typed: [entry[1]!.trim()], project: entry[2]! });
  }
  return listed;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      docker: { type: 'string' },
      official: { type: 'string' },
      commit: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const dir = values.docker ?? values.official;
  if (dir === undefined || (values.docker !== undefined && values.official !== undefined)) {
    throw new UsageError(`search-queries-set: one list's folder is needed\n${USAGE}`);
  }
  const commit = git(dir, 'rev-parse', `${values.commit ?? 'HEAD'}^{commit}`).trim();
  const source =
    values.docker !== undefined
      ? { repository: 'docker/mcp-registry', licence: 'MIT', out: 'name-queries.json', list: dockerCatalog }
      : {
          repository: 'modelcontextprotocol/servers',
          licence: 'CC-BY-4.0 (documentation) and MIT',
          out: 'name-queries-official.json',
          list: officialIntegrations,
        };

  const byRepository = new Map<string, string[]>();
  for (const record of DatasetSchema.parse(JSON.parse(readFileSync(DATASET, 'utf8')))) {
    const url = record.install?.repo_url;
    const key = url === undefined || url === null ? undefined : repositoryKey(url);
    if (key === undefined) continue;
    byRepository.set(key, [...(byRepository.get(key) ?? []), record.name]);
  }

  const queries: NameQuery[] = [];
  const listed = source.list(dir, commit);
  let withoutMatch = 0;
  const seenCatalog = new Set<string>();
  for (const server of listed) {
    const repository = repositoryKey(server.project);
    const expected = repository === undefined ? undefined : byRepository.get(repository);
    if (repository === undefined || expected === undefined || seenCatalog.has(server.catalog)) {
      withoutMatch++;
      continue;
    }
    seenCatalog.add(server.catalog);
    const seen = new Set<string>();
    for (const query of server.typed) {
      const words = query
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      if (words.length < 2 || seen.has(words)) continue;
      seen.add(words);
      queries.push({
        half: halfOf(server.catalog),
        catalog: server.catalog,
        query,
        repository,
        expected: expected.sort(),
      });
    }
  }
  const out = path.join(FIXTURES, source.out);
  const set = { source: { repository: source.repository, commit, licence: source.licence, dataset: DATASET }, queries };
  writeFileSync(out, `${JSON.stringify(set, null, 2)}\n`);
  const half = (name: string) => queries.filter((query) => query.half === name).length;
  console.log(
    `wrote ${out}: ${queries.length} queries (${half('tuning')} tuning, ${half('held-out')} held-out); ` +
      `${withoutMatch} of ${listed.length} listed servers have no registry server with their repository`,
  );
  return 0;
}

runMain(main);
