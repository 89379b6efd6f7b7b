/**
 * The MCP registry's read API (`/v0.1`), as zod schemas: the shapes of the registry's OpenAPI document
 * (modelcontextprotocol/registry `docs/reference/api/openapi.yaml`, version 2025-12-01: `ServerDetail`,
 * `ServerResponse`, `ServerList` and the 404 body `{"error": "..."}`), and the trust data this service adds
 * under its own `_meta` key. The importer checks every registry entry with them before it is committed, so
 * the feed never serves an entry the registry's own schemas refuse; the OpenAPI document of this service is
 * made from them. Members the document does not name are kept (it does not forbid them), except in the
 * official registry's `_meta` block, which the document closes.
 */
import * as z from 'zod';
import { isoUtc, TRUST_LABELS } from '../model/schema.js';
import { ScoresSchema } from '../model/record-schema.js';
import { OFFICIAL_META_KEY, PUBLISHER_META_KEY, rfc3339, TRUST_META_KEY } from './vocabulary.js';

/**
 * `format: uri` of JSON Schema (RFC 3986): a scheme, then only the characters a URI may hold (no spaces,
 * braces or non-ASCII text; `%` escapes well formed; no brackets, which RFC 3986 allows only around an IPv6
 * host). Stricter than WHATWG URL parsing, which repairs.
 */
const URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const uri = () => z.string().regex(URI_PATTERN, { error: 'must be a URI (RFC 3986)' });

const inputMembers = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
};
const InputSchema = z.looseObject(inputMembers);
const withVariables = { ...inputMembers, variables: z.record(z.string(), InputSchema).optional() };
const KeyValueInputSchema = z.looseObject({ ...withVariables, name: z.string() });

const ArgumentSchema = z.union([
  z
    .looseObject({
      ...withVariables,
      type: z.literal('positional'),
      valueHint: z.string().optional(),
      isRepeated: z.boolean().optional(),
    })
    .refine((argument) => argument.valueHint !== undefined || argument.value !== undefined, {
      error: 'a positional argument has a valueHint or a value',
    }),
  z.looseObject({ ...withVariables, type: z.literal('named'), name: z.string(), isRepeated: z.boolean().optional() }),
]);

const StdioTransportSchema = z.looseObject({ type: z.literal('stdio') });
const StreamableHttpTransportSchema = z.looseObject({
  type: z.literal('streamable-http'),
  url: z.string(),
  headers: z.array(KeyValueInputSchema).optional(),
});
const SseTransportSchema = z.looseObject({
  type: z.literal('sse'),
  url: uri(),
  headers: z.array(KeyValueInputSchema).optional(),
});

const PackageSchema = z.looseObject({
  registryType: z.string(),
  registryBaseUrl: uri().optional(),
  identifier: z.string(),
  version: z
    .string()
    .min(1)
    .refine((version) => version !== 'latest', { error: 'a package version is a specific version, not "latest"' })
    .optional(),
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  runtimeHint: z.string().optional(),
  transport: z.union([StdioTransportSchema, StreamableHttpTransportSchema, SseTransportSchema]),
  runtimeArguments: z.array(ArgumentSchema).optional(),
  packageArguments: z.array(ArgumentSchema).optional(),
  environmentVariables: z.array(KeyValueInputSchema).optional(),
});

const IconSchema = z.looseObject({
  src: uri().max(255),
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp']).optional(),
  sizes: z.array(z.string().regex(/^([0-9]+x[0-9]+|any)$/)).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});

const RepositorySchema = z.looseObject({
  url: uri(),
  source: z.string(),
  id: z.string().optional(),
  subfolder: z.string().optional(),
});

/** `ServerDetail`: a server.json as the registry serves it. */
export const RegistryServerSchema = z.looseObject({
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  description: z.string().min(1).max(100),
  title: z.string().min(1).max(100).optional(),
  repository: RepositorySchema.optional(),
  version: z.string().max(255),
  websiteUrl: uri().optional(),
  icons: z.array(IconSchema).optional(),
  $schema: uri().optional(),
  packages: z.array(PackageSchema).optional(),
  remotes: z.array(z.union([StreamableHttpTransportSchema, SseTransportSchema])).optional(),
  _meta: z.looseObject({ [PUBLISHER_META_KEY]: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type RegistryServer = z.infer<typeof RegistryServerSchema>;

const timestamp = () => rfc3339();

/** The official registry's metadata of an entry, as the document closes it. */
export const OfficialMetaSchema = z.strictObject({
  status: z.enum(['active', 'deprecated', 'deleted']).optional(),
  publishedAt: timestamp().optional(),
  updatedAt: timestamp().optional(),
  isLatest: z.boolean().optional(),
});

/**
 * One entry of the committed registry data (`data/registry/servers.json`) and of the snapshot's
 * `registry.json`: the registry's `ServerResponse` of the server's latest version, as the official registry
 * served it.
 */
export const RegistryEntrySchema = z.strictObject({
  server: RegistryServerSchema,
  _meta: z.strictObject({ [OFFICIAL_META_KEY]: OfficialMetaSchema }),
});
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;

/** The trust data under `_meta[TRUST_META_KEY]` of every answer: the server's `/v1` record, in short. */
export const TrustMetaSchema = z.strictObject({
  trust_score: z.number().int().min(0).max(100),
  trust_label: z.enum(TRUST_LABELS),
  scores: ScoresSchema,
  flags: z.array(z.string()),
  verified_publisher: z.boolean(),
  scored_at: isoUtc(),
  snapshot_id: z.string().min(1),
  /** The path of the server's `/v1` record on this host (`GET` it with a key for the whole record). */
  record_url: z.string().regex(/^\/v1\/servers\/[^/]+\/[^/]+$/),
});
export type TrustMeta = z.infer<typeof TrustMetaSchema>;

/** `ServerResponse` as this service answers it: the registry's entry plus the trust data. */
export const RegistryServerResponseSchema = z.strictObject({
  server: RegistryServerSchema,
  _meta: z.looseObject({ [OFFICIAL_META_KEY]: OfficialMetaSchema.optional(), [TRUST_META_KEY]: TrustMetaSchema }),
});

/** `ServerList`: a page, with the cursor of the next one when there is one. */
export const RegistryServerListSchema = z.strictObject({
  servers: z.array(RegistryServerResponseSchema),
  metadata: z.strictObject({ nextCursor: z.string().min(1).optional(), count: z.number().int().min(0) }),
});

/** Every error of the registry routes, in the document's shape. */
export const RegistryErrorSchema = z.strictObject({ error: z.string().min(1) });
