/**
 * The committed catalog dataset (`data/catalog/servers.json`, written by `scripts/catalog.ts`): servers that
 * curators list beyond the registry, with the facts the curator declares and a name of their own
 * (`catalog:<curator>/<id>`) that no registry name can equal, since the registry's name pattern forbids `:`.
 */
import * as z from 'zod';
import { isoUtc, ServerNameSchema } from './fields.js';

export const CATALOG_SOURCES = ['docker-mcp-catalog', 'mcp-reference-servers'] as const;

/** The registry's own name pattern (its `server.json` schema): what a catalog name must never match. */
export const REGISTRY_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

export const CatalogServerSchema = z.strictObject({
  name: ServerNameSchema.refine((name) => name.startsWith('catalog:') && !REGISTRY_NAME_PATTERN.test(name), {
    error: 'a catalog name is catalog:<curator>/<id>, never a name the registry accepts',
  }),
  source: z.enum(CATALOG_SOURCES),
  id: z.string().min(1).max(200),
  title: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  image: z.string().min(1).max(500).optional(),
  remoteUrl: z.url().max(500).optional(),
  package: z.strictObject({ registryType: z.enum(['npm', 'pypi']), identifier: z.string().min(1).max(214) }).optional(),
  repository: z.url().max(500).optional(),
});
export type CatalogServer = z.infer<typeof CatalogServerSchema>;

export const CatalogFileSchema = z.strictObject({
  sources: z
    .array(
      z.strictObject({
        source: z.enum(CATALOG_SOURCES),
        repository: z.string().min(1),
        commit: z.string().regex(/^[0-9a-f]{40}$/),
        date: z.iso.datetime(),
        licence: z.string().min(1),
      }),
    )
    .min(1),
  servers: z.array(CatalogServerSchema).max(100_000),
});
export type CatalogFile = z.infer<typeof CatalogFileSchema>;

/** Whether `name` is a catalog server's own name (`catalog:<curator>/<id>`), not a registry name. */
export function isCatalogName(name: string): boolean {
  return name.toLowerCase().startsWith('catalog:');
}

/** Who each catalog source is, as a record's evidence names it. */
export const CATALOG_CURATORS: Readonly<Record<(typeof CATALOG_SOURCES)[number], string>> = {
  'docker-mcp-catalog': "Docker's MCP Catalog (docker/mcp-registry)",
  'mcp-reference-servers': 'the MCP reference servers (modelcontextprotocol/servers)',
};

/**
 * A curator's listing of a server, as a record carries it (`listings`): which catalog lists it, under which
 * catalog name, at which commit of the catalog and its date, and what the curator declares (an image, a
 * package, a repository, a remote URL). Declared, never measured: nothing here was read from the repository
 * or the package registry. A registry record the catalog server is the same server as carries it too.
 */
export const ListingSchema = z.strictObject({
  source: z.enum(CATALOG_SOURCES),
  name: CatalogServerSchema.shape.name,
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  listed_at: isoUtc('listed_at must be an ISO 8601 UTC timestamp (ending in Z)'),
  image: z.string().min(1).max(500).optional(),
  package: z
    .strictObject({ registry_type: z.enum(['npm', 'pypi']), identifier: z.string().min(1).max(214) })
    .optional(),
  repository: z.url().max(500).optional(),
  remote_url: z.url().max(500).optional(),
});
export type Listing = z.infer<typeof ListingSchema>;

/** Who listed a server, in words: "Docker's MCP Catalog (docker/mcp-registry) at 818bf16 (2026-07-08)". */
export function curatorOf(listing: Listing): string {
  return `${CATALOG_CURATORS[listing.source]} at ${listing.commit.slice(0, 7)} (${listing.listed_at.slice(0, 10)})`;
}
