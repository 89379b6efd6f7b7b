/**
 * Which servers the registry feed holds: a deployment's policy (`REGISTRY_MIN_SCORE`, `REGISTRY_DENY_FLAGS`,
 * `REGISTRY_REQUIRE_VERIFIED`), so an organisation runs a curated registry by setting three variables. A
 * request's `min_score` can only narrow it. A server outside the policy is not in the feed at all: lists
 * skip it and its own routes answer 404, as for a server the registry does not know.
 */
import * as z from 'zod';
import { FLAG_PATTERN } from '../model/schema.js';

export interface RegistryPolicy {
  /** Only servers whose trust score is at least this (0: all). */
  minScore: number;
  /** Servers carrying any of these flags (upper case) are left out. */
  denyFlags: readonly string[];
  /** Only servers whose publisher is verified. */
  requireVerified: boolean;
}

/** No policy: every scored server that has a registry entry. */
export const OPEN_POLICY: RegistryPolicy = { minScore: 0, denyFlags: [], requireVerified: false };

/** At most this many flags in `REGISTRY_DENY_FLAGS`: more is a mistake, not a policy. */
export const MAX_DENY_FLAGS = 32;

/** `REGISTRY_DENY_FLAGS`: flag names separated by commas, any case, each once; blanks ignored. */
export const DenyFlagsSchema = z
  .string()
  .transform((text) => [...new Set(text.split(',').map((flag) => flag.trim().toUpperCase()))].filter((f) => f !== ''))
  .refine((flags) => flags.every((flag) => flag.length <= 64 && FLAG_PATTERN.test(flag)), {
    error:
      'REGISTRY_DENY_FLAGS must be flag names (letters, digits, _) separated by commas, such as NO_SOURCE,DEAD_ENTRY',
  })
  .refine((flags) => flags.length <= MAX_DENY_FLAGS, {
    error: `REGISTRY_DENY_FLAGS names at most ${MAX_DENY_FLAGS} flags`,
  });

/** What a server is judged on. */
export interface PolicySubject {
  trust_score: number;
  flags: readonly string[];
  verified_publisher: boolean;
}

/** Whether the policy admits the server, with a request's `min_score` (if any) on top. */
export function admits(policy: RegistryPolicy, server: PolicySubject, minScore = 0): boolean {
  if (server.trust_score < Math.max(policy.minScore, minScore)) return false;
  if (policy.requireVerified && !server.verified_publisher) return false;
  return !server.flags.some((flag) => policy.denyFlags.includes(flag.toUpperCase()));
}

/** The policy as text, for cache keys and ETags: a feed under another policy is another answer. */
export const policyKey = (policy: RegistryPolicy): string =>
  `min=${policy.minScore};deny=${policy.denyFlags.join(',')};verified=${policy.requireVerified}`;
