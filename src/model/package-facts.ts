/**
 * `data/evidence/packages.json`: what each package registry says of the packages the records name, as the
 * nightly rescoring read it from the registry's own API (npm's packument, PyPI's JSON API, crates.io's API).
 * Read by the build, never by the server at run time. Every text is bounded; every package is dated (when it was
 * read) and attributed (which registry's API said it; OCI images from their registry's `/v2/` API); a package that could not be read says why, never a
 * guessed value.
 */
import * as z from 'zod';
import { isoUtc } from './fields.js';

export const PACKAGE_FACT_REGISTRIES = ['npm', 'pypi', 'cargo', 'oci'] as const;
export type PackageFactRegistry = (typeof PACKAGE_FACT_REGISTRIES)[number];

/** The most packages the file holds: far past the registry's (about 12,000 servers, most with one package). */
export const MAX_PACKAGES = 200_000;
const Text = (max: number) => z.string().min(1).max(max);
const When = isoUtc('a package time must be an ISO 8601 UTC timestamp (ending in Z)');

export const PackageFactsSchema = z.strictObject({
  registry_type: z.enum(PACKAGE_FACT_REGISTRIES),
  /** The name as the registry spells it in its API. */
  identifier: Text(214),
  /** When this night read it, and the API that answered. */
  read_at: When,
  source: Text(200),
  /** False: the registry has no such package (404). */
  found: z.boolean(),
  /** The repository the package names (npm `repository`, PyPI `project_urls`, crates.io `repository`). */
  repository_url: Text(500).nullable(),
  latest_version: Text(100).nullable(),
  latest_published_at: When.nullable(),
  /** Versions published in the year before `read_at` (yanked ones included). */
  versions_past_year: z.number().int().min(0).nullable(),
  maintainers: z.number().int().min(0).nullable(),
  /** The registry's deprecation message of the latest version (npm), bounded. */
  deprecated: Text(200).nullable(),
  /** Whether the latest version carries provenance attestations (npm `dist.attestations`); null where the registry has none. */
  provenance: z.boolean().nullable(),
  /** Whether the latest version was yanked (PyPI, crates.io); null where the registry has no yanking. */
  yanked: z.boolean().nullable(),
  /** npm's security holding package (`0.0.1-security`): the registry took the package down as malicious. */
  security_takedown: z.boolean(),
});
export type PackageFacts = z.infer<typeof PackageFactsSchema>;

/** What a package registry's answer says of a package it does not have: found, false, and nothing else known. */
export function notFoundFacts(
  registryType: PackageFacts['registry_type'],
  identifier: string,
  source: string,
): Omit<PackageFacts, 'read_at'> {
  return {
    registry_type: registryType,
    identifier,
    source,
    found: false,
    repository_url: null,
    latest_version: null,
    latest_published_at: null,
    versions_past_year: null,
    maintainers: null,
    deprecated: null,
    provenance: null,
    yanked: null,
    security_takedown: false,
  };
}

/** A package that could not be read this night, and why (a network error, an answer not of the documented shape). */
export const PackageMissSchema = z.strictObject({
  registry_type: z.enum(PACKAGE_FACT_REGISTRIES),
  identifier: Text(214),
  read_at: When,
  missing: Text(200),
});

export const PackageFactsFileSchema = z.strictObject({
  generated_at: When,
  /** Key `<registry_type>:<identifier>` as `src/model/identifiers.ts` files it. */
  packages: z.record(z.string().max(300), PackageFactsSchema).refine((p) => Object.keys(p).length <= MAX_PACKAGES, {
    error: `at most ${MAX_PACKAGES} packages`,
  }),
  unread: z.array(PackageMissSchema).max(MAX_PACKAGES),
});
export type PackageFactsFile = z.infer<typeof PackageFactsFileSchema>;
