/**
 * A server entry as the upstream MCP registry serves it (`ServerResponse` of its read API, 2025-12-01), read
 * loosely: the one schema both readers of upstream entries use, the importer (its dumps, every version of
 * every server, `src/dataset/inputs.ts`) and the nightly pipeline (its pages and its cache,
 * `src/pipeline/collect.ts`). Beside it, `schema.ts` holds the strict entry this service serves, which every
 * entry must pass before it is committed to the feed.
 *
 * Read loosely means: every entry the strict schema accepts is accepted; only the members the readers use
 * are checked, and only for their types (a bad URL or a long name is the strict schema's and the join's to
 * refuse, one entry at a time, never a reason to refuse a whole dump or page); every optional member may be
 * `null`, which means the same as missing (the dumps write both); and members nobody names are kept, at every
 * level, so an entry parsed here is the entry as served, but for the order of its members (which is why both
 * readers keep the entry they were given, and use this schema to check it).
 */
import * as z from 'zod';
import { OFFICIAL_META_KEY } from './vocabulary.js';

const text = () => z.string().nullish();

/** `ServerDetail`: the server.json, with the members the join and the method read. */
export const UpstreamServerSchema = z.looseObject({
  name: z.string().min(1),
  version: text(),
  description: text(),
  websiteUrl: text(),
  icons: z.array(z.unknown()).nullish(),
  repository: z.looseObject({ url: text(), source: text() }).nullish(),
  packages: z
    .array(
      z.looseObject({
        registryType: text(),
        identifier: text(),
        version: text(),
        transport: z.looseObject({ type: text() }).nullish(),
        environmentVariables: z.array(z.looseObject({ name: text(), isSecret: z.boolean().nullish() })).nullish(),
      }),
    )
    .nullish(),
  remotes: z.array(z.looseObject({ type: text(), url: text() })).nullish(),
});
export type UpstreamServer = z.infer<typeof UpstreamServerSchema>;

/** `ServerResponse`: the server and the official registry's metadata of this version. */
export const UpstreamEntrySchema = z.looseObject({
  server: UpstreamServerSchema,
  _meta: z
    .looseObject({
      [OFFICIAL_META_KEY]: z
        .looseObject({
          status: text(),
          isLatest: z.boolean().nullish(),
          publishedAt: text(),
          updatedAt: text(),
        })
        .nullish(),
    })
    .nullish(),
});
export type UpstreamEntry = z.infer<typeof UpstreamEntrySchema>;
