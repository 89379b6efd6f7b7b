/**
 * `npx tsx scripts/catalog.ts --docker <git dir> --reference <git dir> --out data/catalog/servers.json`:
 * the servers of Docker's MCP Catalog (`docker/mcp-registry`) and the MCP reference servers
 * (`modelcontextprotocol/servers`), read from local git checkouts (bare or not) at their HEAD with
 * `git show`, cut to what `src/model/catalog.ts` keeps. The archived reference servers' manifests are read
 * from the reference repository's history, at the parent of the commit that removed them. Run by hand;
 * data/README.md names the commits. Entries that cannot make a valid server are named and left out.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { catalogRecords } from '../src/catalog/catalog-records.js';
import {
  dockerCatalogServer,
  manifestPackage,
  readmeServers,
  referenceServer,
  type CatalogEntryResult,
  type ReferencePackage,
} from '../src/catalog/read-catalogs.js';
import { UsageError } from '../src/errors/operator-error.js';
import { CatalogFileSchema, type CatalogServer } from '../src/model/catalog.js';
import { runMain } from './lib/main.js';

const USAGE =
  'usage: npx tsx scripts/catalog.ts --docker <git dir> --reference <git dir> --out <file>' +
  ' [--registry-records data/servers.json --records-out data/catalog-records.json]';
const GIT_OUTPUT_LIMIT = 16 * 1024 * 1024;

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    maxBuffer: GIT_OUTPUT_LIMIT,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

function gitFile(gitDir: string, revision: string, path: string): string | null {
  try {
    return git(gitDir, 'show', `${revision}:${path}`);
  } catch {
    return null;
  }
}

function head(gitDir: string): { commit: string; committed_at: string } {
  const [commit = '', time = ''] = git(gitDir, 'log', '-1', '--format=%H %cI', 'HEAD').trim().split(' ');
  return { commit, committed_at: new Date(time).toISOString().replace('.000Z', 'Z') };
}

function packageAt(gitDir: string, revision: string, folder: string): ReferencePackage | null {
  const packageJson = gitFile(gitDir, revision, `src/${folder}/package.json`);
  if (packageJson !== null) return manifestPackage('package.json', packageJson);
  const pyproject = gitFile(gitDir, revision, `src/${folder}/pyproject.toml`);
  return pyproject === null ? null : manifestPackage('pyproject.toml', pyproject);
}

/** The revision before the commit that deleted a folder's manifest: where an archived server last lived. */
function lastRevisionWith(gitDir: string, folder: string): string | null {
  for (const manifest of ['package.json', 'pyproject.toml']) {
    const removed = git(
      gitDir,
      'log',
      '-1',
      '--format=%H',
      '--diff-filter=D',
      'HEAD',
      '--',
      `src/${folder}/${manifest}`,
    ).trim();
    if (removed !== '') return `${removed}^`;
  }
  return null;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      docker: { type: 'string' },
      reference: { type: 'string' },
      out: { type: 'string' },
      'registry-records': { type: 'string' },
      'records-out': { type: 'string' },
    },
  });
  if (values.docker === undefined || values.reference === undefined || values.out === undefined) {
    throw new UsageError(USAGE);
  }
  const results: CatalogEntryResult[] = [];
  for (const line of git(values.docker, 'ls-tree', '--name-only', 'HEAD', 'servers/').split('\n')) {
    const folder = line.trim().replace(/^servers\//, '');
    if (folder === '') continue;
    const yaml = gitFile(values.docker, 'HEAD', `servers/${folder}/server.yaml`);
    results.push(yaml === null ? { skipped: `servers/${folder}: no server.yaml` } : dockerCatalogServer(folder, yaml));
  }
  const readme = gitFile(values.reference, 'HEAD', 'README.md') ?? '';
  for (const item of readmeServers(readme)) {
    const revision = item.archived ? lastRevisionWith(values.reference, item.folder) : 'HEAD';
    results.push(referenceServer(item, revision === null ? null : packageAt(values.reference, revision, item.folder)));
  }
  const servers: CatalogServer[] = [];
  for (const result of results) {
    if ('server' in result) servers.push(result.server);
    else console.error(`left out: ${result.skipped}`);
  }
  servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const file = CatalogFileSchema.parse({
    sources: [
      {
        catalog: 'docker',
        repository: 'https://github.com/docker/mcp-registry',
        ...head(values.docker),
        licence: 'MIT',
      },
      {
        catalog: 'reference',
        repository: 'https://github.com/modelcontextprotocol/servers',
        ...head(values.reference),
        licence: 'MIT and Apache-2.0 (relicensing in progress)',
      },
    ],
    servers,
  });
  writeAtomically(
    values.out,
    `{"sources":${JSON.stringify(file.sources)},\n"servers":[\n${file.servers.map((s) => JSON.stringify(s)).join(',\n')}\n]}\n`,
  );
  console.log(
    `${file.servers.length} catalog servers written to ${values.out} (${results.length - servers.length} left out)`,
  );
  if (values['registry-records'] !== undefined && values['records-out'] !== undefined) {
    const registry = RegistryIdentitiesSchema.parse(JSON.parse(readFileSync(values['registry-records'], 'utf8')));
    const { records, matches } = catalogRecords(file, registry);
    writeAtomically(values['records-out'], `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
    const by = (kind: string) => matches.filter((m) => m.by === kind).length;
    console.log(
      `${records.length} catalog-only records written to ${values['records-out']}; ${matches.length} catalog servers are registry records ` +
        `(by package ${by('package')}, remote ${by('remote')}, repository ${by('repository')})`,
    );
  }
}

/** What the matching reads of each registry record; the rest of the record is not checked here. */
const RegistryIdentitiesSchema = z.array(
  z.looseObject({
    name: z.string(),
    packages: z.array(z.looseObject({ registry_type: z.string(), identifier: z.string() })).optional(),
    remotes: z.array(z.looseObject({ type: z.string(), url: z.string() })).optional(),
    install: z.looseObject({ repo_url: z.string().nullable() }),
  }),
);

function writeAtomically(file: string, text: string): void {
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

runMain(main);
