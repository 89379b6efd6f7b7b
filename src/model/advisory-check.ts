/**
 * Version-aware findings of a check item: the advisories that name the package a configuration runs, at the
 * version it pins (`npx pkg@1.2.3`, `uvx pkg==1.2.3`, an image tag), so that a compromised release pinned
 * fails while the fixed one does not, and a known-malicious package fails even when no scored server matches
 * it. Kept apart from `check.ts` (the policy's rules); `judge` takes these findings as one more input.
 */
import type { CheckItem } from './check.js';
import { type AdvisoryFinding, type AdvisoryIndex, findingsOf } from './advisory-match.js';
import { pinnedPackage } from './identifiers.js';
import { flagDefinition } from './vocabulary.js';

/** The advisory findings of one item (none for names and URLs, which name no package version). */
export function itemAdvisoryFindings(item: CheckItem, index: AdvisoryIndex): AdvisoryFinding[] {
  if (typeof item === 'string' || !('package' in item)) return [];
  const pinned = pinnedPackage(item.package);
  if (pinned === undefined) return [];
  return findingsOf(
    index.match({ registry_type: pinned.registry_type, identifier: pinned.name, version: pinned.version }),
  );
}

/** KNOWN_MALICIOUS blocks under every policy; other advisory flags fail where the policy denies them. */
export function isBlocking(finding: AdvisoryFinding): boolean {
  return flagDefinition(finding.flag)?.blocking === true || finding.flag === 'KNOWN_MALICIOUS';
}

/** The reason sentence of a finding, in the form REASON_KINDS recognises (`advisory-…`). */
export function advisoryReason(finding: AdvisoryFinding): string {
  return `advisory ${finding.flag}: ${finding.detail}`;
}
