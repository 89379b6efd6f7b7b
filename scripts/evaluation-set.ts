/**
 * `npx tsx scripts/evaluation-set.ts --docker <git dir> --servers <git dir>`: writes the curated half of the
 * evaluation set (`test/fixtures/evaluation/curated.json`) from local clones of Docker's MCP Catalog
 * (`docker/mcp-registry`) and the MCP reference servers (`modelcontextprotocol/servers`): each server as the
 * configuration entry a user writes for it. Run by hand; the tests read only the file it writes. The
 * known-bad half (`known-bad.json`) is written by hand from the advisories it cites.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { UsageError } from '../src/errors/operator-error.js';
import { runMain } from './lib/main.js';

const USAGE =
  'usage: npx tsx scripts/evaluation-set.ts --docker <docker/mcp-registry git dir> --servers <modelcontextprotocol/servers git dir>';
const OUT = path.join('test', 'fixtures', 'evaluation', 'curated.json');

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

const CatalogEntrySchema = z.looseObject({
  name: z.string().min(1),
  type: z.enum(['server', 'remote', 'poci']),
  image: z.string().optional(),
  remote: z.looseObject({ url: z.string().url() }).optional(),
});

interface EvaluationEntry {
  source: string;
  name: string;
  entry: { command: string; args: string[] } | { url: string };
}

function dockerCatalog(dir: string): { commit: string; entries: EvaluationEntry[] } {
  const commit = git(dir, 'rev-parse', 'HEAD').trim();
  const entries: EvaluationEntry[] = [];
  for (const folder of git(dir, 'ls-tree', '--name-only', 'HEAD:servers').trim().split('\n')) {
    const parsed = CatalogEntrySchema.safeParse(parseYaml(git(dir, 'show', `HEAD:servers/${folder}/server.yaml`)));
    if (!parsed.success) {
      console.error(`evaluation-set: servers/${folder}/server.yaml left out: ${parsed.error.issues[0]?.message}`);
      continue;
    }
    const server = parsed.data;
    if (server.type === 'remote' && server.remote) {
      entries.push({ source: 'docker-mcp-catalog', name: `docker:${server.name}`, entry: { url: server.remote.url } });
    } else if (server.type === 'server' && server.image) {
      const entry = { command: 'docker', args: ['run', '-i', '--rm', server.image] };
      entries.push({ source: 'docker-mcp-catalog', name: `docker:${server.name}`, entry });
    }
  }
  return { commit, entries };
}

const PackageJsonSchema = z.looseObject({ name: z.string().min(1) });

function referenceServers(dir: string): { commit: string; entries: EvaluationEntry[] } {
  const commit = git(dir, 'rev-parse', 'HEAD').trim();
  const entries: EvaluationEntry[] = [];
  for (const folder of git(dir, 'ls-tree', '--name-only', 'HEAD:src').trim().split('\n')) {
    const files = git(dir, 'ls-tree', '--name-only', `HEAD:src/${folder}`).split('\n');
    if (files.includes('package.json')) {
      const { name } = PackageJsonSchema.parse(JSON.parse(git(dir, 'show', `HEAD:src/${folder}/package.json`)));
      entries.push({
        source: 'mcp-reference-servers',
        name: `mcp:${folder}`,
        entry: { command: 'npx', args: ['-y', name] },
      });
    } else if (files.includes('pyproject.toml')) {
      const match = /^name\s*=\s*"([^"]+)"/m.exec(git(dir, 'show', `HEAD:src/${folder}/pyproject.toml`));
      if (match)
        entries.push({
          source: 'mcp-reference-servers',
          name: `mcp:${folder}`,
          entry: { command: 'uvx', args: [match[1]!] },
        });
    }
  }
  return { commit, entries };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { docker: { type: 'string' }, servers: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.docker || !values.servers) throw new UsageError(`evaluation-set: both folders are needed\n${USAGE}`);
  const docker = dockerCatalog(values.docker);
  const reference = referenceServers(values.servers);
  const set = {
    sources: [
      { source: 'docker-mcp-catalog', repository: 'docker/mcp-registry', commit: docker.commit, licence: 'MIT' },
      {
        source: 'mcp-reference-servers',
        repository: 'modelcontextprotocol/servers',
        commit: reference.commit,
        licence: 'MIT / Apache-2.0',
      },
    ],
    entries: [...reference.entries, ...docker.entries],
  };
  writeFileSync(OUT, `${JSON.stringify(set, null, 2)}\n`);
  console.log(
    `wrote ${OUT}: ${reference.entries.length} reference servers, ${docker.entries.length} Docker catalog servers`,
  );
  return 0;
}

runMain(main);
