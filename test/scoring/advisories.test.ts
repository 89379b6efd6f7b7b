/** Advisories: OSV's version ranges, the advisory source's findings, and the version a configuration pins. */
import { describe, expect, it } from 'vitest';
import { type AdvisoryFile, isAffected } from '../../src/model/advisories.js';
import { judge, PolicySchema } from '../../src/model/check.js';
import { pinnedPackage } from '../../src/model/pinned-version.js';
import { compareVersions, inRange } from '../../src/model/versions.js';
import { advisoriesSourceOf } from '../../src/scoring/sources/advisories.js';
import { makeRecord } from '../support/records.js';

describe('versions and ranges', () => {
  it('orders SemVer and release numbers, a pre-release before its release', () => {
    expect(compareVersions('1.0.16', '1.0.9')).toBeGreaterThan(0);
    expect(compareVersions('0.9.0-beta.1', '0.9.0')).toBeLessThan(0);
    expect(compareVersions('0.9.0-beta.2', '0.9.0-beta.10')).toBeLessThan(0);
    expect(compareVersions('1.2', '1.2.0')).toBe(0);
    expect(compareVersions('2.0rc1', '2.0')).toBeLessThan(0);
  });

  it('reads OSV events: introduced opens, fixed closes, last_affected closes after itself, "0" is the start', () => {
    const fixed = [{ introduced: '0.0.5' }, { fixed: '0.1.16' }];
    expect(inRange('0.0.4', fixed)).toBe(false);
    expect(inRange('0.0.5', fixed)).toBe(true);
    expect(inRange('0.1.15', fixed)).toBe(true);
    expect(inRange('0.1.16', fixed)).toBe(false);
    expect(inRange('9.9.9', [{ introduced: '0' }])).toBe(true);
    expect(inRange('1.1.0', [{ introduced: '1.0.0' }, { last_affected: '1.1.0' }])).toBe(true);
    expect(inRange('1.1.1', [{ introduced: '1.0.0' }, { last_affected: '1.1.0' }])).toBe(false);
    const listed = { ranges: [], versions: ['0.10.10', '0.11.10'] };
    expect(isAffected(listed, '0.11.10')).toBe(true);
    expect(isAffected(listed, '0.11.11')).toBe(false);
    expect(isAffected(listed, null)).toBe(false);
    expect(isAffected({ ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }], versions: [] }, null)).toBe(true);
  });
});

const FILE: AdvisoryFile = {
  generated_at: '2026-11-28T19:45:00Z',
  sources: [{ name: 'test advisories', repository: 'example/advisories', commit: 'abc', licence: 'CC0-1.0' }],
  advisories: [
    {
      id: 'MAL-2026-4069',
      aliases: [],
      kind: 'malicious',
      summary: 'Malicious code in @antv/mcp-server-chart (npm)',
      severity: null,
      published: '2026-05-19T00:00:00Z',
      modified: '2026-05-19T11:25:01Z',
      url: 'https://github.com/advisories/GHSA-qgmj-c898-99rq',
      affected: [{ ecosystem: 'npm', name: '@antv/mcp-server-chart', ranges: [], versions: ['0.10.10', '0.11.10'] }],
    },
    {
      id: 'GHSA-6xpm-ggf7-wc3p',
      aliases: ['CVE-2025-6514'],
      kind: 'vulnerability',
      summary: 'mcp-remote exposed to OS command injection via untrusted MCP server connections',
      severity: 'critical',
      published: '2025-07-09T15:30:44Z',
      modified: '2025-07-09T18:08:44Z',
      url: 'https://nvd.nist.gov/vuln/detail/CVE-2025-6514',
      affected: [
        {
          ecosystem: 'npm',
          name: 'mcp-remote',
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0.0.5' }, { fixed: '0.1.16' }] }],
          versions: [],
        },
      ],
    },
  ],
};
const source = advisoriesSourceOf(FILE);
const chart = (version: string) =>
  makeRecord({
    name: 'io.github.antvis/mcp-server-chart',
    trust_score: 70,
    trust_label: 'Moderate Trust',
    packages: [{ registry_type: 'npm', identifier: '@antv/mcp-server-chart', version }],
  });

describe('the advisory source', () => {
  it('keeps the advisories of a record’s packages and flags its own version only when it is affected', () => {
    const clean = source.read({ record: chart('0.9.0-beta.1') });
    expect(clean.state.measured).toBe(true);
    expect(clean.state.third_party).toBe(true);
    expect(clean.findings).toEqual([]);
    expect((clean.detail as { id: string }[]).map((d) => d.id)).toEqual(['MAL-2026-4069']);
    const compromised = source.read({ record: chart('0.11.10') });
    expect(compromised.findings.map((f) => f.flag)).toEqual(['KNOWN_MALICIOUS']);
    const remote = makeRecord({
      name: 'a.b/remote',
      trust_score: 70,
      trust_label: 'Moderate Trust',
      packages: [{ registry_type: 'npm', identifier: 'mcp-remote', version: '0.1.10' }],
    });
    const vulnerable = source.read({ record: remote });
    expect(vulnerable.findings).toEqual([
      {
        flag: 'VULNERABLE_VERSION',
        detail: 'GHSA-6xpm-ggf7-wc3p: npm:mcp-remote version 0.1.10 is vulnerable (fixed in 0.1.16)',
      },
    ]);
    const none = source.read({
      record: makeRecord({ name: 'a.b/c', trust_score: 70, trust_label: 'Moderate Trust', packages: [] }),
    });
    expect(none.state).toMatchObject({ measured: false, missing: expect.stringMatching(/^no package/) });
  });
});

describe('the version a configuration pins', () => {
  it('is read from npm, PyPI and package URL forms, never from a tag', () => {
    expect(pinnedPackage({ package: 'npm:@antv/mcp-server-chart@0.11.10' })).toEqual({
      key: 'npm:@antv/mcp-server-chart',
      version: '0.11.10',
    });
    expect(pinnedPackage({ package: 'pypi:mcp-server-fetch==0.6.3' })).toEqual({
      key: 'pypi:mcp-server-fetch',
      version: '0.6.3',
    });
    expect(pinnedPackage({ purl: 'pkg:npm/%40antv/mcp-server-chart@0.10.10' })).toEqual({
      key: 'npm:@antv/mcp-server-chart',
      version: '0.10.10',
    });
    expect(pinnedPackage({ package: 'npm:@playwright/mcp@latest' })).toBeUndefined();
    expect(pinnedPackage({ package: 'npm:postmark-mcp' })).toBeUndefined();
  });

  it('fails a compromised release pinned of a clean server, and passes the release after it', async () => {
    const detail = source.read({ record: chart('0.9.0-beta.1') }).detail as unknown[];
    const record = { ...chart('0.9.0-beta.1'), evidence: { ...evidenceStub(), advisories: detail } };
    const policy = PolicySchema.parse({});
    const bad = judge({ package: 'npm:@antv/mcp-server-chart@0.11.10' }, [record], policy, '2026-11-28');
    expect(bad.verdict).toBe('fail');
    expect(bad.reasons.join('\n')).toContain('the version pinned, 0.11.10, is affected by MAL-2026-4069');
    expect(judge({ package: 'npm:@antv/mcp-server-chart@0.11.11' }, [record], policy, '2026-11-28').verdict).toBe(
      'pass',
    );
    expect(judge({ package: 'npm:@antv/mcp-server-chart' }, [record], policy, '2026-11-28').verdict).toBe('pass');
  });
});

function evidenceStub() {
  const state = { measured: true, at: '2026-11-28T00:00:00Z', by: 'test', third_party: true, signals: {} } as const;
  return {
    method: 'mts-2',
    confidence: 100,
    sources: { registry: state, repository: state, packages: state, probe: state, advisories: state },
  };
}

describe('a package no record holds', () => {
  const index = new Map([
    [
      'npm:postmark-mcp',
      [
        {
          id: 'MAL-2025-47604',
          kind: 'malicious' as const,
          summary: 'Malicious code in postmark-mcp (npm)',
          package: 'npm:postmark-mcp',
          ranges: [{ type: 'SEMVER' as const, events: [{ introduced: '1.0.16' }] }],
          versions: [],
          fixed: null,
          url: 'https://osv.dev/vulnerability/MAL-2025-47604',
        },
      ],
    ],
  ]);
  const lenient = PolicySchema.parse({ allow: ['npm:postmark-mcp'], min_score: 0 });

  it('fails when an advisory names it as malware, unpinned or at a malicious release, allow list or not', () => {
    for (const item of [{ package: 'npm:postmark-mcp' }, { package: 'npm:postmark-mcp@1.0.16' }]) {
      const result = judge(item, [], lenient, '2026-11-28', index.get('npm:postmark-mcp'));
      expect(result.verdict).toBe('fail');
      expect(result.reasons[0]).toMatch(
        /^matches no scored server, but .* is a known-malicious release \(MAL-2025-47604/,
      );
    }
  });

  it('is judged as unknown at a release before the malicious ones', () => {
    const result = judge(
      { package: 'npm:postmark-mcp@1.0.15' },
      [],
      PolicySchema.parse({}),
      '2026-11-28',
      index.get('npm:postmark-mcp'),
    );
    expect(result.verdict).toBe('warn');
  });
});
