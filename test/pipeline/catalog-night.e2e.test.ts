/**
 * A night with the curators' catalog and the store of unknown identifiers, against the stand-ins (registry,
 * GitHub, OSV) and a real Redis: the catalog-only servers are measured like registry servers and the snapshot
 * built from the night serves them with that evidence, an unmeasured one stays as the build makes it today, a
 * bad catalog entry is left out and named; the packages checks asked about reach OSV and the snapshot's
 * advisories, so the check fails a malicious one; a store that does not answer is one line, and the night goes on.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../src/model/catalog.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { catalogRecordsOf, readNightCatalog } from '../../src/pipeline/catalog-step.js';
import { rescore, type RescoreOptions } from '../../src/pipeline/rescore.js';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { loadSnapshot } from '../../src/query/open.js';
import { harness } from '../gateway/harness.js';
import { loadObjectEngine } from '../support/engine.js';
import { startGitHubStandIn, type StandInRepository } from '../support/github-standin.js';
import { startOsvStandIn, type OsvRecord } from '../support/osv-standin.js';
import { startPackageRegistriesStandIn } from '../support/package-registries-standin.js';
import { freePort, redisSkipReason, withSkipReason } from '../support/redis-server.js';
import { startRegistryStandIn } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { storeWithAskedIdentifiers } from '../support/asked-store.js';
import { runRescore, standInArgs } from '../support/rescore-run.js';
import { standInNight } from '../support/night-options.js';
import { makeTempDir } from '../support/temp.js';

// Not the committed run's time: the repository source tells this project's own runs by it.
const AS_OF = '2026-11-28T03:00:00Z';
const DAY_MS = 86_400_000;
const POLICY = { timeoutMs: 5000, retries: 1, backoffMs: 5, maxRetryAfterMs: 2000 };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const source = {
  source: 'docker-mcp-catalog',
  repository: 'https://github.com/docker/mcp-registry',
  commit: 'a'.repeat(40),
  date: '2026-11-01T00:00:00Z',
  licence: 'MIT',
};

/** Three good entries (one the night can measure, one it cannot, one a registry record is) and one bad. */
const CATALOG = {
  sources: [source],
  servers: [
    {
      name: 'catalog:docker/measured',
      source: 'docker-mcp-catalog',
      id: 'measured',
      title: 'Measured',
      description: 'A server only the catalog lists, whose repository the night reads',
      image: 'mcp/measured',
      package: { registryType: 'npm', identifier: 'catalog-measured-mcp' },
      repository: 'https://github.com/catalog-owner/measured-server',
    },
    {
      name: 'catalog:docker/unmeasured',
      source: 'docker-mcp-catalog',
      id: 'unmeasured',
      description: 'A server only the catalog lists, with no repository to read',
      remoteUrl: 'https://unmeasured.example/mcp',
    },
    {
      name: 'catalog:docker/bad-package',
      source: 'docker-mcp-catalog',
      id: 'bad-package',
      package: { registryType: 'npm', identifier: 'catalog-evil-mcp' },
    },
    {
      name: 'catalog:docker/joined',
      source: 'docker-mcp-catalog',
      id: 'joined',
      package: { registryType: 'npm', identifier: 'mcp-remote' },
    },
    { name: 'not-a-catalog-name', source: 'docker-mcp-catalog', id: 'bad' },
  ],
};

const MEASURED_REPOSITORY: StandInRepository = {
  owner: 'catalog-owner',
  name: 'measured-server',
  stars: 120,
  forks: 12,
  watchers: 7,
  archived: false,
  spdxId: 'MIT',
  createdAt: new Date(Date.parse(AS_OF) - 400 * DAY_MS).toISOString().replace('.000Z', 'Z'),
  pushedAt: new Date(Date.parse(AS_OF) - 3 * DAY_MS).toISOString().replace('.000Z', 'Z'),
  hasCodeOfConduct: false,
  participation: { all: Array.from({ length: 52 }, () => 2), owner: Array.from({ length: 52 }, () => 1) },
};

const malicious = (id: string, name: string): OsvRecord => ({
  id,
  summary: `Malicious code in ${name} (npm)`,
  modified: '2026-11-01T00:00:00Z',
  affected: [{ package: { ecosystem: 'npm', name }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }],
});

async function standIns() {
  const fixtures = smallFixtures(3);
  fixtures.entries[1]!.server.packages = [
    { registryType: 'npm', identifier: 'mcp-remote', version: '0.1.16', transport: { type: 'stdio' } },
  ];
  const registry = await startRegistryStandIn(fixtures.entries);
  const github = await startGitHubStandIn([...fixtures.repositories, structuredClone(MEASURED_REPOSITORY)], {
    token: 't',
  });
  const osv = await startOsvStandIn([
    malicious('MAL-2026-0001', 'catalog-evil-mcp'),
    malicious('MAL-2026-0002', 'evil-unknown-mcp'),
  ]);
  const packageRegistries = await startPackageRegistriesStandIn([
    {
      registry: 'npm',
      name: 'catalog-measured-mcp',
      repository: 'git+https://github.com/catalog-owner/measured-server.git',
      maintainers: ['catalog-owner'],
      versions: [
        { version: '1.0.0', publishedAt: '2026-01-10T00:00:00Z', provenance: true },
        { version: '1.1.0', publishedAt: '2026-10-10T00:00:00Z', provenance: true },
      ],
    },
  ]);
  open.push(registry, github, osv, packageRegistries);
  const dir = await makeTempDir('catalog-night-');
  const catalogFile = path.join(dir, 'catalog.json');
  await writeFile(catalogFile, JSON.stringify(CATALOG));
  const options: RescoreOptions = {
    ...standInNight({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, dir, registryPolicy: POLICY }),
    advisories: { url: osv.url, concurrency: 2, policy: POLICY },
    // No OCI registry is asked (the images name real hosts): the catalog's image stays unread.
    packages: {
      urls: { npm: packageRegistries.url, pypi: packageRegistries.url, cargo: packageRegistries.url },
      concurrency: 2,
      policy: POLICY,
    },
  };
  return { fixtures, registry, github, osv, packageRegistries, dir, catalogFile, options };
}

/** The night's dataset built as the republish builds it: its catalog, its registry data, its evidence. */
async function build(out: string, snapshot: string, input = path.join(out, 'servers.json')) {
  await buildSnapshot({
    input,
    registry: path.join(out, 'registry', 'servers.json'),
    catalog: existsSync(path.join(out, 'catalog', 'servers.json'))
      ? path.join(out, 'catalog', 'servers.json')
      : undefined,
    evidenceDir: path.join(out, 'evidence'),
    out: snapshot,
    now: new Date('2026-11-28T04:00:00.000Z'),
  });
  return loadObjectEngine(snapshot);
}

const datasetOf = (out: string) => JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[];

describe('reading a night’s catalog', () => {
  it('leaves out and names an entry that breaks the schema, names an unlisted source or repeats a name but for case', async () => {
    const dir = await makeTempDir('catalog-read-');
    const file = path.join(dir, 'catalog.json');
    const first = CATALOG.servers[0]!;
    await writeFile(
      file,
      JSON.stringify({
        sources: [source],
        servers: [
          first,
          { ...first, name: 'catalog:docker/MEASURED' },
          { ...first, name: 'catalog:reference/other', source: 'mcp-reference-servers' },
          { name: 'catalog:docker/extra', source: 'docker-mcp-catalog', id: 'extra', stars: 5 },
        ],
      }),
    );
    const read = readNightCatalog(file);
    expect(read.catalog.servers.map((server) => server.name)).toEqual(['catalog:docker/measured']);
    expect(read.leftOut).toEqual([
      { name: 'catalog:docker/MEASURED', reason: expect.stringMatching(/name of an earlier one but for case/) },
      {
        name: 'catalog:reference/other',
        reason: expect.stringMatching(/source mcp-reference-servers, which the file does not list/),
      },
      {
        name: 'catalog:docker/extra',
        reason: expect.stringMatching(/^catalog entry does not fit the catalog schema: .*stars/),
      },
    ]);
    // What is written beside the dataset is a catalog the build reads whole.
    expect(CatalogFileSchema.parse(JSON.parse(read.text))).toEqual(read.catalog);

    // With nothing left out, the file given is written as it is: a night over the committed one changes nothing.
    const committed = path.join(import.meta.dirname, '..', '..', 'data', 'catalog', 'servers.json');
    expect(readNightCatalog(committed).text).toBe(readFileSync(committed, 'utf8'));

    await writeFile(file, JSON.stringify({ sources: [], servers: [] }));
    expect(() => readNightCatalog(file)).toThrow(/^.*catalog\.json: not a catalog file: /);
  });
});

describe('the records a night writes of catalog-only servers', () => {
  it('writes none for a server sharing its package with another, which the build would join to it', () => {
    const catalog = CatalogFileSchema.parse({
      sources: [source],
      servers: [
        CATALOG.servers[0],
        { name: 'catalog:docker/twin', source: 'docker-mcp-catalog', id: 'twin', image: 'mcp/measured' },
        { ...CATALOG.servers[0], name: 'catalog:docker/alone', id: 'alone', image: undefined, package: undefined },
      ],
    });
    const outcomes = new Map([
      [
        'catalog-owner/measured-server',
        {
          enriched: true,
          notFound: false,
          unchanged: false,
          facts: { owner: 'catalog-owner', repository: null, community: null, participation: null },
        },
      ],
    ]);
    const made = catalogRecordsOf(catalog, [], outcomes, AS_OF);
    expect(made.catalogOnly).toBe(3);
    expect(made.records.map((record) => record.name)).toEqual(['catalog:docker/alone']);
  });
});

describe('a night with a catalog', () => {
  it('measures the catalog-only servers like registry servers, and the snapshot built from it serves them', async () => {
    const { fixtures, github, osv, packageRegistries, dir, catalogFile, options } = await standIns();
    const summary = await rescore({ ...options, catalogFile });
    expect(github.invalid).toEqual([]);
    expect(osv.errors).toEqual([]);
    expect(summary.catalog).toEqual({ listed: 4, joined: 1, catalogOnly: 3, measured: 1 });
    // The bad entry is named, the rest published.
    expect(summary.leftOut).toEqual([
      { name: 'not-a-catalog-name', reason: expect.stringMatching(/^catalog entry does not fit the catalog schema/) },
    ]);
    expect(summary.scored).toBe(fixtures.entries.length);
    // Its repository went through the GitHub step, its package through the advisories step.
    expect(github.log.map((entry) => entry.path)).toContain('/repos/catalog-owner/measured-server');
    expect(packageRegistries.log.map((entry) => entry.path)).toContain('/catalog-measured-mcp');
    expect(osv.log.flatMap((entry) => entry.packages ?? [])).toEqual(
      expect.arrayContaining(['npm:catalog-measured-mcp', 'npm:catalog-evil-mcp']),
    );

    // The night writes the catalog it used (valid entries only) and a record of the measured one.
    const written = CatalogFileSchema.parse(
      JSON.parse(readFileSync(path.join(options.out, 'catalog', 'servers.json'), 'utf8')),
    );
    expect(written.servers.map((server) => server.name)).toEqual([
      'catalog:docker/measured',
      'catalog:docker/unmeasured',
      'catalog:docker/bad-package',
      'catalog:docker/joined',
    ]);
    const dataset = datasetOf(options.out);
    expect(dataset.filter((record) => record.name.startsWith('catalog:')).map((record) => record.name)).toEqual([
      'catalog:docker/measured',
    ]);

    const engine = await build(options.out, path.join(dir, 'snapshot'));
    const measured = engine.get('catalog:docker/measured')!;
    expect(measured.evidence?.sources.repository).toMatchObject({ measured: true, at: AS_OF });
    expect(measured.evidence?.sources.repository.signals).toMatchObject({ github_stars: 120, repository_found: true });
    expect(measured.evidence?.sources.registry.measured).toBe(false);
    expect(measured.evidence?.sources.packages.measured).toBe(true);
    // Repository and package measured: enough evidence for a score, as for a registry server.
    expect(measured.evidence?.confidence).toBeGreaterThanOrEqual(50);
    expect(measured.flags).not.toContain('INSUFFICIENT_EVIDENCE');
    expect(measured.trust_score).toBeGreaterThan(0);
    expect(measured.listings?.map((listing) => listing.name)).toEqual(['catalog:docker/measured']);
    // A catalog-only package's advisory reached the snapshot: the record names it.
    expect(engine.get('catalog:docker/bad-package')?.flags).toContain('KNOWN_MALICIOUS');

    const unmeasured = engine.get('catalog:docker/unmeasured')!;
    expect(unmeasured).toMatchObject({ trust_score: 0, flags: ['INSUFFICIENT_EVIDENCE'] });
    expect(unmeasured.evidence?.sources.repository.measured).toBe(false);
    // Exactly the record a build of the catalog makes when no night measured anything of it.
    const withoutNight = path.join(dir, 'registry-only.json');
    await writeFile(withoutNight, JSON.stringify(dataset.filter((record) => !record.name.startsWith('catalog:'))));
    const before = await build(options.out, path.join(dir, 'snapshot-before'), withoutNight);
    expect(unmeasured).toEqual(before.get('catalog:docker/unmeasured'));
    // Without the night's record its repository is unread again, and the package alone is too little evidence.
    expect(before.get('catalog:docker/measured')?.evidence?.sources.repository.measured).toBe(false);
    expect(before.get('catalog:docker/measured')?.flags).toEqual(['INSUFFICIENT_EVIDENCE']);

    // The joined one is a listing on the registry record, never a record of its own.
    expect(engine.get('catalog:docker/joined')).toBeUndefined();
    const registryRecord = engine.get(fixtures.entries[1]!.server.name)!;
    expect(registryRecord.listings?.map((listing) => listing.name)).toEqual(['catalog:docker/joined']);
    expect(engine.stats().catalog_only_servers).toBe(3);
  }, 120_000);

  it('npm run rescore names the bad entry and counts the catalog on its summary line; a missing file is one line', async () => {
    const { registry, github, dir, catalogFile, options } = await standIns();
    const args = standInArgs({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, cache: options.cache });
    const run = await runRescore(
      [...args.filter((arg) => arg !== '--no-catalog'), '--out', options.out, '--catalog', catalogFile],
      { token: 't' },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^rescore: left out not-a-catalog-name: catalog entry does not fit the catalog schema/m);
    expect(run.stdout).toMatch(
      /, left out 1 that make no valid record \(not-a-catalog-name\);.*; catalog: 4 servers listed, 1 joined a registry record, 3 catalog-only \(1 measured\)\n$/,
    );
    const missing = await runRescore(
      [
        ...args.filter((arg) => arg !== '--no-catalog'),
        '--out',
        path.join(dir, 'x'),
        '--catalog',
        path.join(dir, 'none.json'),
      ],
      { token: 't' },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`rescore: ${path.join(dir, 'none.json')}: cannot read the catalog (ENOENT)\n`);
  }, 120_000);
});

const skipReason = await redisSkipReason();

describe.skipIf(skipReason !== undefined)(
  withSkipReason('a night with the unknown identifiers of the store', skipReason),
  () => {
    const { store, prefix } = storeWithAskedIdentifiers('unknown-night', [
      'pkg:npm/evil-unknown-mcp',
      'pkg:pypi/Some_Tool',
      'https://remote.example/mcp',
      'pkg:oci/tool?repository_url=ghcr.io/acme/tool',
    ]);

    it('asks OSV about the packages checks asked for, and the snapshot’s check then fails the malicious one', async () => {
      const { osv, dir, options } = await standIns();
      const summary = await rescore({ ...options, unknown: { store, limit: 100, timeoutMs: 2000 } });
      // The remote URL and the OCI image are not packages the night asks of a configured registry.
      expect(summary.unknown).toEqual({ identifiers: 4, packages: 2 });
      const asked = osv.log.flatMap((entry) => entry.packages ?? []);
      expect(asked).toEqual(expect.arrayContaining(['npm:evil-unknown-mcp', 'PyPI:some-tool']));
      expect(summary.scored).toBe(3);

      await build(options.out, path.join(dir, 'snapshot'));
      const h = await harness({ engine: await loadSnapshot(path.join(dir, 'snapshot')) });
      const response = await h.call('/v1/check', {
        method: 'POST',
        body: JSON.stringify({ servers: [{ package: 'npm:evil-unknown-mcp' }, { package: 'npm:quite-unknown-mcp' }] }),
      });
      const results = ((await response.json()) as { data: { results: Array<{ verdict: string; reasons: string[] }> } })
        .data.results;
      expect(results[0]).toMatchObject({
        verdict: 'fail',
        reasons: expect.arrayContaining([expect.stringMatching(/MAL-2026-0002/)]),
      });
      expect(results[1]?.verdict).not.toBe('fail');
    }, 120_000);

    it('reads no store with STORE=memory and says so; a bad store setting is a usage error', async () => {
      const { registry, github, options } = await standIns();
      const args = standInArgs({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, cache: options.cache });
      args.splice(args.indexOf('--unknown'), 2);
      const bad = await runRescore([...args, '--out', options.out], {
        token: 't',
        env: { STORE: 'redis', REDIS_URL: '' },
      });
      expect(bad.code).toBe(2);
      expect(bad.stderr.split('\n')[0]).toBe(
        'rescore: Invalid configuration: STORE=redis needs REDIS_URL (--unknown off reads no store)',
      );
      expect(registry.log).toEqual([]);
      const memory = await runRescore([...args, '--out', options.out], { token: 't', env: { STORE: 'memory' } });
      expect(memory.code).toBe(0);
      expect(memory.stderr).toMatch(
        /^rescore: unknown identifiers not read: STORE=memory counts them in each server process$/m,
      );
      expect(memory.stdout).not.toMatch(/unknown identifiers/);
    }, 120_000);

    it('says in one line that a store which does not answer was not read, and the night goes on', async () => {
      const { registry, github, options } = await standIns();
      const args = standInArgs({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, cache: options.cache });
      const at = args.indexOf('--unknown');
      args.splice(at, 2);
      const run = await runRescore([...args, '--out', options.out], {
        token: 't',
        env: { STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_PREFIX: prefix },
      });
      expect(run.code).toBe(0);
      const lines = run.stderr.split('\n').filter((line) => line.includes('unknown identifiers'));
      expect(lines).toEqual([
        expect.stringMatching(
          /^rescore: unknown identifiers not read from the store \(.+\); the night goes on without them$/,
        ),
      ]);
      // The packages already listed keep their records (none here): the night writes them all the same.
      expect(run.stdout).toMatch(
        /; unknown identifiers: not read this night; package servers: 0 \(0 new, 0 dropped\)\n$/,
      );
      expect(datasetOf(options.out)).toHaveLength(3);
    }, 120_000);
  },
);
