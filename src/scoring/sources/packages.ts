/**
 * The package registries as a source of evidence: what npm, PyPI and crates.io say of the packages a record
 * names, as the nightly rescoring read them from each registry's own API into `data/evidence/packages.json`
 * (`src/model/package-facts.ts`). Loaded once per build (`packagesSource`), so `read` stays pure.
 *
 * Signals: whether the packages name the same repository as the registry entry (a package that points
 * elsewhere, or nowhere, is a weaker link between the code and what is installed), whether the npm packages
 * carry provenance attestations (built in CI from a named commit), and how many days since the newest
 * release. Findings: a deprecated package (DEPRECATED) and npm's security holding package `0.0.1-security`,
 * which npm publishes over a package it took down as malicious (REGISTRY_TAKEDOWN).
 */
import { packageKey, urlKey } from '../../model/identifiers.js';
import { PackageFactsFileSchema, type PackageFacts, type PackageFactsFile } from '../../model/package-facts.js';
import type { SignalReading } from '../../model/evidence.js';
import { readEvidenceFile } from './reading.js';
import type { EvidenceSource, Finding, SignalRule, SourceReading } from '../evidence-source.js';
import { measured, missing } from './reading.js';

export const PACKAGES_FILE = 'packages.json';
const READ_REGISTRIES = new Set(['npm', 'pypi', 'cargo', 'oci']);
const DAY_MS = 86_400_000;

/** A repository URL as compared: `urlKey` of it, lower-cased (hosts compare repositories in any case). */
const repoKey = (url: string | null): string | undefined => (url === null ? undefined : urlKey(url)?.toLowerCase());

function readPackages(
  file: PackageFactsFile | undefined,
  record: Parameters<EvidenceSource['read']>[0]['record'],
): SourceReading {
  const refs = (record.packages ?? []).filter((ref) => READ_REGISTRIES.has(ref.registry_type.toLowerCase()));
  const unmeasured = (why: string, applies: boolean): SourceReading => ({
    source: 'packages',
    state: { measured: false, at: null, by: null, third_party: false, missing: why },
    signals: applies ? Object.fromEntries(PACKAGES_RULES.map((rule) => [rule.signal, missing('packages', why)])) : {},
    findings: [],
  });
  // A snapshot made without reading the registries, or a server with no package to read (a remote), lists no
  // signal: the rules take no part, as the probe's do for a server with no remote, so neither moves a score
  // or the confidence. Packages that were there to read and were not are missing evidence: they lower it.
  if (file === undefined) {
    return unmeasured('package registries were not read for this snapshot (no package evidence in the dataset)', false);
  }
  if (refs.length === 0) return unmeasured('no npm, PyPI, crates.io or OCI package in the registry entry', false);
  const facts: PackageFacts[] = [];
  for (const ref of refs) {
    const found = file.packages[packageKey(ref.registry_type, ref.identifier)];
    if (found !== undefined) facts.push(found);
  }
  if (facts.length === 0) return unmeasured('its packages were not read the night this snapshot was made', true);
  const present = facts.filter((fact) => fact.found);

  const entryRepo = repoKey(record.install.repo_url);
  const packageRepos = present.map((fact) => repoKey(fact.repository_url));
  const signals: Record<string, SignalReading> = {
    package_repository_agrees:
      entryRepo === undefined
        ? missing('packages', 'no repository in the registry entry to compare with')
        : present.length === 0
          ? missing('packages', 'none of its packages exists in its registry')
          : measured(
              'packages',
              packageRepos.every((repo) => repo === entryRepo),
            ),
    package_provenance: present.some((fact) => fact.provenance !== null)
      ? measured(
          'packages',
          present.every((fact) => fact.provenance !== false),
        )
      : missing('packages', 'no npm package, the one registry here that records provenance'),
  };
  const published = present
    .map((fact) => fact.latest_published_at)
    .filter((time): time is string => time !== null)
    .sort()
    .at(-1);
  signals.package_days_since_release =
    published === undefined
      ? missing('packages', 'no release time in its registries')
      : measured('packages', Math.max(0, Math.floor((Date.parse(facts[0]!.read_at) - Date.parse(published)) / DAY_MS)));

  const findings: Finding[] = [];
  for (const fact of present) {
    if (fact.security_takedown) {
      findings.push({
        flag: 'REGISTRY_TAKEDOWN',
        detail: `npm replaced ${fact.identifier} with its security holding package (0.0.1-security): taken down as malicious`,
      });
    } else if (fact.deprecated !== null) {
      findings.push({ flag: 'DEPRECATED', detail: `${fact.registry_type} marks ${fact.identifier} deprecated` });
    }
  }
  const at = facts.map((fact) => fact.read_at).sort()[0]!;
  const by = [...new Set(facts.map((fact) => fact.source))].join(', ').slice(0, 200);
  return {
    source: 'packages',
    state: { measured: true, at, by, third_party: false, missing: null },
    signals,
    findings,
    detail: facts.slice(0, 64),
  };
}

/** The source over a loaded file (undefined: no package evidence, so every record says it was not read). */
export function packagesSourceOf(file: PackageFactsFile | undefined): EvidenceSource {
  return { name: 'packages', read: ({ record }) => readPackages(file, record) };
}

/** Loads `<evidenceDir>/packages.json` when it exists; one that exists and is not the documented shape fails. */
export async function packagesSource(context: { evidenceDir: string }): Promise<EvidenceSource> {
  return packagesSourceOf(await readEvidenceFile(context.evidenceDir, PACKAGES_FILE, PackageFactsFileSchema));
}

/** The packages' rules: provenance of what is installed, and whether it is still released. */
export const PACKAGES_RULES: readonly SignalRule[] = [
  {
    signal: 'package_repository_agrees',
    source: 'packages',
    subscore: 'provenance',
    max: 10,
    points: (v) => (v === true ? 10 : 0),
    explain: (v) =>
      v === true
        ? 'its packages name the repository the registry entry names'
        : 'a package names another repository than the registry entry, or none',
  },
  {
    signal: 'package_provenance',
    source: 'packages',
    subscore: 'provenance',
    max: 10,
    points: (v) => (v === true ? 10 : 0),
    explain: (v) =>
      v === true
        ? 'its npm packages carry provenance attestations (built in CI from a named commit)'
        : 'an npm package without provenance attestations',
  },
  {
    signal: 'package_days_since_release',
    source: 'packages',
    subscore: 'maintenance',
    max: 10,
    points: (v) => (typeof v !== 'number' ? 0 : v <= 90 ? 10 : v <= 365 ? 5 : 0),
    explain: (v) => `newest package release ${String(v)} days before it was read (90 or fewer: 10; a year: 5; more: 0)`,
  },
];
