/**
 * `npx tsx scripts/search-queries-set.ts --docker <git dir> [--commit <sha>]` or `--official <git dir> --commit
 * <sha>` or `--community <git dir> --commit <sha>`: writes the name queries that measure search from a local
 * clone of a curated list. `--docker`: Docker's
 * MCP Catalog (`docker/mcp-registry`), each catalog server giving its title and its catalog name, written to
 * `test/fixtures/search/name-queries.json`. `--official`: the "Official Integrations" list of the MCP servers
 * repository's README (`modelcontextprotocol/servers`, before the list was retired), each entry giving its
 * listed name, written to `test/fixtures/search/name-queries-official.json`. `--community`: the same README's
 * "Community Servers" list, alike, written to `test/fixtures/search/name-queries-community.json`; where it
 * lists one name for several servers, a query for that name expects any of them. The answers expected are the
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
import { answerEntries, mergeSameNames } from './lib/curated-answers.js';
import { runMain } from './lib/main.js';

const USAGE =
  'usage: npx tsx scripts/search-queries-set.ts (--docker <docker/mcp-registry git dir> | ' +
  '--official <modelcontextprotocol/servers git dir> | --community <modelcontextprotocol/servers git dir>) ' +
  '[--commit <sha>]';
const FIXTURES = path.join('test', 'fixtures', 'search');
const DATASET = path.join('data', 'servers.json');
const REGISTRY = path.join('data', 'registry', 'servers.json');

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

const RegistrySchema = z.array(
  z.looseObject({
    server: z.looseObject({
      name: z.string().min(1),
      repository: z.looseObject({ subfolder: z.string().optional() }).optional(),
    }),
  }),
);

/** The half a curated server belongs to: the first byte of its curator's name's SHA-256, even or odd. */
const halfOf = (name: string): 'tuning' | 'held-out' =>
  createHash('sha256').update(name).digest()[0]! % 2 === 0 ? 'tuning' : 'held-out';

/** One entry as a curator lists it: its name for the server, what a person types for it, the link it gives. */
interface Entry {
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

function dockerCatalog(dir: string, commit: string): Entry[] {
  const listed: Entry[] = [];
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

/** The entries of the README list headed `heading` (a `###` heading of the Third-Party Servers section). */
function readmeList(dir: string, commit: string, heading: RegExp): Entry[] {
  const readme = git(dir, 'show', `${commit}:README.md`).split('\n');
  const start = readme.findIndex((line) => heading.test(line));
  if (start < 0)
    throw new UsageError(`search-queries-set: README.md at ${commit} has no list headed ${heading.source}`);
  const end = readme.findIndex((line, index) => index > start && /^#{2,3} /.test(line));
  const listed: Entry[] = [];
  for (const line of readme.slice(start + 1, end < 0 ? undefined : end)) {
    const entry = LIST_ENTRY.exec(line);
    if (entry) listed.push({ catalog: entry[1]!.trim(), typed: [entry[1]!.trim()], project: entry[2]! });
  }
  return listed;
}

const officialIntegrations = (dir: string, commit: string) => readmeList(dir, commit, /^### .*Official Integrations/);
const communityServers = (dir: string, commit: string) => readmeList(dir, commit, /^### .*Community Servers/);

const README_LICENCE = 'CC-BY-4.0 (documentation) and MIT';

/** Each list: where it comes from, under which licence, the file it is written to, and how it is read. */
const LISTS = {
  docker: { repository: 'docker/mcp-registry', licence: 'MIT', out: 'name-queries.json', list: dockerCatalog },
  official: {
    repository: 'modelcontextprotocol/servers',
    licence: README_LICENCE,
    out: 'name-queries-official.json',
    list: officialIntegrations,
  },
  community: {
    repository: 'modelcontextprotocol/servers',
    licence: README_LICENCE,
    out: 'name-queries-community.json',
    list: communityServers,
  },
} as const;
const LIST_NAMES = ['docker', 'official', 'community'] as const;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      docker: { type: 'string' },
      official: { type: 'string' },
      community: { type: 'string' },
      commit: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const chosen = LIST_NAMES.filter((name) => values[name] !== undefined);
  if (chosen.length !== 1) throw new UsageError(`search-queries-set: one list's folder is needed\n${USAGE}`);
  const source = LISTS[chosen[0]!];
  const dir = values[chosen[0]!]!;
  const commit = git(dir, 'rev-parse', `${values.commit ?? 'HEAD'}^{commit}`).trim();

  const subfolderOf = new Map<string, string | undefined>();
  for (const { server } of RegistrySchema.parse(JSON.parse(readFileSync(REGISTRY, 'utf8'))))
    subfolderOf.set(server.name, server.repository?.subfolder);
  const servers = DatasetSchema.parse(JSON.parse(readFileSync(DATASET, 'utf8'))).map((record) => ({
    name: record.name,
    repoUrl: record.install?.repo_url ?? undefined,
    subfolder: subfolderOf.get(record.name),
  }));

  const listed = mergeSameNames(source.list(dir, commit));
  const answered = answerEntries(listed, servers);
  const queries: NameQuery[] = [];
  for (const { listed: server, repository, expected } of answered) {
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
        expected,
      });
    }
  }
  const out = path.join(FIXTURES, source.out);
  const set = { source: { repository: source.repository, commit, licence: source.licence, dataset: DATASET }, queries };
  writeFileSync(out, `${JSON.stringify(set, null, 2)}\n`);
  const half = (name: string) => queries.filter((query) => query.half === name).length;
  console.log(
    `wrote ${out}: ${queries.length} queries (${half('tuning')} tuning, ${half('held-out')} held-out); ` +
      `${listed.length - answered.length} of ${listed.length} listed names have no registry server with their repository`,
  );
  return 0;
}

runMain(main);
