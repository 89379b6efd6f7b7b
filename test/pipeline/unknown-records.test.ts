/**
 * The packages checks asked about and the snapshot did not know, given records of their own by the night: their
 * names (one package one name, and back; never a registry's or a catalog's), and nights against the stand-ins
 * (registry, GitHub, npm/PyPI, OSV) with a real Redis holding the counts: the records are written, built, served
 * by name, found by package, purl and repository, judged by the check (online and offline) on their evidence,
 * kept from night to night without doubles, measured on GitHub once their repository is known, and dropped
 * once a registry record names their package.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogFileSchema, REGISTRY_NAME_PATTERN } from '../../src/model/catalog.js';
import type { PackageFacts } from '../../src/model/package-facts.js';
import { isFetchableName } from '../../src/model/fields.js';
import { packageKey } from '../../src/model/identifiers.js';
import { packageKeyOfServerName, packageServerName } from '../../src/model/package-servers.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { rescore, type RescoreOptions } from '../../src/pipeline/rescore.js';
import { ASKED_PACKAGES_FILE, askedRecordsOf, MAX_ASKED_PACKAGES } from '../../src/pipeline/unknown-records.js';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { createEmbeddedSource } from '../../src/client/embedded.js';
import { loadSnapshot } from '../../src/query/open.js';
import { createRedisStore } from '../../src/stores/redis.js';
import { unknownDay } from '../../src/stores/unknown-tally.js';
import { envelopeOf, harness, NOW } from '../gateway/harness.js';
import { startGitHubStandIn, type StandInRepository } from '../support/github-standin.js';
import { startOsvStandIn } from '../support/osv-standin.js';
import { startPackageRegistriesStandIn } from '../support/package-registries-standin.js';
import { freePort, redisSkipReason, withSkipReason } from '../support/redis-server.js';
import { startRegistryStandIn } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { storeWithAskedIdentifiers } from '../support/asked-store.js';
import { standInNight, STAND_IN_POLICY } from '../support/night-options.js';
import { makeTempDir } from '../support/temp.js';

describe('the name of a package checks asked about', () => {
  it('is package:<registry>/<name>, with an npm scope in the namespace, and gives its package key back', () => {
    expect(packageServerName('npm:left-pad-mcp')).toBe('package:npm/left-pad-mcp');
    expect(packageServerName('npm:@acme/tool-mcp')).toBe('package:npm:@acme/tool-mcp');
    expect(packageServerName('pypi:some-tool')).toBe('package:pypi/some-tool');
    expect(packageServerName('cargo:mcp-crate')).toBe('package:cargo/mcp-crate');
    for (const name of ['package:npm/left-pad-mcp', 'package:npm:@acme/tool-mcp', 'package:pypi/some-tool'])
      expect(packageServerName(packageKeyOfServerName(name)!)).toBe(name);
  });

  it('is none for a key that is not normalised, another registry, or a name too long to serve', () => {
    expect(packageServerName('pypi:Some_Tool')).toBeUndefined();
    expect(packageServerName('oci:docker.io/mcp/x')).toBeUndefined();
    expect(packageServerName('npm:@scope')).toBeUndefined();
    expect(packageServerName(`npm:${'a'.repeat(200)}`)).toBeUndefined();
    expect(packageKeyOfServerName('catalog:docker/x')).toBeUndefined();
    expect(packageKeyOfServerName('io.github.acme/x')).toBeUndefined();
  });

  it('is one name per package and back, never a registry name, never a catalog name', () => {
    const part = fc.stringMatching(/^[a-z0-9][a-z0-9._~-]{0,40}$/);
    const key = fc.oneof(
      part.map((name) => packageKey('npm', name)),
      fc.tuple(part, part).map(([scope, name]) => packageKey('npm', `@${scope}/${name}`)),
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,40}$/).map((name) => packageKey('pypi', name)),
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,40}$/).map((name) => packageKey('cargo', name)),
    );
    fc.assert(
      fc.property(key, (k) => {
        const name = packageServerName(k);
        if (name === undefined) return;
        expect(isFetchableName(name)).toBe(true);
        expect(REGISTRY_NAME_PATTERN.test(name)).toBe(false);
        expect(name.startsWith('package:')).toBe(true);
        expect(packageKeyOfServerName(name)).toBe(k);
      }),
    );
  });
});

const AS_OF = '2026-11-28T03:00:00Z';
const DAY_MS = 86_400_000;
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const ASKED_REPOSITORY: StandInRepository = {
  owner: 'asked-owner',
  name: 'asked-server',
  stars: 40,
  forks: 4,
  watchers: 3,
  archived: false,
  spdxId: 'MIT',
  createdAt: new Date(Date.parse(AS_OF) - 400 * DAY_MS).toISOString().replace('.000Z', 'Z'),
  pushedAt: new Date(Date.parse(AS_OF) - 3 * DAY_MS).toISOString().replace('.000Z', 'Z'),
  hasCodeOfConduct: false,
  participation: { all: Array.from({ length: 52 }, () => 2), owner: Array.from({ length: 52 }, () => 1) },
};

const version = (v: string, at: string) => ({ version: v, publishedAt: at, provenance: true });

async function standIns() {
  const fixtures = smallFixtures(3);
  fixtures.entries[1]!.server.packages = [
    { registryType: 'npm', identifier: 'mcp-remote', version: '0.1.16', transport: { type: 'stdio' } },
  ];
  const registry = await startRegistryStandIn(fixtures.entries);
  const github = await startGitHubStandIn([...fixtures.repositories, structuredClone(ASKED_REPOSITORY)], {
    token: 't',
  });
  const osv = await startOsvStandIn([
    {
      id: 'MAL-2026-0101',
      summary: 'Malicious code in evil-asked-mcp (npm)',
      modified: '2026-11-01T00:00:00Z',
      affected: [
        {
          package: { ecosystem: 'npm', name: 'evil-asked-mcp' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }],
        },
      ],
    },
  ]);
  const packageRegistries = await startPackageRegistriesStandIn([
    {
      registry: 'npm',
      name: 'asked-mcp',
      repository: 'https://github.com/asked-owner/asked-server',
      maintainers: ['asked-owner'],
      versions: [version('1.0.0', '2026-06-10T00:00:00Z'), version('1.2.0', '2026-11-10T00:00:00Z')],
    },
    { registry: 'npm', name: '@acme/scoped-mcp', versions: [version('0.3.0', '2026-10-01T00:00:00Z')] },
    { registry: 'npm', name: 'evil-asked-mcp', versions: [version('1.0.0', '2026-11-20T00:00:00Z')] },
    { registry: 'npm', name: 'mcp-remote', versions: [version('0.1.16', '2026-07-01T00:00:00Z')] },
    { registry: 'pypi', name: 'Asked_Tool', versions: [version('2.0.0', '2026-09-01T00:00:00Z')] },
  ]);
  open.push(registry, github, osv, packageRegistries);
  const dir = await makeTempDir('unknown-records-');
  const options: RescoreOptions = {
    ...standInNight({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, dir }),
    advisories: { url: osv.url, concurrency: 2, policy: STAND_IN_POLICY },
    packages: {
      urls: { npm: packageRegistries.url, pypi: packageRegistries.url, cargo: packageRegistries.url },
      concurrency: 2,
      policy: STAND_IN_POLICY,
    },
  };
  return { fixtures, registry, github, osv, packageRegistries, dir, options };
}

async function build(out: string, snapshot: string) {
  await buildSnapshot({
    input: path.join(out, 'servers.json'),
    registry: path.join(out, 'registry', 'servers.json'),
    catalog: undefined,
    evidenceDir: path.join(out, 'evidence'),
    out: snapshot,
    now: new Date('2026-11-28T04:00:00.000Z'),
  });
  return loadSnapshot(snapshot);
}

const datasetOf = (out: string) => JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[];
const packageNames = (out: string) =>
  datasetOf(out)
    .map((record) => record.name)
    .filter((name) => name.startsWith('package:'));

const PACKAGE_SERVERS = [
  'package:npm/asked-mcp',
  'package:npm/evil-asked-mcp',
  'package:npm:@acme/scoped-mcp',
  'package:pypi/asked-tool',
];

const skipReason = await redisSkipReason();

describe.skipIf(skipReason !== undefined)(
  withSkipReason('nights with the packages checks asked about', skipReason),
  () => {
    const { store, prefix } = storeWithAskedIdentifiers('unknown-records', [
      'pkg:npm/asked-mcp',
      'pkg:npm/%40acme/scoped-mcp',
      'pkg:pypi/asked-tool',
      'pkg:npm/evil-asked-mcp',
      // Not in its registry (404): no record.
      'pkg:npm/missing-mcp',
      // A registry record holds it: the registry's record wins.
      'pkg:npm/mcp-remote',
      'https://remote.example/mcp',
    ]);

    it('writes a record of each asked package its registry has, which the snapshot serves and finds', async () => {
      const { fixtures, github, dir, options } = await standIns();
      const night = { ...options, unknown: { store, limit: 100, timeoutMs: 2000 } };
      const summary = await rescore(night);
      expect(summary.unknown).toEqual({ identifiers: 7, packages: 6 });
      expect(summary.packageServers).toEqual({ records: 4, added: 4, dropped: 0 });
      expect(packageNames(options.out)).toEqual(PACKAGE_SERVERS);
      expect(summary.scored).toBe(fixtures.entries.length);
      // Its repository is learnt from tonight's read: GitHub is asked about it the next night.
      expect(github.log.map((entry) => entry.path)).not.toContain('/repos/asked-owner/asked-server');
      const listed = JSON.parse(readFileSync(path.join(options.out, ASKED_PACKAGES_FILE), 'utf8')) as {
        packages: Array<{ identifier: string; repository_url: string | null }>;
      };
      // In the store's order: most asked first, then by identifier.
      expect(listed.packages.map((pkg) => pkg.identifier)).toEqual([
        '@acme/scoped-mcp',
        'asked-mcp',
        'evil-asked-mcp',
        'asked-tool',
      ]);
      expect(listed.packages[1]?.repository_url).toBe('https://github.com/asked-owner/asked-server');

      const engine = await build(options.out, path.join(dir, 'snapshot'));
      const h = await harness({ engine, countUnknown: true });
      const record = await envelopeOf<ServerRecord>(await h.call('/v1/servers/package:npm/asked-mcp'));
      expect(record.data).toMatchObject({
        name: 'package:npm/asked-mcp',
        packages: [{ registry_type: 'npm', identifier: 'asked-mcp', version: null }],
        install: { repo_url: 'https://github.com/asked-owner/asked-server' },
      });
      expect(record.data.evidence?.sources.registry.measured).toBe(false);
      expect(record.data.evidence?.sources.packages.measured).toBe(true);
      // No repository read yet: never invented facts, too little evidence for a score.
      expect(record.data.evidence?.sources.repository.measured).toBe(false);
      expect(record.data.flags).toContain('INSUFFICIENT_EVIDENCE');
      expect((await h.call('/v1/servers/package:npm:@acme/scoped-mcp')).status).toBe(200);

      const found = async (query: string) =>
        (await envelopeOf<ServerRecord[]>(await h.call(`/v1/lookup?${query}`))).data.map((r) => r.name);
      expect(await found('package=npm:@acme/scoped-mcp@0.3.0')).toEqual(['package:npm:@acme/scoped-mcp']);
      expect(await found(`purl=${encodeURIComponent('pkg:npm/%40acme/scoped-mcp')}`)).toEqual([
        'package:npm:@acme/scoped-mcp',
      ]);
      expect(await found('package=pypi:Asked_Tool')).toEqual(['package:pypi/asked-tool']);
      expect(await found(`repo=${encodeURIComponent('https://github.com/Asked-Owner/asked-server')}`)).toEqual([
        'package:npm/asked-mcp',
      ]);
      // The registry's server holds mcp-remote: no package record beside it.
      expect(await found('package=npm:mcp-remote')).toEqual([fixtures.entries[1]!.server.name]);

      const checked = await h.call('/v1/check', {
        method: 'POST',
        body: JSON.stringify({
          servers: [{ package: 'npm:evil-asked-mcp@1.0.0' }, { purl: 'pkg:pypi/asked-tool' }, { package: 'npm:x-mcp' }],
        }),
      });
      const results = (
        await envelopeOf<{ results: Array<{ server: string | null; verdict: string; reasons: string[] }> }>(checked)
      ).data.results;
      expect(results[0]).toMatchObject({
        server: 'package:npm/evil-asked-mcp',
        verdict: 'fail',
        reasons: expect.arrayContaining([expect.stringMatching(/KNOWN_MALICIOUS/)]),
      });
      expect(results[1]?.server).toBe('package:pypi/asked-tool');
      expect(results[2]?.server).toBeNull();
      // What has a record is no longer counted as unknown; what has none still is.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await h.store.topUnknown([unknownDay(NOW)], 100)).toEqual([{ identifier: 'pkg:npm/x-mcp', count: 1 }]);

      // The offline checker answers from the same snapshot alike.
      const offline = await createEmbeddedSource(engine);
      const answer = await offline.check({ servers: [{ purl: 'pkg:npm/evil-asked-mcp' }] });
      expect(answer.results[0]).toMatchObject({ server: 'package:npm/evil-asked-mcp', verdict: 'fail' });
    }, 120_000);

    it('keeps the records the next night without doubles, measures their repository, and drops one a registry record names', async () => {
      const { fixtures, registry, github, dir, options } = await standIns();
      const night = { ...options, unknown: { store, limit: 100, timeoutMs: 2000 } };
      await rescore(night);
      const list = () => readFileSync(path.join(options.out, ASKED_PACKAGES_FILE), 'utf8');
      const first = list();
      const second = await rescore(night);
      expect(second.packageServers).toEqual({ records: 4, added: 0, dropped: 0 });
      // Nothing changed: the same list, byte for byte (the evidence folder is part of the build's input hash).
      expect(list()).toBe(first);
      expect(packageNames(options.out)).toEqual(PACKAGE_SERVERS);
      expect(github.log.map((entry) => entry.path)).toContain('/repos/asked-owner/asked-server');
      const engine = await build(options.out, path.join(dir, 'snapshot'));
      const measured = JSON.parse(engine.getJson('package:npm/asked-mcp')!) as ServerRecord;
      expect(measured.evidence?.sources.repository).toMatchObject({ measured: true, at: AS_OF });
      expect(measured.evidence?.sources.repository.signals).toMatchObject({ github_stars: 40 });
      expect(measured.flags).not.toContain('INSUFFICIENT_EVIDENCE');

      // A night whose store does not answer keeps the listed packages' records.
      const down = createRedisStore({ url: `redis://127.0.0.1:${await freePort()}`, prefix });
      try {
        const unanswered = await rescore({ ...night, unknown: { store: down, limit: 100, timeoutMs: 500 } });
        expect(unanswered.unknown).toMatchObject({ unread: expect.any(String) });
        expect(unanswered.packageServers).toEqual({ records: 4, added: 0, dropped: 0 });
        expect(packageNames(options.out)).toEqual(PACKAGE_SERVERS);
      } finally {
        await down.close().catch(() => {});
      }

      // The registry now lists a server with the package: its record wins, the package's is dropped.
      const listed = structuredClone(fixtures.entries[2]!);
      listed.server.name = 'io.github.asked-owner/asked-server';
      listed.server.packages = [
        { registryType: 'npm', identifier: 'asked-mcp', version: '1.2.0', transport: { type: 'stdio' } },
      ];
      const official = listed._meta!['io.modelcontextprotocol.registry/official']!;
      official.updatedAt = new Date().toISOString();
      official.publishedAt = new Date().toISOString();
      registry.entries.push(listed);
      const third = await rescore(night);
      expect(third.packageServers).toEqual({ records: 3, added: 0, dropped: 1 });
      expect(packageNames(options.out)).toEqual(PACKAGE_SERVERS.filter((name) => name !== 'package:npm/asked-mcp'));
      const after = await build(options.out, path.join(dir, 'snapshot-after'));
      expect(JSON.parse(after.lookupJson({ kind: 'package', key: 'npm:asked-mcp' }).json)).toEqual([
        expect.objectContaining({ name: 'io.github.asked-owner/asked-server' }),
      ]);
      expect(existsSync(path.join(options.out, ASKED_PACKAGES_FILE))).toBe(true);
    }, 180_000);
  },
);

describe('the rules of the list of asked packages', () => {
  const facts = (identifier: string, found: boolean): PackageFacts => ({
    registry_type: 'npm',
    identifier,
    read_at: AS_OF,
    source: 'registry.npmjs.org API',
    found,
    repository_url: found ? `https://github.com/o/${identifier}` : null,
    latest_version: null,
    latest_published_at: null,
    versions_past_year: null,
    maintainers: null,
    deprecated: null,
    provenance: null,
    yanked: null,
    security_takedown: false,
  });
  const listed = (identifier: string) => ({
    registry_type: 'npm' as const,
    identifier,
    listed_at: '2026-11-01T00:00:00Z',
    repository_url: `https://github.com/o/${identifier}-before`,
  });
  const asked = (...names: string[]) =>
    names.map((identifier) => ({ packages: [{ registryType: 'npm', identifier }] }));
  const catalog = CatalogFileSchema.parse({
    sources: [
      {
        source: 'docker-mcp-catalog',
        repository: 'https://github.com/docker/mcp-registry',
        commit: 'a'.repeat(40),
        date: '2026-11-01T00:00:00Z',
        licence: 'MIT',
      },
    ],
    servers: [
      {
        name: 'catalog:docker/cat',
        source: 'docker-mcp-catalog',
        id: 'cat',
        package: { registryType: 'npm', identifier: 'cat-mcp' },
      },
    ],
  });

  it('keeps a listed package it could not read, with its repository read before, and drops one a catalog names or its registry lost', () => {
    const made = askedRecordsOf({
      listed: [listed('unread-mcp'), listed('cat-mcp'), listed('gone-mcp')],
      asked: asked('never-read-mcp', 'new-mcp', 'absent-mcp'),
      facts: new Map([
        ['npm:gone-mcp', facts('gone-mcp', false)],
        ['npm:new-mcp', facts('new-mcp', true)],
        ['npm:absent-mcp', facts('absent-mcp', false)],
      ]),
      records: [],
      catalog,
      outcomes: new Map(),
      asOf: AS_OF,
    });
    expect(made.records.map((record) => [record.name, record.install.repo_url])).toEqual([
      ['package:npm/unread-mcp', 'https://github.com/o/unread-mcp-before'],
      ['package:npm/new-mcp', 'https://github.com/o/new-mcp'],
    ]);
    expect(made.counts).toEqual({ records: 2, added: 1, dropped: 2 });
    // Never read, never listed: its registry has not said it exists.
    expect(made.text).not.toContain('never-read-mcp');
  });

  it('lists at most 10,000, the ones listed before first', () => {
    const many = Array.from({ length: MAX_ASKED_PACKAGES }, (_, i) => listed(`p${i}-mcp`));
    const made = askedRecordsOf({
      listed: many,
      asked: asked('one-more-mcp'),
      facts: new Map([['npm:one-more-mcp', facts('one-more-mcp', true)]]),
      records: [],
      catalog: undefined,
      outcomes: new Map(),
      asOf: AS_OF,
    });
    expect(made.counts).toEqual({ records: MAX_ASKED_PACKAGES, added: 0, dropped: 0 });
    expect(made.records.some((record) => record.name === 'package:npm/one-more-mcp')).toBe(false);
  });
});
