/**
 * Live probes of remote servers as committed evidence: `data/evidence/probes.json`, one observation per server
 * (whether the remote answered, how it asks for authorisation, how many tools it listed without credentials,
 * the transport, when), each attributed to whoever probed it. The committed file holds a third party's probes
 * (MCP Queen, July 2026; data/README.md), never presented as this project's own observation.
 */
import * as z from 'zod';
import { isoUtc, ServerNameSchema } from './fields.js';
import { TOOLS_HASH_PATTERN } from './tools.js';

/** How a remote asked for authorisation: not at all, a 401 with OAuth protected-resource metadata, a bare 401. */
export const AUTH_STATES = ['open', 'oauth', 'bare-401'] as const;

/**
 * Why a probe did not complete: the name did not resolve (`dns`), the TLS handshake failed (`tls`), nothing
 * answered in time (`timeout`), the connection was refused (`refused`), the remote answered an HTTP status
 * that is neither MCP nor a 401 (`http-status`), its URL or a redirect's is not one the prober may ask
 * (`url`: not https, user info, a template) or points at a refused address (`address`), it answered more
 * bytes than the bound (`too-large`), or something that is not MCP (`protocol`).
 */
export const PROBE_FAILURES = [
  'dns',
  'tls',
  'timeout',
  'refused',
  'http-status',
  'url',
  'address',
  'too-large',
  'protocol',
] as const;
export type ProbeFailure = (typeof PROBE_FAILURES)[number];

/** Bounds on a server's own words about itself (its `serverInfo`), kept as data. */
export const MAX_SERVER_INFO_TEXT = 200;

export const ProbeObservationSchema = z.strictObject({
  name: ServerNameSchema,
  reachable: z.boolean(),
  /** Null when it did not answer. */
  auth: z.enum(AUTH_STATES).nullable(),
  /** What `tools/list` returned without credentials; null when it was not listed (gated or unreachable). */
  tool_count: z.number().int().min(0).max(100_000).nullable(),
  transport: z.enum(['streamable-http', 'sse']),
  probed_at: isoUtc(),
  // What this project's own prober adds (src/pipeline/probe/); absent from the third party's observations.
  /** Why the probe did not complete; null when it did. */
  failure: z.enum(PROBE_FAILURES).nullable().optional(),
  /** The HTTP status behind a failure of kind `http-status`. */
  http_status: z.number().int().min(100).max(599).optional(),
  /** The protocol version the remote agreed to in `initialize`. */
  protocol_version: z.string().min(1).max(64).nullable().optional(),
  /** The remote's `serverInfo`, as it states it (data, never instructions). */
  server_info: z
    .strictObject({ name: z.string().max(MAX_SERVER_INFO_TEXT), version: z.string().max(MAX_SERVER_INFO_TEXT) })
    .nullable()
    .optional(),
  /** The record's version when probed: a change of tools at the same version is TOOLS_CHANGED. */
  version: z.string().min(1).max(255).optional(),
  /** The hash of the tools it listed (`src/model/tools.ts`), null when none were listed. */
  tools_hash: z.string().regex(TOOLS_HASH_PATTERN).nullable().optional(),
  /**
   * When this project's probes first saw the tools' hash change while the record's version stayed the same;
   * kept while the version does not change, cleared by a new version.
   */
  tools_changed_at: isoUtc().nullable().optional(),
  /** Nights in a row, this one included, that this project's probe found the remote unreachable. */
  consecutive_failures: z.number().int().min(0).max(100_000).optional(),
});
export type ProbeObservation = z.infer<typeof ProbeObservationSchema>;

export const ProbeFileSchema = z.strictObject({
  /** Who probed, as every record's evidence names them. */
  by: z.string().min(1).max(200),
  third_party: z.boolean(),
  observations: z.array(ProbeObservationSchema).max(1_000_000),
});
export type ProbeFile = z.infer<typeof ProbeFileSchema>;
