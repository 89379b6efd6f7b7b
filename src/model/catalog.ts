/**
 * `data/catalog/servers.json`: the servers curated catalogs list (Docker's MCP Catalog, the MCP reference
 * servers), as those catalogs state them and nothing more. The build reads it; the server never does.
 *
 * Names: `catalog:<catalog>/<id>`. The registry's name pattern (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`) refuses
 * the `:`, while this project's ServerNameSchema accepts it, so a catalog name can never equal a registry
 * name, today or after the registry grows.
 */
import { z } from 'zod';
import { MAX_TEXT, isoUtc, serverName } from './fields.js';
import { PACKAGE_REGISTRIES } from './identifiers.js';

/** The catalogs read, each the namespace of its servers (`catalog:docker`, `catalog:reference`). */
export const CATALOGS = ['docker', 'reference'] as const;
export type CatalogName = (typeof CATALOGS)[number];

export const CATALOG_NAMESPACE_PREFIX = 'catalog:';
/** The id part of a catalog name: what both catalogs use for a server's folder. */
export const CATALOG_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;
export const MAX_CATALOG_SERVERS = 5000;
const MAX_CATALOG_TITLE = 200;

const Url = z
  .string()
  .max(500)
  .regex(/^https:\/\/[^\s]+$/, { error: 'must be an https URL without white space' });

export const CatalogPackageSchema = z.strictObject({
  registry_type: z.enum(PACKAGE_REGISTRIES),
  identifier: z.string().min(1).max(200),
});

export const CatalogRemoteSchema = z.strictObject({
  type: z.enum(['streamable-http', 'sse']),
  url: Url,
});

export const CatalogServerSchema = z
  .strictObject({
    name: serverName(),
    catalog: z.enum(CATALOGS),
    title: z.string().min(1).max(MAX_CATALOG_TITLE),
    description: z.string().max(MAX_TEXT).nullable(),
    category: z.string().max(64).nullable(),
    /** The source repository the catalog names (Docker's `source.project`; the reference servers' own). */
    repository: Url.nullable(),
    packages: z.array(CatalogPackageSchema).max(8),
    remotes: z.array(CatalogRemoteSchema).max(8),
    /** The catalog says the server signs in with OAuth (Docker's `oauth` member). */
    oauth: z.boolean(),
    /**
     * Docker builds and signs this server's image itself (`mcp/<id>` on Docker Hub): the one fact a curator
     * here verifies, provenance of that image, and only of it.
     */
    docker_built_image: z.boolean(),
    /** The reference servers that moved to `modelcontextprotocol/servers-archived`, no longer maintained. */
    archived: z.boolean(),
    /** Where in the catalog's repository the entry was read. */
    source_path: z.string().min(1).max(200),
  })
  .superRefine((server, context) => {
    const prefix = `${CATALOG_NAMESPACE_PREFIX}${server.catalog}/`;
    const id = server.name.slice(prefix.length);
    if (!server.name.startsWith(prefix) || !CATALOG_ID_PATTERN.test(id)) {
      context.addIssue({ code: 'custom', message: `a ${server.catalog} server is named ${prefix}<lower-case id>` });
    }
    if (
      server.docker_built_image &&
      !server.packages.some((p) => p.registry_type === 'oci' && /^mcp\//.test(p.identifier))
    ) {
      context.addIssue({ code: 'custom', message: 'docker_built_image needs an mcp/<id> image among the packages' });
    }
  });
export type CatalogServer = z.infer<typeof CatalogServerSchema>;

export const CatalogSourceSchema = z.strictObject({
  catalog: z.enum(CATALOGS),
  repository: Url,
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  committed_at: isoUtc(),
  licence: z.string().min(1).max(64),
});

export const CatalogFileSchema = z
  .strictObject({
    sources: z.array(CatalogSourceSchema).min(1).max(CATALOGS.length),
    servers: z.array(CatalogServerSchema).max(MAX_CATALOG_SERVERS),
  })
  .superRefine((file, context) => {
    const names = new Set<string>();
    for (const server of file.servers) {
      if (names.has(server.name)) context.addIssue({ code: 'custom', message: `${server.name} is listed twice` });
      names.add(server.name);
    }
    const sourced = new Set(file.sources.map((source) => source.catalog));
    for (const server of file.servers) {
      if (!sourced.has(server.catalog)) {
        context.addIssue({ code: 'custom', message: `${server.name}: its catalog has no source entry` });
        break;
      }
    }
  });
export type CatalogFile = z.infer<typeof CatalogFileSchema>;
