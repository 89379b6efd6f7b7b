import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type Signals } from '../src/model/schema.js';
import { BadgeSchema, ServerRecordSchema } from '../src/model/record-schema.js';
import { ACTIVE_MIN_PUSH_RECENCY, BADGE_RULES, POPULAR_MIN_STARS, badgesFor } from '../src/scoring/badges.js';
import {
  ImportError,
  parseInput,
  RegistryDumpSchema,
  ScorecardIndexSchema,
  type RegistryDumpEntry,
} from '../src/dataset/inputs.js';
import {
  descriptionFrom,
  installFrom,
  packagesFrom,
  pickNewestVersion,
  remotesFrom,
  repoUrlFrom,
  timestampKey,
} from '../src/dataset/install.js';
import { compareNames, joinDatasets, normaliseScoredAt, serializeDataset } from '../src/dataset/join.js';
import { inferTargets, nameWords, TARGET_RULES } from '../src/scoring/targets.js';
import { isVerifiedPublisher, VERIFIED_PUBLISHER_NAMESPACES } from '../src/dataset/verified.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'import');
const fixture = (file: string) => join(FIXTURES, file);
const readFixture = (file: string) => readFileSync(fixture(file), 'utf8');

const scorecard = parseInput(readFixture('scores.json'), 'scores.json', ScorecardIndexSchema);
const registry = parseInput(readFixture('registry.json'), 'registry.json', RegistryDumpSchema);
const { records, summary } = joinDatasets(scorecard, registry);
const recordNamed = (name: string) => {
  const record = records.find((r) => r.name === name);
  if (!record) throw new Error(`fixture record ${name} is missing`);
  return record;
};

/** A registry version with only the fields the importer reads. */
function version(fields: {
  version?: string;
  publishedAt?: string;
  isLatest?: boolean;
  url?: string;
  packages?: { registryType?: string; identifier?: string; version?: string; transport?: { type?: string } }[];
  remotes?: { type?: string; url?: string }[];
  description?: string;
  name?: string;
}): RegistryDumpEntry {
  return {
    server: {
      name: fields.name ?? 'io.github.someone/example',
      version: fields.version,
      description: fields.description,
      repository: fields.url === undefined ? undefined : { url: fields.url },
      packages: fields.packages,
      remotes: fields.remotes,
    },
    _meta: {
      'io.modelcontextprotocol.registry/official': { isLatest: fields.isLatest, publishedAt: fields.publishedAt },
    },
  };
}

describe('joining the fixtures', () => {
  it('keeps every scored server, and only those, sorted by name', () => {
    expect(records.map((r) => r.name)).toEqual(Object.keys(scorecard.servers).sort(compareNames));
    expect(records.map((r) => r.name)).not.toContain('io.github.someone/unscored');
    expect(summary).toMatchObject({ records: 6, withRegistryEntry: 5, withoutRegistryEntry: 1 });
    expect(summary.registryServersNotScored).toBe(1);
  });

  it('makes only records that pass ServerRecordSchema', () => {
    for (const record of records) expect(ServerRecordSchema.safeParse(record).success).toBe(true);
  });

  it('gives a server with no registry entry unknown install values, never invented ones', () => {
    expect(recordNamed('com.example/no-registry').install).toEqual({
      repo_url: null,
      version: null,
      package_types: [],
      transport_types: [],
    });
  });

  it('takes install information from the version marked isLatest, not the one published last', () => {
    const { install } = recordNamed('io.github.github/github-mcp-server');
    expect(install.version).toBe('0.20.0');
    expect(install.repo_url).toBe('https://github.com/github/github-mcp-server');
    expect(install.package_types).toEqual(['oci', 'npm']);
  });

  it('lists package and remote transports once each, packages first', () => {
    expect(recordNamed('io.github.github/github-mcp-server').install.transport_types).toEqual([
      'stdio',
      'streamable-http',
      'sse',
    ]);
    expect(recordNamed('io.github.redis-fan/notes').install).toMatchObject({
      package_types: [],
      transport_types: ['sse'],
    });
  });

  it('takes the latest publishedAt, to the sub-millisecond digit, when no version is marked isLatest', () => {
    expect(recordNamed('ai.example/postgres-tools').install).toMatchObject({
      version: '1.1.0',
      package_types: ['mcpb'],
    });
    expect(summary.newestByPublishedAt).toBe(1);
  });

  it('turns an empty or non-http(s) repository URL into null', () => {
    expect(recordNamed('io.github.someone/foo').install.repo_url).toBeNull();
    expect(recordNamed('io.github.someone/github-mcp').install.repo_url).toBeNull();
    expect(recordNamed('io.github.redis-fan/notes').install.repo_url).toBeNull();
    expect(summary.repoUrlDropped).toBe(1);
  });

  it('copies scores, flags and signals and stamps every record with the run time', () => {
    const record = recordNamed('com.example/no-registry');
    const source = scorecard.servers['com.example/no-registry'];
    expect(record.scores).toEqual(source?.scores);
    expect(record.flags).toEqual(['NO_SOURCE', 'DEAD_ENTRY']);
    expect(record.signals).toEqual(source?.signals);
    expect(new Set(records.map((r) => r.scored_at))).toEqual(new Set(['2026-02-21T22:49:33.106359Z']));
  });

  it('labels a score by its band even when the source label disagrees', () => {
    expect(recordNamed('io.github.redis-fan/notes')).toMatchObject({ trust_score: 59, trust_label: 'Low Trust' });
    expect(summary.labelDisagreements).toEqual(['io.github.redis-fan/notes']);
  });

  it('marks exactly the allow-listed namespaces as verified publishers', () => {
    expect(records.filter((r) => r.verified_publisher).map((r) => r.name)).toEqual([
      'io.github.github/github-mcp-server',
    ]);
  });

  it('infers targets from the id, not from the GitHub account that hosts the code', () => {
    expect(recordNamed('io.github.someone/foo').targets).toEqual([]);
    expect(recordNamed('io.github.someone/github-mcp').targets).toEqual(['GitHub']);
    expect(recordNamed('io.github.redis-fan/notes').targets).toEqual([]);
    expect(recordNamed('ai.example/postgres-tools').targets).toEqual(['PostgreSQL']);
    expect(summary.targets).toEqual({ GitHub: 2, PostgreSQL: 1 });
  });

  it('counts the badges it hands out, every rule listed', () => {
    expect(Object.keys(summary.badges)).toEqual(BADGE_RULES.map((rule) => rule.id));
    expect(summary.badges['security-policy']).toBe(1);
    expect(summary.badges['popular']).toBe(2);
  });

  it('writes one compact record per line inside a JSON array', () => {
    const text = serializeDataset(records);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('[');
    expect(lines.at(-1)).toBe(']');
    expect(lines).toHaveLength(records.length + 2);
    expect(JSON.parse(text)).toEqual(records);
    expect(serializeDataset([])).toBe('[]\n');
  });
});

describe('choosing the newest registry version', () => {
  it('prefers a version marked isLatest over a later unmarked one', () => {
    const marked = version({ version: '1', publishedAt: '2025-10-01T00:00:00Z', isLatest: true });
    const later = version({ version: '2', publishedAt: '2025-11-01T00:00:00Z', isLatest: false });
    expect(pickNewestVersion([marked, later])).toBe(marked);
  });

  it('takes the latest publishedAt among several versions marked isLatest', () => {
    const a = version({ version: 'a', publishedAt: '2025-10-01T00:00:00.999Z', isLatest: true });
    const b = version({ version: 'b', publishedAt: '2025-10-01T00:00:01Z', isLatest: true });
    const c = version({ version: 'c', publishedAt: '2025-12-01T00:00:00Z', isLatest: false });
    expect(pickNewestVersion([b, a, c])).toBe(b);
  });

  it('breaks a publishedAt tie by the later position in the dump, and ranks a missing date first', () => {
    const first = version({ version: 'first', publishedAt: '2025-10-01T00:00:00Z' });
    const second = version({ version: 'second', publishedAt: '2025-10-01T00:00:00.000Z' });
    const undated = version({ version: 'undated' });
    expect(pickNewestVersion([first, second, undated])).toBe(second);
    expect(pickNewestVersion([undated])).toBe(undated);
    expect(pickNewestVersion([])).toBeUndefined();
  });

  it('orders timestamps by their fractional digits as numbers, not as text', () => {
    const key = timestampKey;
    expect(key('2025-10-19T15:06:55.12505Z')).toEqual([Date.parse('2025-10-19T15:06:55Z'), '125050000']);
    expect(key('2025-10-19T15:06:55Z')?.[1]).toBe('000000000');
    expect(key('19 October 2025')).toBeUndefined();
    expect(key(undefined)).toBeUndefined();
  });
});

describe('install information of one version', () => {
  it('keeps http(s) repository URLs as given and drops every other form', () => {
    expect(repoUrlFrom(' https://github.com/a/b.git ')).toBe('https://github.com/a/b.git');
    expect(repoUrlFrom('http://example.com/repo')).toBe('http://example.com/repo');
    expect(repoUrlFrom('git@github.com:a/b.git')).toBeNull();
    expect(repoUrlFrom('ftp://example.com/repo')).toBeNull();
    expect(repoUrlFrom('')).toBeNull();
    expect(repoUrlFrom(undefined)).toBeNull();
  });

  it('gives a null version when the registry has none, and skips blank package and transport types', () => {
    const install = installFrom(
      version({ packages: [{ registryType: '' }, { registryType: 'npm', transport: { type: ' ' } }], remotes: [{}] }),
    );
    expect(install).toEqual({ repo_url: null, version: null, package_types: ['npm'], transport_types: [] });
  });

  it('deduplicates types case-insensitively in order of first appearance', () => {
    const install = installFrom(
      version({
        version: '1.0.0',
        packages: [
          { registryType: 'pypi', transport: { type: 'stdio' } },
          { registryType: 'npm', transport: { type: 'streamable-http' } },
          { registryType: 'PyPI', transport: { type: 'stdio' } },
        ],
        remotes: [{ type: 'sse' }, { type: 'streamable-http' }],
      }),
    );
    expect(install.package_types).toEqual(['pypi', 'npm']);
    expect(install.transport_types).toEqual(['stdio', 'streamable-http', 'sse']);
  });
});

describe('registry extras of one version', () => {
  it('carries packages with their identifiers and versions, remotes with their URLs, and the description', () => {
    const entry = version({
      description: '  Reads files.  ',
      packages: [
        { registryType: 'npm', identifier: '@scope/pkg', version: '1.2.3' },
        { registryType: 'oci', identifier: 'docker.io/acme/tool:1.0' },
        { registryType: 'pypi' },
        { identifier: 'no-type' },
      ],
      remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }, { type: 'sse' }],
    });
    expect(packagesFrom(entry)).toEqual([
      { registry_type: 'npm', identifier: '@scope/pkg', version: '1.2.3' },
      { registry_type: 'oci', identifier: 'docker.io/acme/tool:1.0', version: null },
    ]);
    expect(remotesFrom(entry)).toEqual([{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }]);
    expect(descriptionFrom(entry)).toBe('Reads files.');
  });

  it('gives empty lists and a null description for a server with no registry entry, never invented values', () => {
    expect(packagesFrom(undefined)).toEqual([]);
    expect(remotesFrom(undefined)).toEqual([]);
    expect(descriptionFrom(undefined)).toBeNull();
    expect(descriptionFrom(version({ description: '   ' }))).toBeNull();
  });

  it('takes the newest version across several dumps: the later dump wins a server both know', () => {
    const older = version({ publishedAt: '2025-12-01T00:00:00Z', isLatest: true, description: 'old' });
    const newer = version({ publishedAt: '2026-03-01T00:00:00Z', isLatest: true, description: 'new' });
    expect(descriptionFrom(pickNewestVersion([older, newer]))).toBe('new');
    expect(descriptionFrom(pickNewestVersion([newer, older]))).toBe('new');
  });
});

describe('entries that cannot make a record', () => {
  const scored = Object.values(scorecard.servers)[0]!;
  const scoredAs = (...names: string[]) => ({
    generated_at: scorecard.generated_at,
    servers: Object.fromEntries(names.map((name) => [name, scored])),
  });

  it('leaves out and names a server whose entry breaks the record’s bounds, and joins the others', () => {
    const long = version({
      name: 'io.example/long',
      isLatest: true,
      remotes: [{ type: 'streamable-http', url: `https://mcp.example.com/${'a'.repeat(576)}` }],
    });
    const fine = version({ name: 'io.example/fine', isLatest: true });
    const result = joinDatasets(scoredAs('io.example/long', 'io.example/fine'), [long, fine]);
    expect(result.records.map((r) => r.name)).toEqual(['io.example/fine']);
    expect(result.leftOut).toEqual([{ name: 'io.example/long', reason: expect.stringMatching(/remotes\[0\]\.url/) }]);
  });

  it('keeps the name published first among names equal but for case, and leaves out the others', () => {
    const early = version({ name: 'io.example/twin', isLatest: true, publishedAt: '2025-01-01T00:00:00Z' });
    const late = version({ name: 'io.example/TWIN', isLatest: true, publishedAt: '2026-01-01T00:00:00Z' });
    const result = joinDatasets(scoredAs('io.example/TWIN', 'io.example/twin'), [late, early]);
    expect(result.records.map((r) => r.name)).toEqual(['io.example/twin']);
    expect(result.leftOut.map((left) => left.name)).toEqual(['io.example/TWIN']);
  });

  it('leaves out names whose id or namespace is a dot segment', () => {
    const result = joinDatasets(scoredAs('io.example/..', 'io.example/.', '../x', 'io.example/a..b'), []);
    expect(result.records.map((r) => r.name)).toEqual(['io.example/a..b']);
    expect(result.leftOut.map((left) => left.name).sort()).toEqual(['../x', 'io.example/.', 'io.example/..']);
    expect(result.leftOut[0]!.reason).toMatch(/dot segment/);
  });
});

describe('scored_at', () => {
  it('keeps a UTC timestamp with microseconds as it is, since z.iso.datetime accepts it', () => {
    expect(normaliseScoredAt('2026-02-21T22:49:33.106359Z')).toBe('2026-02-21T22:49:33.106359Z');
  });

  it('converts a timestamp with an offset to UTC', () => {
    expect(normaliseScoredAt('2026-02-22T00:49:33.106+02:00')).toBe('2026-02-21T22:49:33.106Z');
  });

  it('refuses a timestamp without a time zone', () => {
    expect(() => normaliseScoredAt('2026-02-21T22:49:33')).toThrow(ImportError);
  });
});

describe('target inference', () => {
  it('splits names into words on separators and case changes', () => {
    expect(nameWords('XcodeBuildMCP')).toEqual(['xcode', 'build', 'mcp']);
    expect(nameWords('io.github.some_one/neo4j-Cypher')).toEqual(['io', 'github', 'some', 'one', 'neo4j', 'cypher']);
  });

  it('ignores the hosting prefix and the account of a code-hosting namespace', () => {
    expect(inferTargets('io.github.someone/foo')).toEqual([]);
    expect(inferTargets('io.github.github/foo')).toEqual([]);
    expect(inferTargets('io.github.slack-fan/notes')).toEqual([]);
    expect(inferTargets('com.github.someone/foo')).toEqual([]);
    expect(inferTargets('io.gitlab.someone/foo')).toEqual([]);
  });

  it('finds a platform named in the id of a hosted server', () => {
    expect(inferTargets('io.github.someone/github-mcp')).toEqual(['GitHub']);
    expect(inferTargets('io.github.someone/mcp-server-slack')).toEqual(['Slack']);
  });

  it('matches the namespace of a publisher that is not a code host', () => {
    expect(inferTargets('com.stripe/mcp')).toEqual(['Stripe']);
    expect(inferTargets('com.gitlab/mcp')).toEqual(['GitLab']);
    expect(inferTargets('aws.api.us-east-1.eks-mcp/server')).toEqual(['AWS']);
  });

  it('matches whole words only, so git is not GitHub and mpg is not PostgreSQL', () => {
    expect(inferTargets('io.github.someone/git-tools')).toEqual([]);
    expect(inferTargets('io.github.someone/mpg-converter')).toEqual([]);
    expect(inferTargets('io.github.someone/pg-tools')).toEqual(['PostgreSQL']);
    expect(inferTargets('io.github.someone/slacker')).toEqual([]);
  });

  it('matches brand names split by case, separators, an mcp wrapper or a trailing number', () => {
    expect(inferTargets('io.github.someone/GitHubStats')).toEqual(['GitHub']);
    expect(inferTargets('io.github.someone/google-drive-sync')).toEqual(['Google Drive']);
    expect(inferTargets('io.github.someone/GoogleDrive')).toEqual(['Google Drive']);
    expect(inferTargets('ai.smithery/someone-discordmcp-suite')).toEqual(['Discord']);
    expect(inferTargets('ai.smithery/someone-google-calendar2')).toEqual(['Google Calendar']);
  });

  it('lists several targets once each, in table order, with display spellings', () => {
    expect(inferTargets('io.github.someone/postgres-to-github-postgres')).toEqual(['GitHub', 'PostgreSQL']);
    expect(inferTargets('io.github.someone/mongo-redis')).toEqual(['MongoDB', 'Redis']);
  });

  it('has a table of distinct display names with lower-case alphanumeric keywords', () => {
    const targets = TARGET_RULES.map((rule) => rule.target.toLowerCase());
    expect(new Set(targets).size).toBe(targets.length);
    const keywords = TARGET_RULES.flatMap((rule) => rule.keywords);
    expect(new Set(keywords).size).toBe(keywords.length);
    for (const keyword of keywords) expect(keyword).toMatch(/^[a-z0-9]+$/);
  });
});

describe('badges', () => {
  const base: Signals = scorecard.servers['io.github.someone/github-mcp']!.signals;

  it('gives no badge when no signal supports one', () => {
    expect(
      badgesFor({ ...base, last_push_recency: null, github_stars: null, has_license: false, repo_age_over_90d: false }),
    ).toEqual([]);
  });

  it('gives every badge, in table order, when every signal supports one', () => {
    const badges = badgesFor(scorecard.servers['io.github.github/github-mcp-server']!.signals);
    expect(badges.map((badge) => badge.id)).toEqual(BADGE_RULES.map((rule) => rule.id));
    for (const badge of badges) expect(BadgeSchema.safeParse(badge).success).toBe(true);
  });

  it('gives popular from the star threshold on, saying the stars and the threshold in words', () => {
    expect(badgesFor({ ...base, github_stars: POPULAR_MIN_STARS - 1 })).toEqual([]);
    expect(badgesFor({ ...base, github_stars: POPULAR_MIN_STARS })).toEqual([
      {
        id: 'popular',
        label: 'Popular',
        evidence: `${POPULAR_MIN_STARS} GitHub stars (the badge needs at least ${POPULAR_MIN_STARS})`,
      },
    ]);
  });

  it('gives actively-maintained from the push-recency threshold on', () => {
    const ids = (recency: number) =>
      badgesFor({ ...base, github_stars: 0, last_push_recency: recency }).map((badge) => badge.id);
    expect(ids(ACTIVE_MIN_PUSH_RECENCY - 0.001)).toEqual([]);
    expect(ids(ACTIVE_MIN_PUSH_RECENCY)).toEqual(['actively-maintained']);
    const evidence = badgesFor({ ...base, github_stars: 0, last_push_recency: 1 })[0]?.evidence;
    expect(evidence).toBe('Last push within 30 days of the scan (the badge needs a push within about 64 days)');
  });
});

describe('verified publishers', () => {
  it('accepts exactly the allow-listed namespaces', () => {
    expect(VERIFIED_PUBLISHER_NAMESPACES).toHaveLength(10);
    for (const namespace of VERIFIED_PUBLISHER_NAMESPACES) expect(isVerifiedPublisher(namespace)).toBe(true);
    expect(isVerifiedPublisher('io.github.githubnext')).toBe(false);
    expect(isVerifiedPublisher('io.github.GitHub')).toBe(false);
    expect(isVerifiedPublisher('com.microsoft.azure')).toBe(false);
  });
});

describe('reading the inputs', () => {
  it('refuses text that is not JSON with one line naming the file', () => {
    expect(() => parseInput(readFixture('not-json.json'), 'not-json.json', ScorecardIndexSchema)).toThrow(
      /^not-json\.json is not valid JSON: [^\n]+$/,
    );
  });

  it('refuses JSON of the wrong shape with one line naming the file and the field', () => {
    expect(() => parseInput(readFixture('wrong-shape.json'), 'wrong-shape.json', ScorecardIndexSchema)).toThrow(
      /^wrong-shape\.json does not have the expected shape: [^\n]*trust_score[^\n]*$/,
    );
    expect(() => parseInput('{}', 'registry.json', RegistryDumpSchema)).toThrow(/expected array/);
  });

  it('skips a leading byte-order mark, as the upstream registry dump has one', () => {
    expect(parseInput(`\uFEFF${readFixture('registry.json')}`, 'registry.json', RegistryDumpSchema)).toEqual(registry);
  });
});

describe('the import command', () => {
  const execFileAsync = promisify(execFile);
  const work = mkdtempSync(join(tmpdir(), 'import-test-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Run the CLI as a person would; resolves with its exit code and output whatever the code. */
  async function runImport(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await execFileAsync('npx', ['tsx', 'scripts/import.ts', ...args], {
        cwd: join(import.meta.dirname, '..'),
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }
  /** The command's own error lines (npx may add warnings of its own). */
  const importLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('import:'));

  it('writes a dataset of valid records from the fixtures', async () => {
    const out = join(work, 'nested', 'servers.json');
    const run = await runImport([
      ...['--scores', fixture('scores.json'), '--registry', fixture('registry.json')],
      ...['--out', out],
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('wrote 6 records');
    const written: unknown = JSON.parse(readFileSync(out, 'utf8'));
    expect(Array.isArray(written)).toBe(true);
    for (const record of written as unknown[]) expect(ServerRecordSchema.safeParse(record).success).toBe(true);
    expect(written).toEqual(records);
  });

  it('says in one line that an input file is missing, and writes nothing', async () => {
    const out = join(work, 'missing.json');
    const missing = fixture('no-such-file.json');
    const run = await runImport(['--scores', missing, '--registry', fixture('registry.json'), '--out', out]);
    expect(run.code).toBe(1);
    expect(importLines(run.stderr)).toEqual([`import: cannot read ${missing}: no such file`]);
    expect(existsSync(out)).toBe(false);
  });

  it('says in one line that an input file is not JSON, and writes nothing', async () => {
    const out = join(work, 'invalid.json');
    const run = await runImport([
      ...['--scores', fixture('scores.json'), '--registry', fixture('not-json.json')],
      ...['--out', out],
    ]);
    expect(run.code).toBe(1);
    const lines = importLines(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^import: .*not-json\.json is not valid JSON: /);
    expect(existsSync(out)).toBe(false);
  });

  it('joins several registry dumps given with a repeated --registry', async () => {
    const out = join(work, 'two-dumps.json');
    const run = await runImport([
      ...['--scores', fixture('scores.json'), '--registry', fixture('registry.json')],
      ...['--registry', fixture('registry-later.json'), '--out', out],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { name: string; description?: string | null }[];
    const later = JSON.parse(readFixture('registry-later.json')) as { server: { name: string; description: string } }[];
    for (const entry of later) {
      expect(written.find((record) => record.name === entry.server.name)?.description).toBe(entry.server.description);
    }
  });

  it('refuses to run without both inputs', async () => {
    const run = await runImport(['--scores', fixture('scores.json')]);
    expect(run.code).toBe(2);
    expect(importLines(run.stderr)).toEqual(['import: --scores and --registry are required']);
  });
});

describe('the committed dataset', () => {
  const ROOT = join(import.meta.dirname, '..');
  const text = readFileSync(join(ROOT, 'data', 'servers.json'), 'utf8');
  const committed = (JSON.parse(text) as unknown[]).map((record) => ServerRecordSchema.parse(record));
  const readme = readFileSync(join(ROOT, 'data', 'README.md'), 'utf8');

  /** The table rows between `<!-- name:start -->` and `<!-- name:end -->`, as cells, header rows dropped. */
  function readmeTable(name: string): string[][] {
    const section = readme.split(`<!-- ${name}:start -->`)[1]?.split(`<!-- ${name}:end -->`)[0] ?? '';
    return section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .slice(2)
      .map((line) =>
        line
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      );
  }
  const unquote = (cell: string) => cell.replaceAll('`', '');
  const count = (values: string[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>());

  it('holds all 2,296 scored servers, each a valid record, sorted by name and unique', () => {
    expect(committed).toHaveLength(2296);
    const names = committed.map((record) => record.name);
    expect(names).toEqual([...names].sort(compareNames));
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
  });

  it('is written in the importer format, one record per line', () => {
    expect(serializeDataset(committed)).toBe(text);
  });

  it('follows the current target, badge and verified-publisher rules', () => {
    for (const record of committed) {
      expect(record.targets).toEqual(inferTargets(record.name));
      expect(record.badges).toEqual(record.signals ? badgesFor(record.signals) : []);
      expect(record.verified_publisher).toBe(isVerifiedPublisher(record.name.slice(0, record.name.indexOf('/'))));
    }
  });

  it('is described by data/README.md: the target table, with its counts', () => {
    const rows = readmeTable('targets');
    expect(rows.map(([target, keywords]) => [target, unquote(keywords ?? '').split(', ')])).toEqual(
      TARGET_RULES.map((rule) => [rule.target, [...rule.keywords]]),
    );
    const counts = count(committed.flatMap((record) => record.targets));
    expect(rows.map(([target, , servers]) => [target, Number(servers)])).toEqual(
      TARGET_RULES.map((rule) => [rule.target, counts.get(rule.target) ?? 0]),
    );
  });

  it('is described by data/README.md: the badge table, with its counts', () => {
    const counts = count(committed.flatMap((record) => record.badges.map((badge) => badge.id)));
    expect(readmeTable('badges').map((cells) => cells.map(unquote))).toEqual(
      BADGE_RULES.map((rule) => [rule.id, rule.label, rule.rule, String(counts.get(rule.id) ?? 0)]),
    );
  });

  it('is described by data/README.md: the verified-publisher allow-list', () => {
    const section = readme.split('<!-- verified:start -->')[1]?.split('<!-- verified:end -->')[0] ?? '';
    const listed = section
      .split('\n')
      .filter((line) => line.startsWith('- '))
      .map((line) => unquote(line.slice(2)));
    expect(listed).toEqual([...VERIFIED_PUBLISHER_NAMESPACES]);
  });
});
