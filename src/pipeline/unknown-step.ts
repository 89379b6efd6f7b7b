/**
 * The unknown identifiers a night looks for: the packages that lookups and checks asked about over the last
 * days and the snapshot did not know, as the gateway counted them in the store (`src/gateway/unknown-counter.ts`).
 * The most asked ones (a bounded number) go to the packages step and the advisories step beside the entries'
 * packages, so the next snapshot's advisories cover them and a check of a malicious one fails offline too.
 * No record is made of them: a package name alone is no server.
 *
 * Only npm, PyPI and crates.io packages are taken: those registries are asked at their configured base URL.
 * An OCI image names the host it is asked of, and a name anyone may send should never choose where the night
 * sends a request; remote URLs are not packages and are not asked either.
 *
 * Failure policy: the store is read once, under a bound; a store that does not answer, or answers something
 * that is not a tally, is said in one line and the night goes on without them. Nothing known is lost so: the
 * advisories of the last night's file for a package OSV is not asked about stay (`osv/read-advisories.ts`).
 */
import * as z from 'zod';
import { IdentifierError } from '../model/identifiers.js';
import { purlKey } from '../model/purl.js';
import { MAX_UNKNOWN_IDENTIFIER_LENGTH } from '../model/unknown-identifier.js';
import { bounded } from '../stores/deadline.js';
import type { UnknownIdentifierStore } from '../stores/types.js';
import { recentUnknownDays } from '../stores/unknown-tally.js';

/** The registries an unknown package is asked of (each at its configured base URL). */
const ASKED = new Set(['npm', 'pypi', 'cargo']);

/** The most identifiers a night reads of the store. */
export const MAX_UNKNOWN_READ = 10_000;

export interface UnknownStepOptions {
  store: Pick<UnknownIdentifierStore, 'topUnknown'>;
  /** How many of the most asked identifiers are read (at most `MAX_UNKNOWN_READ`). */
  limit: number;
  /** The bound on the store's answer. */
  timeoutMs: number;
  /** Now, whose UTC day and the days before it are read. */
  nowMs: number;
}

/** What the night took of the store: the packages, shaped as the steps read an entry's server, and its counts. */
export interface UnknownPackages {
  servers: Array<{ packages: Array<{ registryType: string; identifier: string }> }>;
  counts: { identifiers: number; packages: number };
}

const TallySchema = z
  .array(
    z.strictObject({
      identifier: z.string().min(1).max(MAX_UNKNOWN_IDENTIFIER_LENGTH),
      count: z.number().int().min(0),
    }),
  )
  .max(MAX_UNKNOWN_READ);

/**
 * The packages among the `limit` identifiers counted most over the last days. Rejects (with the store's
 * message) when the store cannot be read; the caller says so and goes on.
 */
export async function readUnknownPackages(options: UnknownStepOptions): Promise<UnknownPackages> {
  const limit = Math.min(options.limit, MAX_UNKNOWN_READ);
  const answer = await bounded(
    () => options.store.topUnknown(recentUnknownDays(options.nowMs), limit),
    options.timeoutMs,
  );
  const tallies = TallySchema.safeParse(answer);
  if (!tallies.success) throw new Error('the store answered something that is not a tally of identifiers');
  const byKey = new Map<string, { registryType: string; identifier: string }>();
  for (const { identifier } of tallies.data.slice(0, limit)) {
    if (!identifier.startsWith('pkg:')) continue;
    let key: string;
    try {
      key = purlKey(identifier);
    } catch (error) {
      if (error instanceof IdentifierError) continue;
      throw error;
    }
    const colon = key.indexOf(':');
    const registryType = key.slice(0, colon);
    if (ASKED.has(registryType)) byKey.set(key, { registryType, identifier: key.slice(colon + 1) });
  }
  return {
    servers: [...byKey.values()].map((pkg) => ({ packages: [pkg] })),
    counts: { identifiers: tallies.data.length, packages: byKey.size },
  };
}

/**
 * The step as a night runs it (`rescore.ts`): undefined when it is off; a store that cannot be read is one note,
 * and the night goes on without the newly asked packages (nothing known is lost: the packages already listed
 * keep their records, `unknown-records.ts`).
 */
export async function unknownStepOf(
  options: Omit<UnknownStepOptions, 'nowMs'> | undefined,
  notes: string[],
): Promise<UnknownPackages | { unread: string } | undefined> {
  if (options === undefined) return undefined;
  try {
    return await readUnknownPackages({ ...options, nowMs: Date.now() });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    notes.push(`unknown identifiers not read from the store (${why}); the night goes on without them`);
    return { unread: why };
  }
}
