/**
 * `npx tsx scripts/evaluation-set.ts --docker <git dir> --servers <git dir>`: writes the curated half of the
 * evaluation set (`test/fixtures/evaluation/curated.json`) from local clones of Docker's MCP Catalog
 * (`docker/mcp-registry`) and the MCP reference servers (`modelcontextprotocol/servers`): each server as the
 * configuration entry a user writes for it. Run by hand; the tests read only the file it writes. The
 * known-bad half (`known-bad.json`) is written by hand from the advisories it cites.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../src/errors/operator-error.js';
import {
  type CuratedList,
  type CuratedServer,
  readDockerCatalog,
  readReferenceServers,
} from './lib/curated-catalogs.js';
import { runMain } from './lib/main.js';

const USAGE =
  'usage: npx tsx scripts/evaluation-set.ts --docker <docker/mcp-registry git dir> --servers <modelcontextprotocol/servers git dir>';
const OUT = path.join('test', 'fixtures', 'evaluation', 'curated.json');

interface EvaluationEntry {
  source: string;
  name: string;
  entry: { command: string; args: string[] } | { url: string };
}

const PREFIX: Record<CuratedServer['source'], string> = {
  'docker-mcp-catalog': 'docker',
  'mcp-reference-servers': 'mcp',
};

/** The configuration entry a user writes for a curated server. */
function toEntry(server: CuratedServer): EvaluationEntry | undefined {
  const name = `${PREFIX[server.source]}:${server.id}`;
  if (server.remoteUrl) return { source: server.source, name, entry: { url: server.remoteUrl } };
  if (server.image)
    return { source: server.source, name, entry: { command: 'docker', args: ['run', '-i', '--rm', server.image] } };
  if (server.package?.registryType === 'npm')
    return { source: server.source, name, entry: { command: 'npx', args: ['-y', server.package.identifier] } };
  if (server.package?.registryType === 'pypi')
    return { source: server.source, name, entry: { command: 'uvx', args: [server.package.identifier] } };
  return undefined;
}

function entries(list: CuratedList): { commit: string; entries: EvaluationEntry[] } {
  return { commit: list.commit, entries: list.servers.flatMap((s) => toEntry(s) ?? []) };
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
  const docker = entries(readDockerCatalog(values.docker));
  const reference = entries(readReferenceServers(values.servers));
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
