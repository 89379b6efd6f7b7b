/**
 * The query parameters of `GET /v0.1/servers`, bounded: those of the registry's document (`cursor`,
 * `limit`, `search`, `updated_since`, `version`) plus `min_score`, which narrows the deployment's policy
 * for one request.
 */
import * as z from 'zod';
import { MAX_CURSOR_LENGTH } from './cursor.js';
import { rfc3339 } from './vocabulary.js';

export const REGISTRY_LIMIT = { min: 1, max: 100, default: 30 } as const;

const limitError = `limit must be an integer from ${REGISTRY_LIMIT.min} to ${REGISTRY_LIMIT.max}`;
const scoreError = 'min_score must be an integer from 0 to 100';

export const RegistryListParamsSchema = z.strictObject({
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH, { error: 'cursor is not one this registry gave' }).optional(),
  limit: z
    .number({ error: limitError })
    .int({ error: limitError })
    .min(REGISTRY_LIMIT.min, { error: limitError })
    .max(REGISTRY_LIMIT.max, { error: limitError })
    .default(REGISTRY_LIMIT.default),
  search: z
    .string()
    .min(1, { error: 'search must be 1 to 200 characters' })
    .max(200, { error: 'search must be 1 to 200 characters' })
    .optional(),
  updated_since: rfc3339('updated_since must be an RFC 3339 timestamp, such as 2026-01-01T00:00:00Z').optional(),
  version: z
    .string()
    .min(1, { error: 'version must be 1 to 255 characters' })
    .max(255, { error: 'version must be 1 to 255 characters' })
    .optional(),
  min_score: z
    .number({ error: scoreError })
    .int({ error: scoreError })
    .min(0, { error: scoreError })
    .max(100, { error: scoreError })
    .optional(),
});
export type RegistryListParams = z.infer<typeof RegistryListParamsSchema>;

/** The path of the versions route: a server name, URL-encoded (`io.github.owner%2Fname`). */
export const RegistryNamePathSchema = z.strictObject({ serverName: z.string().min(1).max(200) });
/** The path of the version route: a server name and a version (or `latest`), both URL-encoded. */
export const RegistryVersionPathSchema = RegistryNamePathSchema.extend({ version: z.string().min(1).max(255) });
