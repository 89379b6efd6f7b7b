/**
 * Which advisories name one package at one version, and the flags they give: a malicious-package record that
 * covers the version gives KNOWN_MALICIOUS, a vulnerability whose ranges hold it gives VULNERABLE_VERSION with
 * the advisory ids and the version that fixes it. Shared by the advisory evidence source (build time) and the
 * checker (a version pinned in a configuration). Pure; fails closed for malicious records: a version that
 * cannot be read, or no version at all (an unpinned install takes whatever is published), counts as affected.
 */
import { osvEcosystem, type Advisory, type OsvEcosystem } from './advisories.js';
import { affects, fixedVersion } from './version-ranges.js';

export interface PackageAtVersion {
  registry_type: string;
  identifier: string;
  version: string | null;
}

/** One advisory that names the package, and what it says of the version asked about. */
export interface AdvisoryMatch {
  id: string;
  aliases: string[];
  kind: Advisory['kind'];
  summary: string;
  severity: Advisory['severity'];
  package: string;
  version: string | null;
  /** Whether the version is affected; null when it cannot be told (no version, or one that cannot be read). */
  affected: boolean | null;
  fixed: string | null;
  source_url: string;
}

/** npm names are case-insensitive in lookups here as in the registry's own; PyPI names normalise by PEP 503. */
export function normalisePackageName(ecosystem: OsvEcosystem, name: string): string {
  const trimmed = name.trim();
  if (ecosystem === 'PyPI') return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
  return trimmed.toLowerCase();
}

/** An index of advisories by `<ecosystem>:<normalised name>`, made once per loaded file. */
export class AdvisoryIndex {
  readonly #byPackage = new Map<string, Advisory[]>();

  constructor(advisories: readonly Advisory[]) {
    for (const advisory of advisories) {
      const keys = new Set(advisory.affected.map((a) => `${a.ecosystem}:${normalisePackageName(a.ecosystem, a.name)}`));
      for (const key of keys) {
        const list = this.#byPackage.get(key);
        if (list) list.push(advisory);
        else this.#byPackage.set(key, [advisory]);
      }
    }
  }

  /** Every advisory naming the package, with its answer for the version. Empty for ecosystems not covered. */
  match(pkg: PackageAtVersion): AdvisoryMatch[] {
    const ecosystem = osvEcosystem(pkg.registry_type);
    if (ecosystem === null) return [];
    const name = normalisePackageName(ecosystem, pkg.identifier);
    const advisories = this.#byPackage.get(`${ecosystem}:${name}`) ?? [];
    return advisories.map((advisory) => {
      const mine = advisory.affected.filter(
        (a) => a.ecosystem === ecosystem && normalisePackageName(ecosystem, a.name) === name,
      );
      const answers = mine.map((a) => affects(a, pkg.version));
      const affected = answers.includes(true) ? true : answers.includes(null) ? null : false;
      const fixes = mine.map((a) => fixedVersion(a, pkg.version)).filter((fix): fix is string => fix !== null);
      return {
        id: advisory.id,
        aliases: advisory.aliases,
        kind: advisory.kind,
        summary: advisory.summary,
        severity: advisory.severity,
        package: `${pkg.registry_type.toLowerCase()}:${pkg.identifier}`,
        version: pkg.version,
        affected,
        fixed: fixes[0] ?? null,
        source_url: advisory.source_url,
      };
    });
  }
}

export interface AdvisoryFinding {
  flag: 'KNOWN_MALICIOUS' | 'VULNERABLE_VERSION';
  detail: string;
  advisories: string[];
}

/** The flags of a package's matches: malicious fails closed on an unknown answer, a vulnerability does not. */
export function findingsOf(matches: readonly AdvisoryMatch[]): AdvisoryFinding[] {
  const findings: AdvisoryFinding[] = [];
  const malicious = matches.filter((m) => m.kind === 'malicious' && m.affected !== false);
  if (malicious.length > 0) {
    const first = malicious[0]!;
    findings.push({
      flag: 'KNOWN_MALICIOUS',
      advisories: malicious.map((m) => m.id),
      detail: `${first.package}${first.version === null ? '' : `@${first.version}`} is named malicious by ${malicious.map((m) => m.id).join(', ')}`,
    });
  }
  const vulnerable = matches.filter((m) => m.kind === 'vulnerability' && m.affected === true);
  if (vulnerable.length > 0) {
    const first = vulnerable[0]!;
    const ids = vulnerable.map((m) => [m.id, ...m.aliases.filter((alias) => alias.startsWith('CVE-'))].join(' / '));
    const fixes = [...new Set(vulnerable.map((m) => m.fixed).filter((fix) => fix !== null))];
    findings.push({
      flag: 'VULNERABLE_VERSION',
      advisories: vulnerable.map((m) => m.id),
      detail: `${first.package}@${first.version} is affected by ${ids.join(', ')}${fixes.length ? `; fixed in ${fixes.join(', ')}` : '; no fixed version yet'}`,
    });
  }
  return findings;
}
