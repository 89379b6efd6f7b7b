/**
 * Live probes of remote servers as committed evidence: `data/evidence/probes.json`, one observation per server
 * (whether the remote answered, how it asks for authorisation, how many tools it listed without credentials,
 * the transport, when), each attributed to whoever probed it. The committed file holds a third party's probes
 * (MCP Queen, July 2026; data/README.md), never presented as this project's own observation.
 */
import { z } from 'zod';
import { isoUtc, ServerNameSchema } from './fields.js';

/** How a remote asked for authorisation: not at all, a 401 with OAuth protected-resource metadata, a bare 401. */
export const AUTH_STATES = ['open', 'oauth', 'bare-401'] as const;

export const ProbeObservationSchema = z.strictObject({
  name: ServerNameSchema,
  reachable: z.boolean(),
  /** Null when it did not answer. */
  auth: z.enum(AUTH_STATES).nullable(),
  /** What `tools/list` returned without credentials; null when it was not listed (gated or unreachable). */
  tool_count: z.number().int().min(0).max(100_000).nullable(),
  transport: z.enum(['streamable-http', 'sse']),
  probed_at: isoUtc(),
});
export type ProbeObservation = z.infer<typeof ProbeObservationSchema>;

export const ProbeFileSchema = z.strictObject({
  /** Who probed, as every record's evidence names them. */
  by: z.string().min(1).max(200),
  third_party: z.boolean(),
  observations: z.array(ProbeObservationSchema).max(1_000_000),
});
export type ProbeFile = z.infer<typeof ProbeFileSchema>;
