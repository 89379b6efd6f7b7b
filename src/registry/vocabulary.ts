/**
 * The registry's words this service uses at run time, kept apart from the registry's schemas
 * (`schema.ts`): serving `/v0.1` needs these and not the schemas, whose construction a cold start would
 * otherwise pay for.
 */
import * as z from 'zod';

/** The `_meta` key of the official registry's own metadata (status, dates, isLatest). */
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';
/**
 * The `_meta` key of this service's trust data, in reverse-DNS form as the registry asks of extensions. The
 * project has no domain of its own; the key names the project, and a deployment that has one may change it
 * here (clients read it as an opaque string).
 */
export const TRUST_META_KEY = 'io.mcp-trust-score/trust';
/** The `_meta` key of what a publisher adds to its entry. */
export const PUBLISHER_META_KEY = 'io.modelcontextprotocol.registry/publisher-provided';

/** RFC 3339 date-time (any fraction, `Z` or an offset), in the syntax every published pattern keeps to. */
export const RFC3339_PATTERN =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$/;
export const rfc3339 = (error = 'must be an RFC 3339 timestamp, such as 2026-01-01T00:00:00Z') =>
  z
    .string()
    .regex(RFC3339_PATTERN, { error })
    .refine((text) => !Number.isNaN(Date.parse(text)), { error });
