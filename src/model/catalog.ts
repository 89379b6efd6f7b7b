/**
 * The committed catalog dataset (`data/catalog/servers.json`, written by `scripts/catalog.ts`): servers that
 * curators list beyond the registry, with the facts the curator declares and a name of their own
 * (`catalog:<curator>/<id>`) that no registry name can equal, since the registry's name pattern forbids `:`.
 */
import { z } from 'zod';
import { ServerNameSchema } from './fields.js';

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
