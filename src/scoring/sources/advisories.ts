/**
 * The advisory evidence source: for each package of a record (npm, PyPI, crates.io, NuGet), the advisories of
 * the committed advisory file (OpenSSF malicious packages and GitHub's reviewed advisories, in OSV form) that
 * name it, evaluated at the record's version. A malicious-package record gives KNOWN_MALICIOUS, a vulnerability
 * whose ranges hold the version gives VULNERABLE_VERSION; the detail is every advisory that names a package.
 */
import { osvEcosystem, type AdvisoryFile } from '../../model/advisories.js';
import { AdvisoryIndex, findingsOf, type AdvisoryMatch } from '../../model/advisory-match.js';
import type { EvidenceSource, Finding, SourceReading, EvidenceSubject } from '../evidence-source.js';

/** Who measured: third parties, named, so a client never takes their observation for this project's. */
export const ADVISORY_SOURCE_BY = 'OpenSSF malicious-packages and GitHub Advisory Database (OSV format)';
const MAX_DETAIL = 64;

export function createAdvisorySource(file: AdvisoryFile): EvidenceSource {
  const index = new AdvisoryIndex(file.advisories);
  return {
    name: 'advisories',
    read({ record }: EvidenceSubject): SourceReading {
      const packages = (record.packages ?? []).filter((pkg) => osvEcosystem(pkg.registry_type) !== null);
      if (packages.length === 0) {
        return {
          source: 'advisories',
          state: {
            measured: false,
            at: null,
            by: null,
            third_party: true,
            missing: 'no package in an ecosystem the advisory databases cover (npm, PyPI, crates.io, NuGet)',
          },
          signals: {},
          findings: [],
        };
      }
      const matches: AdvisoryMatch[] = packages.flatMap((pkg) => index.match(pkg));
      const findings: Finding[] = [];
      for (const flag of ['KNOWN_MALICIOUS', 'VULNERABLE_VERSION'] as const) {
        const details = packages
          .flatMap((pkg) => findingsOf(index.match(pkg)))
          .filter((finding) => finding.flag === flag)
          .map((finding) => finding.detail);
        if (details.length > 0) findings.push({ flag, detail: details.join('; ').slice(0, 500) });
      }
      return {
        source: 'advisories',
        state: { measured: true, at: file.generated_at, by: ADVISORY_SOURCE_BY, third_party: true, missing: null },
        signals: {},
        findings,
        ...(matches.length > 0 ? { detail: matches.slice(0, MAX_DETAIL) } : {}),
      };
    },
  };
}
