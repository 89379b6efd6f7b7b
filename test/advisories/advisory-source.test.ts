import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AdvisoryFileSchema } from '../../src/model/advisories.js';
import { AdvisoryIndex, findingsOf } from '../../src/model/advisory-match.js';
import { EvidenceSchema } from '../../src/model/evidence.js';
import type { PackageRef } from '../../src/model/record-schema.js';
import { ADVISORY_SOURCE_BY, createAdvisorySource } from '../../src/scoring/sources/advisories.js';
import { makeRecord } from '../support/records.js';

// The committed file itself: the checks below are what the offline checker will answer from it.
const committed = AdvisoryFileSchema.parse(
  JSON.parse(readFileSync(new URL('../../data/evidence/advisories.json', import.meta.url), 'utf8')),
);
const source = createAdvisorySource(committed);

function readingFor(packages: PackageRef[]) {
  return source.read({ record: makeRecord({ name: 'io.example/server', packages }) });
}

describe('the committed advisory file', () => {
  it('holds the known malicious MCP packages and the mcp-remote advisory, each credited to its source', () => {
    const ids = committed.advisories.map((advisory) => advisory.id);
    expect(ids).toEqual(
      expect.arrayContaining(['MAL-2025-47604', 'MAL-2026-4069', 'MAL-2025-191788', 'GHSA-6xpm-ggf7-wc3p']),
    );
    expect(committed.sources.map((s) => s.licence)).toEqual(['Apache-2.0', 'CC-BY-4.0']);
    for (const advisory of committed.advisories)
      expect(advisory.source_url).toMatch(/^https:\/\/(osv\.dev|github\.com)\//);
  });
});

describe('the advisory evidence source', () => {
  it('flags a record whose npm package is a malicious release as KNOWN_MALICIOUS, naming the advisory', () => {
    const reading = readingFor([{ registry_type: 'npm', identifier: 'postmark-mcp', version: '1.0.16' }]);
    expect(reading.findings.map((f) => f.flag)).toEqual(['KNOWN_MALICIOUS']);
    expect(reading.findings[0]!.detail).toContain('MAL-2025-47604');
    expect(reading.state).toEqual({
      measured: true,
      at: committed.generated_at,
      by: ADVISORY_SOURCE_BY,
      third_party: true,
      missing: null,
    });
  });

  it('does not flag the releases before a package turned malicious', () => {
    const reading = readingFor([{ registry_type: 'npm', identifier: 'postmark-mcp', version: '1.0.15' }]);
    expect(reading.findings).toEqual([]);
    expect(reading.detail).toEqual([expect.objectContaining({ id: 'MAL-2025-47604', affected: false })]);
  });

  it('fails closed on a malicious record when the record names no version', () => {
    const reading = readingFor([{ registry_type: 'npm', identifier: '@antv/mcp-server-chart', version: null }]);
    expect(reading.findings.map((f) => f.flag)).toEqual(['KNOWN_MALICIOUS']);
  });

  it('flags only the compromised versions of a package compromised in one release', () => {
    expect(
      readingFor([{ registry_type: 'npm', identifier: '@antv/mcp-server-chart', version: '0.11.10' }]).findings,
    ).toHaveLength(1);
    expect(
      readingFor([{ registry_type: 'npm', identifier: '@antv/mcp-server-chart', version: '0.11.9' }]).findings,
    ).toEqual([]);
  });

  it('gives VULNERABLE_VERSION with the advisory ids and the fixed version inside the affected range', () => {
    const reading = readingFor([{ registry_type: 'npm', identifier: 'mcp-remote', version: '0.1.15' }]);
    expect(reading.findings).toEqual([
      {
        flag: 'VULNERABLE_VERSION',
        detail: 'npm:mcp-remote@0.1.15 is affected by GHSA-6xpm-ggf7-wc3p / CVE-2025-6514; fixed in 0.1.16',
      },
    ]);
    expect(readingFor([{ registry_type: 'npm', identifier: 'mcp-remote', version: '0.1.16' }]).findings).toEqual([]);
  });

  it('matches PyPI names by their normal form', () => {
    const reading = readingFor([{ registry_type: 'pypi', identifier: 'MCP_Runcmd.Server', version: '2.0' }]);
    expect(reading.findings.map((f) => f.flag)).toEqual(['KNOWN_MALICIOUS']);
  });

  it('says why it measured nothing when no package is in an ecosystem the databases cover', () => {
    const reading = readingFor([{ registry_type: 'oci', identifier: 'docker.io/acme/server', version: '1.0.0' }]);
    expect(reading.state.measured).toBe(false);
    expect(reading.state.missing).toMatch(/no package in an ecosystem/);
    expect(reading.findings).toEqual([]);
  });

  it('keeps a state and detail that the record evidence schema accepts', () => {
    const reading = readingFor([{ registry_type: 'npm', identifier: 'mcp-remote', version: '0.1.0' }]);
    const parsed = EvidenceSchema.shape.sources.shape.advisories.safeParse(reading.state);
    expect(parsed.success).toBe(true);
    expect(EvidenceSchema.shape.advisories.safeParse(reading.detail).success).toBe(true);
  });
});

describe('findings of matches', () => {
  it('does not raise VULNERABLE_VERSION when the version cannot be read', () => {
    const index = new AdvisoryIndex(committed.advisories);
    expect(findingsOf(index.match({ registry_type: 'npm', identifier: 'mcp-remote', version: 'latest' }))).toEqual([]);
  });
});
