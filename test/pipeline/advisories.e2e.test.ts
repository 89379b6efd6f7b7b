/**
 * The advisories step against a stand-in of OSV that speaks its published API (querybatch with paging,
 * vulns/{id}, 429 with Retry-After): malicious-package records and vulnerabilities attached to the records that
 * name their packages, with ids and fixed versions; an unchanged second night that asks only the batch query
 * and what could not be read; a 500 that leaves the night going with advisories unread and said; one bad
 * advisory record that never stops the rest; the committed hand-made advisories kept for the packages OSV was
 * not asked about.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdvisoryFileSchema, type AdvisoryFile } from '../../src/model/advisories.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { advisoryOf, OsvVulnerabilitySchema } from '../../src/pipeline/osv/answers.js';
import { osvPackagesOf, readAdvisories, type CachedVuln } from '../../src/pipeline/osv/read-advisories.js';
import { rescore, type RescoreOptions } from '../../src/pipeline/rescore.js';
import { advisoriesSourceOf } from '../../src/scoring/sources/advisories.js';
import { startGitHubStandIn } from '../support/github-standin.js';
import { osvSchemaErrors } from '../support/osv-openapi.js';
import { startOsvStandIn, type OsvRecord } from '../support/osv-standin.js';
import { startRegistryStandIn } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { runRescore, standInArgs } from '../support/rescore-run.js';
import { standInNight } from '../support/night-options.js';
import { makeTempDir } from '../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const AS_OF = '2026-02-21T22:49:33.106359Z';
const POLICY = { timeoutMs: 5000, retries: 2, backoffMs: 5, maxRetryAfterMs: 2000 };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** OSV records as the service writes them, after the real ones of the same ids. */
const RECORDS: OsvRecord[] = [
  {
    schema_version: '1.7.0',
    id: 'MAL-2025-47604',
    summary: 'Malicious code in postmark-mcp (npm)',
    details: 'The package sends a blind copy of every email to its author.',
    published: '2025-09-26T04:14:45Z',
    modified: '2025-09-26T04:14:45.123456Z',
    affected: [
      {
        package: { ecosystem: 'npm', name: 'postmark-mcp', purl: 'pkg:npm/postmark-mcp' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.16' }] }],
        database_specific: { source: 'https://github.com/ossf/malicious-packages' },
      },
    ],
    database_specific: { 'malicious-packages-origins': [{ source: 'ghsa-malware' }] },
  },
  {
    id: 'GHSA-6xpm-ggf7-wc3p',
    aliases: ['CVE-2025-6514'],
    summary: 'mcp-remote exposed to OS command injection via untrusted MCP server connections',
    published: '2025-07-09T15:30:44Z',
    modified: '2025-07-09T18:08:44Z',
    affected: [
      {
        package: { ecosystem: 'npm', name: 'mcp-remote' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0.0.5' }, { fixed: '0.1.16' }] }],
      },
    ],
    references: [{ type: 'ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2025-6514' }],
    database_specific: { severity: 'CRITICAL', cwe_ids: ['CWE-78'] },
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:H/A:H' }],
  },
  {
    id: 'GHSA-p7q2-mcp9-fetc',
    summary: 'mcp-server-fetch can be made to fetch local addresses',
    published: '2025-05-01T10:00:00Z',
    modified: '2025-05-02T10:00:00Z',
    affected: [
      {
        package: { ecosystem: 'PyPI', name: 'mcp-server-fetch' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '0.6.3' }] }],
        versions: ['0.1.0', '0.6.2'],
      },
    ],
    database_specific: { severity: 'MODERATE' },
  },
  // Valid for OSV's description, not for the advisory file: an event that is two events at once.
  {
    id: 'GHSA-bad0-bad0-bad0',
    summary: 'a record whose range cannot be read',
    modified: '2025-08-01T00:00:00Z',
    affected: [
      {
        package: { ecosystem: 'npm', name: 'mcp-remote' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0', fixed: '0.0.3' }] }],
      },
    ],
  },
  // Answered as a body that is not JSON (the stand-in's `garbled`).
  {
    id: 'GHSA-garb-led0-0000',
    summary: 'answered garbled',
    modified: '2025-08-02T00:00:00Z',
    affected: [{ package: { ecosystem: 'npm', name: 'postmark-mcp' }, versions: ['1.0.0'] }],
  },
  {
    id: 'GO-2025-0001',
    summary: 'a package no record names',
    modified: '2025-08-03T00:00:00Z',
    affected: [
      {
        package: { ecosystem: 'Go', name: 'example.com/x' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }],
      },
    ],
  },
];

async function osvStandIn(pageSize = 1000) {
  const osv = await startOsvStandIn(structuredClone(RECORDS), pageSize);
  osv.garbled.add('GHSA-garb-led0-0000');
  open.push(osv);
  return osv;
}

const PACKAGES = osvPackagesOf([
  { packages: [{ registryType: 'npm', identifier: 'postmark-mcp', version: '1.0.16' }] },
  { packages: [{ registryType: 'npm', identifier: 'mcp-remote', version: '0.1.10' }] },
  {
    packages: [
      { registryType: 'pypi', identifier: 'MCP_Server_Fetch', version: '0.6.2' },
      { registryType: 'oci', identifier: 'docker.io/acme/tool:1.0' },
    ],
  },
]);

const committed = () =>
  AdvisoryFileSchema.parse(JSON.parse(readFileSync(path.join(ROOT, 'data/evidence/advisories.json'), 'utf8')));

describe('OSV’s answers', () => {
  it('are read as OSV writes them, and a record is cut to an advisory with its fixed version', () => {
    for (const record of RECORDS) expect(osvSchemaErrors('osvVulnerability', record)).toEqual([]);
    // The description is held closed: a member it does not name, or a range type it does not know, fails.
    expect(osvSchemaErrors('osvVulnerability', { ...RECORDS[0], modfied: 'x' })).not.toEqual([]);
    expect(
      osvSchemaErrors('v1BatchVulnerabilityList', {
        results: [{ vulns: [{ id: 'A-1', modified: 'x' }], next_token: 'n' }],
      }),
    ).not.toEqual([]);
    const made = advisoryOf(OsvVulnerabilitySchema.parse(RECORDS[1]));
    expect(made).toEqual({
      advisory: expect.objectContaining({
        id: 'GHSA-6xpm-ggf7-wc3p',
        kind: 'vulnerability',
        severity: 'critical',
        aliases: ['CVE-2025-6514'],
        url: 'https://osv.dev/vulnerability/GHSA-6xpm-ggf7-wc3p',
      }),
    });
    expect(advisoryOf(OsvVulnerabilitySchema.parse(RECORDS[0]))).toMatchObject({
      advisory: { kind: 'malicious', modified: '2025-09-26T04:14:45.123Z' },
    });
    expect(advisoryOf(OsvVulnerabilitySchema.parse(RECORDS[3]))).toEqual({
      refused: expect.stringMatching(/mcp-remote/),
    });
    expect(advisoryOf(OsvVulnerabilitySchema.parse(RECORDS[5]))).toEqual({ skipped: expect.any(String) });
    expect(advisoryOf(OsvVulnerabilitySchema.parse({ ...RECORDS[0], withdrawn: '2025-10-01T00:00:00Z' }))).toEqual({
      skipped: 'withdrawn',
    });
  });

  it('names the packages OSV is asked about, one per key, and counts those with no OSV ecosystem', () => {
    expect(PACKAGES.packages.map((pkg) => [pkg.key, pkg.ecosystem, pkg.name])).toEqual([
      ['npm:mcp-remote', 'npm', 'mcp-remote'],
      ['npm:postmark-mcp', 'npm', 'postmark-mcp'],
      ['pypi:mcp-server-fetch', 'PyPI', 'MCP_Server_Fetch'],
    ]);
    expect(PACKAGES.skipped).toBe(1);
  });
});

describe('reading advisories from OSV', () => {
  const read = (
    url: string,
    cache: Map<string, CachedVuln>,
    extra: { batchSize?: number; previous?: AdvisoryFile } = {},
  ) =>
    readAdvisories(PACKAGES.packages, {
      url,
      cache,
      concurrency: 3,
      policy: POLICY,
      readAt: '2026-11-28T22:00:00.000Z',
      ...extra,
    });

  it('asks in batches, follows every query’s next page, and reads each advisory once', async () => {
    const osv = await osvStandIn(1);
    const { file, counts, notes } = await read(osv.url, new Map(), { batchSize: 2 });
    expect(osv.errors).toEqual([]);
    const batches = osv.log.filter((entry) => entry.path === '/v1/querybatch');
    // Page 1: 3 queries in batches of 2; page 2: postmark-mcp and mcp-remote have one id more each.
    expect(batches.map((entry) => [entry.queries, entry.pageTokens])).toEqual([
      [2, 0],
      [1, 0],
      [2, 2],
    ]);
    const gets = osv.log.filter((entry) => entry.method === 'GET').map((entry) => entry.path);
    expect(gets.sort()).toEqual(
      ['GHSA-6xpm-ggf7-wc3p', 'GHSA-bad0-bad0-bad0', 'GHSA-garb-led0-0000', 'GHSA-p7q2-mcp9-fetc', 'MAL-2025-47604']
        .map((id) => `/v1/vulns/${id}`)
        .sort(),
    );
    expect(file.advisories.map((advisory) => advisory.id)).toEqual([
      'GHSA-6xpm-ggf7-wc3p',
      'GHSA-p7q2-mcp9-fetc',
      'MAL-2025-47604',
    ]);
    expect(counts).toMatchObject({ packages: 3, advisories: 3, malicious: 1, read: 3, cached: 0, leftOut: 2, kept: 0 });
    expect(counts.requests).toBe(3 + 5);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^OSV advisory GHSA-bad0-bad0-bad0 left out: does not fit the advisory schema/),
        expect.stringMatching(/^OSV advisory GHSA-garb-led0-0000 left out: answered with a body that is not JSON/),
      ]),
    );
  });

  it('asks only the batch query and what it could not read on an unchanged night, and re-reads what changed', async () => {
    const osv = await osvStandIn();
    const cache = new Map<string, CachedVuln>();
    const first = await read(osv.url, cache);
    osv.log.length = 0;
    const second = await read(osv.url, cache);
    expect(second.file.advisories).toEqual(first.file.advisories);
    expect(second.counts).toMatchObject({ read: 0, cached: 3, leftOut: 2 });
    expect(osv.log.map((entry) => `${entry.method} ${entry.path}`).sort()).toEqual([
      'GET /v1/vulns/GHSA-bad0-bad0-bad0',
      'GET /v1/vulns/GHSA-garb-led0-0000',
      'POST /v1/querybatch',
    ]);

    osv.records[1]!.modified = '2025-12-01T00:00:00Z';
    (osv.records[1]!.affected![0]!.ranges![0]!.events[1] as Record<string, string>).fixed = '0.1.17';
    osv.log.length = 0;
    const third = await read(osv.url, cache);
    expect(osv.log.filter((entry) => entry.path === '/v1/vulns/GHSA-6xpm-ggf7-wc3p')).toHaveLength(1);
    expect(third.counts).toMatchObject({ read: 1, cached: 2 });
    const fixed = third.file.advisories.find((advisory) => advisory.id === 'GHSA-6xpm-ggf7-wc3p');
    expect(fixed?.affected[0]?.ranges[0]?.events).toContainEqual({ fixed: '0.1.17' });
  });

  it('waits out a 429’s Retry-After', async () => {
    const osv = await osvStandIn();
    osv.limits.push({ path: '/v1/querybatch', times: 1, retryAfter: 1 });
    osv.limits.push({ path: '/v1/vulns/MAL-2025-47604', times: 1, retryAfter: 1 });
    const { counts } = await read(osv.url, new Map());
    expect(osv.log.filter((entry) => entry.status === 429)).toHaveLength(2);
    expect(counts).toMatchObject({ read: 3, advisories: 3 });
  });

  it('keeps the previous file’s advisories of packages OSV did not answer in full, and drops what OSV answered', async () => {
    const osv = await osvStandIn();
    const previous = committed();
    const { file, counts } = await read(osv.url, new Map(), { previous });
    const ids = new Set(file.advisories.map((advisory) => advisory.id));
    // postmark-mcp has an advisory OSV could not give (garbled): what the file knew of it stays.
    const keptIds = previous.advisories
      .filter((advisory) => !['GHSA-6xpm-ggf7-wc3p', 'MAL-2025-47604'].includes(advisory.id))
      .map((advisory) => advisory.id);
    for (const id of keptIds) expect(ids.has(id)).toBe(true);
    expect(counts.kept).toBe(keptIds.length);
    expect(file.sources.map((source) => source.name)).toEqual([...previous.sources.map((s) => s.name), 'OSV']);
    // OSV's reading of an id replaces the hand-made one.
    expect(file.advisories.filter((advisory) => advisory.id === 'MAL-2025-47604')).toHaveLength(1);
    expect(file.advisories.find((advisory) => advisory.id === 'MAL-2025-47604')?.modified).toBe(
      '2025-09-26T04:14:45.123Z',
    );
  });

  it('stops with one line when the batch query keeps failing', async () => {
    const osv = await osvStandIn();
    osv.failures.push({ path: '/v1/querybatch', status: 500 });
    await expect(read(osv.url, new Map())).rejects.toThrow(/^OSV querybatch answered 500 \(after 3 attempts\)$/);
  });
});

describe('the advisories step of a rescoring', () => {
  async function night(osvUrl: string) {
    const fixtures = smallFixtures(3);
    const transport = { type: 'stdio' };
    fixtures.entries[0]!.server.packages = [
      { registryType: 'npm', identifier: 'postmark-mcp', version: '1.0.16', transport },
    ];
    fixtures.entries[1]!.server.packages = [
      { registryType: 'npm', identifier: 'mcp-remote', version: '0.1.10', transport },
    ];
    fixtures.entries[2]!.server.packages = [
      { registryType: 'pypi', identifier: 'mcp-server-fetch', version: '0.6.3', transport },
    ];
    const registry = await startRegistryStandIn(fixtures.entries);
    const github = await startGitHubStandIn(fixtures.repositories, { token: 't' });
    open.push(registry, github);
    const dir = await makeTempDir('advisories-');
    const out = path.join(dir, 'out');
    const options: RescoreOptions = {
      ...standInNight({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, dir, registryPolicy: POLICY }),
      advisories: { url: osvUrl, concurrency: 2, policy: { ...POLICY, retries: 1 } },
    };
    return { fixtures, out, options, names: fixtures.entries.map((entry) => entry.server.name) };
  }

  const records = (out: string) =>
    new Map(
      (JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[]).map((r) => [r.name, r]),
    );
  const advisories = (out: string) =>
    AdvisoryFileSchema.parse(JSON.parse(readFileSync(path.join(out, 'evidence', 'advisories.json'), 'utf8')));

  it('writes <out>/evidence/advisories.json, whose advisories flag the records that name their packages', async () => {
    const osv = await osvStandIn();
    const { out, options, names } = await night(osv.url);
    const summary = await rescore(options);
    expect(osv.errors).toEqual([]);
    expect(summary.advisories).toMatchObject({ packages: 3, read: 3, leftOut: 2, advisories: 3, malicious: 1 });
    const source = advisoriesSourceOf(advisories(out));
    const byName = records(out);
    const findings = names.map((name) => source.read({ record: byName.get(name)! }).findings);
    expect(findings[0]).toEqual([
      {
        flag: 'KNOWN_MALICIOUS',
        detail: 'MAL-2025-47604: npm:postmark-mcp version 1.0.16 is a known-malicious release',
      },
    ]);
    expect(findings[1]).toEqual([
      {
        flag: 'VULNERABLE_VERSION',
        detail: 'GHSA-6xpm-ggf7-wc3p: npm:mcp-remote version 0.1.10 is vulnerable (fixed in 0.1.16)',
      },
    ]);
    // The fixed version is named, and not flagged.
    expect(findings[2]).toEqual([]);
    expect(summary.notes).toEqual(expect.arrayContaining([expect.stringMatching(/GHSA-bad0-bad0-bad0 left out/)]));

    osv.log.length = 0;
    const again = await rescore(options);
    expect(again.advisories).toMatchObject({ read: 0, cached: 3, leftOut: 2 });
    // Only the two advisories it could not read are asked again.
    expect(
      osv.log
        .filter((entry) => entry.method === 'GET')
        .map((entry) => entry.path)
        .sort(),
    ).toEqual(['/v1/vulns/GHSA-bad0-bad0-bad0', '/v1/vulns/GHSA-garb-led0-0000']);
  });

  it('goes on when OSV answers 500: the dataset is written, the advisory file left as it was, and it says so', async () => {
    const osv = await osvStandIn();
    osv.failures.push({ path: '/v1/querybatch', status: 500 });
    const { out, options, names } = await night(osv.url);
    mkdirSync(path.join(out, 'evidence'), { recursive: true });
    const before = `${JSON.stringify(committed(), null, 2)}\n`;
    writeFileSync(path.join(out, 'evidence', 'advisories.json'), before);
    const summary = await rescore(options);
    expect(summary.scored).toBe(names.length);
    expect(summary.advisories).toEqual({ unread: 'OSV querybatch answered 500 (after 2 attempts)' });
    expect(summary.notes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^advisories not read this night \(OSV querybatch answered 500/)]),
    );
    expect(readFileSync(path.join(out, 'evidence', 'advisories.json'), 'utf8')).toBe(before);
    expect([...records(out).keys()].sort()).toEqual([...names].sort());
  });

  it('npm run rescore counts the advisories in its summary line, and --no-advisories skips OSV', async () => {
    const osv = await osvStandIn();
    const { out, options } = await night(osv.url);
    const args = standInArgs({
      registryUrl: options.registryUrl,
      githubUrl: options.githubApiUrl,
      asOf: AS_OF,
      cache: options.cache,
    });
    const run = await runRescore(
      [...args.filter((arg) => arg !== '--no-advisories'), '--out', out, '--osv-url', osv.url],
      { token: 't' },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /; advisories: 3 packages asked of OSV \(0 with no OSV ecosystem, such as OCI images, not asked\), 3 advisories written \(1 malicious, 0 kept from the previous file\), 3 records read, 0 unchanged from the cache, 2 left out; \d+ OSV requests\n$/,
    );
    expect(run.stderr).toMatch(/rescore: OSV advisory GHSA-bad0-bad0-bad0 left out/);
    osv.log.length = 0;
    const skipped = await runRescore([...args, '--out', out, '--osv-url', osv.url], { token: 't' });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).not.toMatch(/; advisories:/);
    expect(osv.log).toEqual([]);
  }, 120_000);
});
