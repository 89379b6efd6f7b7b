/**
 * The packages step against stand-ins of npm, PyPI and crates.io that speak their documented APIs: the facts of
 * each package (repository, maintainers, publish times, deprecation, provenance, yanked, npm's security
 * takedown), a 404 as an answer, a second night that costs only 304s, a 429 waited out when its Retry-After is
 * short and left unread (never fatal) when it is not, and names no registry allows never asked. Then the step
 * inside a rescoring, which writes `<out>/evidence/packages.json` with the dataset.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PackageFactsFileSchema } from '../../src/model/package-facts.js';
import { ociReference } from '../../src/pipeline/packages/oci.js';
import { packagesOf, readPackages, type CachedPackage } from '../../src/pipeline/packages/read-packages.js';
import { rescore } from '../../src/pipeline/rescore.js';
import { startGitHubStandIn } from '../support/github-standin.js';
import { startOciRegistryStandIn } from '../support/oci-registry-standin.js';
import { startPackageRegistriesStandIn, type StandInPackage } from '../support/package-registries-standin.js';
import { startRegistryStandIn } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { runRescore, standInArgs } from '../support/rescore-run.js';
import { standInNight } from '../support/night-options.js';
import { makeTempDir } from '../support/temp.js';

const AS_OF = '2026-02-21T22:49:33.106359Z';
const POLICY = { timeoutMs: 5000, retries: 2, backoffMs: 5, maxRetryAfterMs: 2000 };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const now = Date.now();
const daysAgo = (days: number) => new Date(now - days * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

const PACKAGES: StandInPackage[] = [
  {
    registry: 'npm',
    name: '@acme/mcp-server',
    repository: 'https://github.com/acme/mcp-server',
    maintainers: ['ann', 'bob'],
    versions: [
      { version: '1.0.0', publishedAt: daysAgo(500) },
      { version: '1.1.0', publishedAt: daysAgo(20), provenance: true },
    ],
  },
  {
    registry: 'npm',
    name: 'old-mcp',
    versions: [{ version: '0.1.0', publishedAt: daysAgo(800), deprecated: 'use new-mcp instead' }],
  },
  {
    registry: 'npm',
    name: 'evil-mcp',
    versions: [
      { version: '1.0.0', publishedAt: daysAgo(90) },
      { version: '0.0.1-security', publishedAt: daysAgo(10) },
    ],
  },
  {
    registry: 'pypi',
    name: 'mcp-server-git',
    repository: 'https://github.com/acme/mcp-server-git',
    versions: [
      { version: '0.9.0', publishedAt: daysAgo(400) },
      { version: '1.0.0', publishedAt: daysAgo(30), yanked: true },
    ],
  },
  {
    registry: 'cargo',
    name: 'mcp-rs',
    repository: 'https://github.com/acme/mcp-rs',
    versions: [{ version: '0.3.1', publishedAt: daysAgo(5) }],
  },
];

const REFS = packagesOf([
  {
    packages: [
      { registryType: 'npm', identifier: '@acme/mcp-server@1.1.0' },
      { registryType: 'npm', identifier: 'old-mcp' },
      { registryType: 'npm', identifier: 'evil-mcp' },
      { registryType: 'npm', identifier: 'missing-mcp' },
    ],
  },
  { packages: [{ registryType: 'pypi', identifier: 'MCP_Server_Git==1.0.0' }] },
  { packages: [{ registryType: 'cargo', identifier: 'mcp-rs' }] },
  { packages: [{ registryType: 'nuget', identifier: 'Acme.Tool' }] },
]);

async function standIn() {
  const registries = await startPackageRegistriesStandIn(structuredClone(PACKAGES));
  open.push(registries);
  const urls = { npm: registries.url, pypi: registries.url, cargo: registries.url };
  return { registries, urls };
}

describe('reading package facts', () => {
  it('gives each registry’s facts of every package, and a 404 as not found', async () => {
    const { registries, urls } = await standIn();
    const readAt = new Date(now).toISOString();
    const { file, requests } = await readPackages(REFS, {
      urls,
      cache: new Map(),
      concurrency: 3,
      policy: POLICY,
      readAt,
    });
    expect(PackageFactsFileSchema.parse(file)).toEqual(file);
    expect(requests).toBe(6);
    expect(registries.log.map((entry) => entry.path).sort()).toEqual(
      [
        '/@acme%2Fmcp-server',
        '/api/v1/crates/mcp-rs',
        '/evil-mcp',
        '/missing-mcp',
        '/old-mcp',
        '/pypi/MCP_Server_Git/json',
      ].sort(),
    );
    expect(file.packages['npm:@acme/mcp-server']).toMatchObject({
      found: true,
      repository_url: 'https://github.com/acme/mcp-server',
      latest_version: '1.1.0',
      latest_published_at: new Date(daysAgo(20)).toISOString(),
      versions_past_year: 1,
      maintainers: 2,
      provenance: true,
      deprecated: null,
      security_takedown: false,
      read_at: readAt,
    });
    expect(file.packages['npm:old-mcp']).toMatchObject({ deprecated: 'use new-mcp instead', provenance: false });
    expect(file.packages['npm:evil-mcp']).toMatchObject({ security_takedown: true, latest_version: '0.0.1-security' });
    expect(file.packages['npm:missing-mcp']).toMatchObject({ found: false, latest_version: null });
    expect(file.packages['pypi:mcp-server-git']).toMatchObject({
      repository_url: 'https://github.com/acme/mcp-server-git',
      latest_version: '1.0.0',
      yanked: true,
      versions_past_year: 1,
      provenance: null,
    });
    expect(file.packages['cargo:mcp-rs']).toMatchObject({
      repository_url: 'https://github.com/acme/mcp-rs',
      latest_published_at: new Date(daysAgo(5)).toISOString(),
      yanked: false,
    });
    expect(file.unread).toEqual([]);
  });

  it('costs only 304s on an unchanged night, and reads again what changed', async () => {
    const { registries, urls } = await standIn();
    const cache = new Map<string, CachedPackage>();
    const options = { urls, cache, concurrency: 2, policy: POLICY, readAt: new Date(now).toISOString() };
    const first = await readPackages(REFS, options);
    registries.log.length = 0;
    const second = await readPackages(REFS, options);
    expect(second.notModified).toBe(5); // the 404 is asked again: a package may be published meanwhile
    expect(registries.log.filter((entry) => entry.status === 200)).toEqual([]);
    expect(second.file.packages).toEqual(first.file.packages);

    registries.packages[4]!.versions.push({ version: '0.4.0', publishedAt: daysAgo(1) });
    const third = await readPackages(REFS, options);
    expect(third.notModified).toBe(4);
    expect(third.file.packages['cargo:mcp-rs']!.latest_version).toBe('0.4.0');
  });

  it('waits out a short Retry-After, and leaves a package unread past the bound without stopping', async () => {
    const { registries, urls } = await standIn();
    registries.limits.push({ path: '/old-mcp', times: 1, retryAfter: 1 });
    registries.limits.push({ path: '/evil-mcp', times: 5, retryAfter: 3600 });
    const { file } = await readPackages(REFS, {
      urls,
      cache: new Map(),
      concurrency: 3,
      policy: POLICY,
      readAt: new Date(now).toISOString(),
    });
    expect(file.packages['npm:old-mcp']!.found).toBe(true);
    expect(file.packages['npm:evil-mcp']).toBeUndefined();
    expect(file.unread).toEqual([
      expect.objectContaining({ identifier: 'evil-mcp', missing: expect.stringMatching(/answered 429/) }),
    ]);
    expect(Object.keys(file.packages)).toHaveLength(5);
  });

  it('never asks for a name the registry does not allow, and names it unread', async () => {
    const { registries, urls } = await standIn();
    const hostile = packagesOf([
      {
        packages: [
          { registryType: 'npm', identifier: '../../admin' },
          { registryType: 'pypi', identifier: 'a/../../b' },
        ],
      },
      { packages: [{ registryType: 'cargo', identifier: '%2e%2e' }] },
    ]);
    const { file } = await readPackages(hostile, {
      urls,
      cache: new Map(),
      concurrency: 2,
      policy: POLICY,
      readAt: new Date(now).toISOString(),
    });
    expect(registries.log).toEqual([]);
    expect(file.unread.map((miss) => miss.missing)).toEqual(hostile.map((ref) => `not a name ${ref.registry} allows`));
  });
});

describe('pacing', () => {
  it('starts one registry’s requests an interval apart, whatever the concurrency, with a user agent', async () => {
    const { registries, urls } = await standIn();
    const crates = packagesOf([
      { packages: ['a-rs', 'b-rs', 'c-rs'].map((identifier) => ({ registryType: 'cargo', identifier })) },
    ]);
    await readPackages(crates, {
      urls,
      cache: new Map(),
      concurrency: 3,
      policy: POLICY,
      readAt: new Date(now).toISOString(),
      minIntervalMs: { cargo: 300 },
    });
    const times = registries.log.map((entry) => entry.at).sort((a, b) => a - b);
    expect(times).toHaveLength(3);
    // Unpaced, the three would arrive within a few milliseconds; the margin is for a busy host, where the
    // stand-in (in this process) may notice one arrival late and the next on time.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(200);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(200);
    expect(registries.log.every((entry) => entry.userAgent === 'mcp-trust-score-rescore')).toBe(true);
  });
});

describe('the packages step of a rescoring', () => {
  it('writes <out>/evidence/packages.json with the dataset, counted in the summary, and reports progress', async () => {
    const fixtures = smallFixtures(2);
    fixtures.entries[0]!.server.packages = [
      { registryType: 'npm', identifier: '@acme/mcp-server', version: '1.1.0', transport: { type: 'stdio' } },
    ];
    const registry = await startRegistryStandIn(fixtures.entries);
    const github = await startGitHubStandIn(fixtures.repositories, { token: 't' });
    open.push(registry, github);
    const { urls } = await standIn();
    const dir = await makeTempDir('packages-');
    const out = path.join(dir, 'out');
    const night = () =>
      rescore({
        ...standInNight({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, dir, registryPolicy: POLICY }),
        packages: { urls, concurrency: 2, policy: POLICY },
        progress: (done, total) => progress.push([done, total]),
      });
    const progress: Array<[number, number]> = [];
    const summary = await night();
    // The progress line's counts: one call per repository, rising to the total.
    expect(progress.map(([done]) => done)).toEqual(fixtures.repositories.map((_, i) => i + 1));
    expect(progress.at(-1)).toEqual([fixtures.repositories.length, fixtures.repositories.length]);
    const file = PackageFactsFileSchema.parse(
      JSON.parse(readFileSync(path.join(out, 'evidence', 'packages.json'), 'utf8')),
    );
    expect(Object.keys(file.packages)).toContain('npm:@acme/mcp-server');
    expect(summary.packages).toMatchObject({ read: Object.keys(file.packages).length, unread: file.unread.length });
    const again = await night();
    expect(again.packages!.notModified).toBe(Object.values(file.packages).filter((facts) => facts.found).length);
  });
});

describe('OCI images', () => {
  it('asks Docker Hub’s API for an image named without a registry, and refuses what is no reference', () => {
    expect(ociReference('mcp/github:1.0')).toEqual({
      host: 'registry-1.docker.io',
      repository: 'mcp/github',
      reference: '1.0',
    });
    expect(ociReference('alpine')).toEqual({
      host: 'registry-1.docker.io',
      repository: 'library/alpine',
      reference: 'latest',
    });
    expect(ociReference('ghcr.io/acme/tool@sha256:' + 'a'.repeat(64))?.reference).toBe('sha256:' + 'a'.repeat(64));
    expect(ociReference('ghcr.io/../../v2/x')).toBeUndefined();
    expect(ociReference('ghcr.io/Acme/Tool')).toBeUndefined();
  });

  it('answers the token challenge, follows an index to its amd64 image and reads the config’s labels', async () => {
    const oci = await startOciRegistryStandIn([
      {
        repository: 'acme/tool',
        tag: '1.2.0',
        created: '2026-05-01T10:00:00Z',
        multiPlatform: true,
        labels: {
          'org.opencontainers.image.source': 'https://github.com/acme/tool.git',
          'org.opencontainers.image.version': '1.2.0',
        },
      },
    ]);
    open.push(oci);
    const refs = packagesOf([
      {
        packages: [
          { registryType: 'oci', identifier: `${oci.host}/acme/tool:1.2.0` },
          { registryType: 'oci', identifier: `${oci.host}/acme/missing:1.0` },
        ],
      },
    ]);
    const { file } = await readPackages(refs, {
      urls: { npm: oci.url, pypi: oci.url, cargo: oci.url },
      cache: new Map(),
      concurrency: 2,
      policy: POLICY,
      readAt: new Date(now).toISOString(),
      oci: { timeoutMs: 5000, allowPrivate: true, plainHttp: true },
    });
    expect(file.packages[`oci:${oci.host}/acme/tool`]).toMatchObject({
      found: true,
      repository_url: 'https://github.com/acme/tool',
      latest_version: '1.2.0',
      latest_published_at: '2026-05-01T10:00:00.000Z',
    });
    expect(file.packages[`oci:${oci.host}/acme/missing`]).toMatchObject({ found: false });
    expect(
      oci.log.filter((entry) => entry.path.startsWith('/v2/') && entry.status === 200).every((e) => e.authorized),
    ).toBe(true);
    expect(oci.log.some((entry) => entry.path === '/token')).toBe(true);
  });

  it('refuses an image whose registry host is a private address, before any request', async () => {
    const oci = await startOciRegistryStandIn([
      { repository: 'acme/tool', tag: '1', created: '2026-05-01T10:00:00Z', labels: {} },
    ]);
    open.push(oci);
    const refs = packagesOf([
      {
        packages: [
          { registryType: 'oci', identifier: `${oci.host}/acme/tool:1` },
          { registryType: 'oci', identifier: '169.254.169.254/latest/meta-data:1' },
        ],
      },
    ]);
    const { file } = await readPackages(refs, {
      urls: { npm: oci.url, pypi: oci.url, cargo: oci.url },
      cache: new Map(),
      concurrency: 2,
      policy: POLICY,
      readAt: new Date(now).toISOString(),
      oci: { timeoutMs: 5000, plainHttp: true },
    });
    expect(oci.log).toEqual([]);
    expect(Object.keys(file.packages)).toEqual([]);
    expect(file.unread.map((miss) => miss.missing)).toEqual([
      expect.stringMatching(/refused: 127\.0\.0\.1 is a loopback address/),
      expect.stringMatching(/refused: 169\.254\.169\.254 is a (cloud metadata service|link-local) address/),
    ]);
  });
});

describe('npm run rescore with the packages step', () => {
  it('adds the packages’ counts to its summary line and writes the file beside the dataset', async () => {
    const fixtures = smallFixtures(2);
    fixtures.entries[0]!.server.packages = [
      { registryType: 'npm', identifier: 'old-mcp', version: '0.1.0', transport: { type: 'stdio' } },
    ];
    const registry = await startRegistryStandIn(fixtures.entries);
    const github = await startGitHubStandIn(fixtures.repositories, { token: 't' });
    open.push(registry, github);
    const { urls } = await standIn();
    const dir = await makeTempDir('packages-');
    const out = path.join(dir, 'out');
    const args = standInArgs({
      registryUrl: registry.url,
      githubUrl: github.url,
      asOf: AS_OF,
      cache: path.join(dir, 'c'),
    });
    const run = await runRescore(
      [
        ...args,
        '--out',
        out,
        '--packages',
        'on',
        '--npm-url',
        urls.npm,
        '--pypi-url',
        urls.pypi,
        '--crates-url',
        urls.cargo,
      ],
      { token: 't' },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const file = PackageFactsFileSchema.parse(
      JSON.parse(readFileSync(path.join(out, 'evidence', 'packages.json'), 'utf8')),
    );
    const read = Object.keys(file.packages).length;
    expect(file.packages['npm:old-mcp']!.deprecated).toBe('use new-mcp instead');
    expect(run.stdout).toMatch(
      new RegExp(`; packages: ${read} read \\(\\d+ not found\\), 0 unread, \\d+ requests, 0 answered 304\\n$`),
    );
  }, 60_000);
});
