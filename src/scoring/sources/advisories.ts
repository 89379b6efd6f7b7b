/**
 * The advisory databases as a source of evidence: the committed `data/evidence/advisories.json`
 * (`src/model/advisories.ts`), MCP-related records of the OpenSSF malicious-packages database and reviewed
 * advisories of the GitHub Advisory Database, both third parties. For each package a record names, the
 * advisories that affect that package are kept in the record's evidence (so a check can judge the version a
 * configuration pins), and the record's own version raises KNOWN_MALICIOUS (a malicious release) or
 * VULNERABLE_VERSION (a vulnerability with its fixed version). Findings, not points: an advisory says what is
 * known to be bad, and its absence proves nothing, so this source has no rules and moves no score by itself.
 */
import {
  type AdvisoryDetail,
  type AdvisoryFile,
  AdvisoryFileSchema,
  advisoriesOfPackages,
  indexAdvisories,
  isAffected,
  MAX_RECORD_ADVISORIES,
} from '../../model/advisories.js';
import type { EvidenceSource, Finding, SignalRule, SourceReading } from '../evidence-source.js';
import { readEvidenceFile } from './reading.js';

export const ADVISORIES_FILE = 'advisories.json';
export const ADVISORIES_RULES: readonly SignalRule[] = [];

/** The advisory source over `file`'s advisories, indexed by the package key they affect. */
export function advisoriesSourceOf(file: AdvisoryFile): EvidenceSource {
  const byPackage = indexAdvisories(file);
  const by = `${file.advisories.length} MCP-related records selected from ${file.sources.map((source) => source.name).join(' and ')}, as of ${file.generated_at.slice(0, 10)}`;
  return {
    name: 'advisories',
    read: ({ record }): SourceReading => {
      const packages = record.packages ?? [];
      if (packages.length === 0) {
        const missing = 'no package to look up in the advisory databases (advisories name packages)';
        return {
          source: 'advisories',
          state: { measured: false, at: null, by: null, third_party: false, missing },
          signals: {},
          findings: [],
        };
      }
      const details: AdvisoryDetail[] = [];
      const findings: Finding[] = [];
      for (const { detail, version, key } of advisoriesOfPackages(byPackage, packages)) {
        details.push(detail);
        if (!isAffected(detail, version)) continue;
        const at = version === null ? 'every version' : `version ${version}`;
        if (detail.kind === 'malicious') {
          findings.push({
            flag: 'KNOWN_MALICIOUS',
            detail: `${detail.id}: ${key} ${at} is a known-malicious release`,
          });
        } else {
          const fix = detail.fixed === null ? 'no fixed version yet' : `fixed in ${detail.fixed}`;
          findings.push({ flag: 'VULNERABLE_VERSION', detail: `${detail.id}: ${key} ${at} is vulnerable (${fix})` });
        }
      }
      return {
        source: 'advisories',
        state: { measured: true, at: file.generated_at, by, third_party: true, missing: null },
        signals: {},
        findings,
        ...(details.length === 0 ? {} : { detail: details.slice(0, MAX_RECORD_ADVISORIES) }),
      };
    },
  };
}

/** The source over the committed file in `evidenceDir`; with no file, every record's advisories are unread. */
export async function advisoriesSource(evidenceDir: string): Promise<EvidenceSource> {
  const file = await readEvidenceFile(evidenceDir, ADVISORIES_FILE, AdvisoryFileSchema);
  if (file !== undefined) return advisoriesSourceOf(file);
  const missing = 'advisory databases were not read for this snapshot (no advisory evidence in the dataset)';
  return {
    name: 'advisories',
    read: () => ({
      source: 'advisories',
      state: { measured: false, at: null, by: null, third_party: false, missing },
      signals: {},
      findings: [],
    }),
  };
}
