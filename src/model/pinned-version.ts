/**
 * The version a configuration pins (`npx pkg@1.2.3`, `uvx pkg==1.2.3`, a package URL's `@1.2.3`) judged
 * against the advisories a record keeps for that package (`evidence.advisories`): a compromised release
 * pinned fails although the server's current version is clean, and a fixed version pinned does not carry the
 * flag of the release the record describes.
 */
import { type AdvisoryDetail, advisoryDetails, isAffected } from './advisories.js';
import { parsePackageRef } from './identifiers.js';
import { purlKey } from './purl.js';
import type { ServerRecord } from './schema.js';
import { isVersion } from './versions.js';

/** A check item as `check.ts` defines it (written out here: that module imports this one). */
type CheckItem = string | { package: string } | { purl: string } | { url: string };

const ADVISORY_FLAGS = ['KNOWN_MALICIOUS', 'VULNERABLE_VERSION'];

/** The package key and the version an item pins, when it names a package at a version (not a tag). */
export function pinnedPackage(item: CheckItem): { key: string; version: string } | undefined {
  if (typeof item === 'string' || 'url' in item) return undefined;
  const text = 'package' in item ? item.package.trim() : item.purl.trim();
  let version: string | undefined;
  if ('purl' in item) version = /@([^@/?#]+)(?:[?#].*)?$/.exec(text)?.[1];
  else if (/^pypi:/i.test(text)) version = /==\s*([^\s;,]+)\s*$/.exec(text)?.[1];
  else if (/^(npm|cargo):/i.test(text)) version = /^[a-z]+:@?[^@]+@([^@]+)$/i.exec(text)?.[1];
  if (version === undefined) return undefined;
  const decoded = decodeURIComponent(version);
  if (!isVersion(decoded)) return undefined;
  return { key: 'purl' in item ? purlKey(text) : parsePackageRef(text), version: decoded };
}

/**
 * The record's flags with its advisory flags judged at the pinned version, and a sentence per advisory that
 * affects it; undefined when the item pins no version or the record keeps no advisory for that package.
 */
export function advisoriesAtPinnedVersion(
  item: CheckItem,
  record: ServerRecord,
): { flags: Set<string>; reasons: string[] } | undefined {
  const pinned = pinnedPackage(item);
  if (pinned === undefined) return undefined;
  const details = advisoryDetails(record.evidence).filter((detail) => detail.package === pinned.key);
  if (details.length === 0) return undefined;
  const flags = new Set(
    record.flags.map((flag) => flag.toUpperCase()).filter((flag) => !ADVISORY_FLAGS.includes(flag)),
  );
  const reasons: string[] = [];
  for (const detail of details) {
    if (!isAffected(detail, pinned.version)) continue;
    flags.add(detail.kind === 'malicious' ? 'KNOWN_MALICIOUS' : 'VULNERABLE_VERSION');
    const fix = detail.fixed === null ? '' : `; fixed in ${detail.fixed}`;
    reasons.push(`the version pinned, ${pinned.version}, is affected by ${detail.id} (${detail.summary}${fix})`);
  }
  return { flags, reasons };
}

/**
 * What the advisories say of a package no record holds: a malicious release at the version pinned, or, with
 * no version pinned, any malicious release (the version a launcher installs is then not known), and a
 * vulnerability at the version pinned. Each is a sentence of the blocking kind: known malware fails every
 * policy, allow lists and exceptions included.
 */
export function knownBadPackage(item: CheckItem, advisories: readonly AdvisoryDetail[]): string[] {
  if (advisories.length === 0) return [];
  const version = pinnedPackage(item)?.version ?? null;
  const reasons: string[] = [];
  for (const detail of advisories) {
    const at = version === null ? 'a version of it' : `the version pinned, ${version},`;
    if (detail.kind === 'malicious' && (version === null ? true : isAffected(detail, version))) {
      reasons.push(
        `matches no scored server, but ${at} is a known-malicious release (${detail.id}: ${detail.summary}): carries the flag KNOWN_MALICIOUS, which fails every policy, allow lists and exceptions included`,
      );
    } else if (detail.kind === 'vulnerability' && version !== null && isAffected(detail, version)) {
      const fix = detail.fixed === null ? '' : `; fixed in ${detail.fixed}`;
      reasons.push(`the version pinned, ${version}, is affected by ${detail.id} (${detail.summary}${fix})`);
    }
  }
  return reasons;
}
