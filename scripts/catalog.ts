/**
 * `npx tsx scripts/catalog.ts --docker <git dir> --servers <git dir>`: writes the committed catalog dataset
 * (`data/catalog/servers.json`) from local clones of Docker's MCP Catalog (`docker/mcp-registry`) and the MCP
 * reference servers (`modelcontextprotocol/servers`): each server with the name it has here
 * (`catalog:docker/<id>`, `catalog:reference/<id>`: the `:` is a character the registry's name pattern forbids,
 * so no registry name can ever equal one) and the facts its curator declares. Run by hand; the build reads only
 * the file it writes. Re-running it on the same clones gives a byte-identical file.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../src/errors/operator-error.js';
import { CatalogFileSchema } from '../src/model/catalog.js';
import {
  type CuratedList,
  type CuratedServer,
  readDockerCatalog,
  readReferenceServers,
} from './lib/curated-catalogs.js';
import { runMain } from './lib/main.js';

const USAGE =
  'usage: npx tsx scripts/catalog.ts --docker <docker/mcp-registry git dir> --servers <modelcontextprotocol/servers git dir>';
const OUT = path.join('data', 'catalog', 'servers.json');

/** The namespace of each curated list: `catalog:` plus the curator; never a valid registry namespace. */
export const CATALOG_NAMESPACE: Record<CuratedServer['source'], string> = {
  'docker-mcp-catalog': 'catalog:docker',
  'mcp-reference-servers': 'catalog:reference',
};

const source = (list: CuratedList, id: CuratedServer['source'], repository: string, licence: string) => ({
  source: id,
  repository,
  commit: list.commit,
  date: list.date,
  licence,
});

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { docker: { type: 'string' }, servers: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.docker || !values.servers) throw new UsageError(`catalog: both folders are needed\n${USAGE}`);
  const docker = readDockerCatalog(values.docker);
  const reference = readReferenceServers(values.servers);
  const servers = [...reference.servers, ...docker.servers]
    .map((server) => ({ name: `${CATALOG_NAMESPACE[server.source]}/${server.id.toLowerCase()}`, ...server }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const dataset = CatalogFileSchema.parse({
    sources: [
      source(docker, 'docker-mcp-catalog', 'docker/mcp-registry', 'MIT'),
      source(reference, 'mcp-reference-servers', 'modelcontextprotocol/servers', 'MIT / Apache-2.0'),
    ],
    servers,
  });
  const lines = servers.map((s) => `    ${JSON.stringify(s)}`).join(',\n');
  const head = JSON.stringify({ sources: dataset.sources }, null, 2).replace(/\n}$/, '');
  writeFileSync(OUT, `${head},\n  "servers": [\n${lines}\n  ]\n}\n`);
  console.log(
    `wrote ${OUT}: ${reference.servers.length} reference servers, ${docker.servers.length} Docker catalog servers`,
  );
  return 0;
}

runMain(main);
