/**
 * mts-2 (`src/scoring/mts2.ts` and the sources of `src/scoring/sources/`): it scores only measured evidence,
 * says how much was measured, credits what the registry verified, and lets a blocking finding override all.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNREAD_SOURCES } from '../../src/snapshot-build/evidence-sources.js';
import { explainRecord } from '../../src/scoring/explain.js';
import { recordText } from '../../src/mcp/text.js';
import { EvidenceSchema } from '../../src/model/evidence.js';
import { ServerRecordSchema } from '../../src/model/record-schema.js';
import type { ServerRecord, Signals } from '../../src/model/schema.js';
import type { EvidenceSource } from '../../src/scoring/evidence-source.js';
import { CONFIDENCE_THRESHOLD, scoreReadings } from '../../src/scoring/mts2.js';
import { MTS2_RULES, MTS2_SOURCES } from '../../src/scoring/mts2-sources.js';
import { scoreRecord, type RegisteredSource } from '../../src/scoring/score-record.js';
import { REGISTRY_RULES, registrySource } from '../../src/scoring/sources/registry.js';
import { repositoryCase, REPOSITORY_RULES, repositorySource } from '../../src/scoring/sources/repository.js';
import { makeRecord, SIGNALS } from '../support/records.js';

const SOURCES: RegisteredSource[] = [
  { source: registrySource, rules: REGISTRY_RULES },
  { source: repositorySource, rules: REPOSITORY_RULES },
];
const UPSTREAM_RUN_AT = '2026-02-21T22:49:33.106359Z';

/** What the upstream method records for a server it has no GitHub data for (`github === null`). */
const NO_GITHUB: Partial<Signals> = {
  repo_not_archived: false,
  has_license: false,
  namespace_matches_owner: false,
  repo_age_over_90d: false,
  last_push_recency: 0,
  active_commit_weeks: null,
  contributor_count: null,
  releases_past_year: 0,
  github_stars: 0,
  github_forks: 0,
  github_watchers: 0,
};

function remoteRecord(name: string, signals: Partial<Signals> = {}, repoUrl: string | null = null): ServerRecord {
  return makeRecord({
    name,
    scored_at: UPSTREAM_RUN_AT,
    description: 'Work with your workspace pages and databases',
    install: { repo_url: repoUrl, version: '1.0.0', package_types: [], transport_types: ['streamable-http'] },
    packages: [],
    remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
    signals: {
      ...SIGNALS,
      ...NO_GITHUB,
      has_source_repo: repoUrl !== null,
      has_installable_package: false,
      has_website_url: true,
      secret_env_var_count: 0,
      transport_type_risk: 10,
      credential_sensitivity: 20,
      package_type_risk: 5,
      ...signals,
    },
  });
}

const score = (record: ServerRecord, sources = SOURCES) => scoreRecord(record, sources, UNREAD_SOURCES);

describe('mts-2', () => {
  it('does not score a server with no repository as one with 0 stars', () => {
    const { record, outcome } = score(remoteRecord('io.github.someone/notes'));
    // Every repository signal is null, its reason said once by the unmeasured source.
    expect(record.evidence?.sources.repository).toMatchObject({
      measured: false,
      missing: 'no repository in the registry entry',
    });
    expect(record.evidence?.sources.repository.signals['github_stars']).toBeNull();
    expect(record.evidence?.sources.repository).not.toHaveProperty('missing_signals');
    // A signal missing from a measured source carries its own reason.
    expect(record.evidence?.sources.registry.signals['repository_owner_is_publisher']).toBeNull();
    expect(record.evidence?.sources.registry).toMatchObject({
      measured: true,
      missing_signals: { repository_owner_is_publisher: 'no repository in the registry entry' },
    });
    expect(record.evidence?.sources.registry).not.toHaveProperty('missing');
    expect(EvidenceSchema.safeParse(record.evidence).success).toBe(true);
    const popularity = outcome.subscores.find((sub) => sub.name === 'popularity')!;
    expect(popularity).toMatchObject({ measured: false, measuredMax: 0 });
    // The same server with a repository that was read and has no stars does lose the popularity points.
    const zeroStars = score(
      remoteRecord(
        'io.github.someone/notes',
        { repo_not_archived: true, repo_age_over_90d: true, last_push_recency: 0.5, active_commit_weeks: 3 },
        'https://github.com/someone/notes',
      ),
    );
    expect(zeroStars.record.evidence?.sources.repository.signals['github_stars']).toBe(0);
    expect(zeroStars.outcome.subscores.find((sub) => sub.name === 'popularity')).toMatchObject({
      measured: true,
      score: 0,
    });
    const summary = explainRecord(record)?.summary ?? '';
    expect(summary).toContain('popularity was not measured (no repository in the registry entry)');
    expect(summary).not.toMatch(/0 (GitHub )?stars/);
  });

  it('scores a remote under a verified vendor domain well, with a lower confidence that still suffices', () => {
    const vendor = score(remoteRecord('com.example/mcp'));
    expect(vendor.record.trust_score).toBeGreaterThanOrEqual(60);
    expect(vendor.outcome.confidence).toBeLessThan(100);
    expect(vendor.outcome.confidence).toBeGreaterThanOrEqual(CONFIDENCE_THRESHOLD);
    expect(vendor.record.flags).not.toContain('INSUFFICIENT_EVIDENCE');
    expect(vendor.record.evidence?.sources.registry.signals['namespace_verification']).toBe('domain');
    // A GitHub login is a weaker proof than a domain: the same entry under one scores lower.
    const login = score(remoteRecord('io.github.someone/mcp'));
    expect(login.record.evidence?.sources.registry.signals['namespace_verification']).toBe('github');
    expect(login.record.trust_score).toBeLessThan(vendor.record.trust_score);
    // Less evidence never scores higher than the same facts with more measured: the full read wins.
    const read = score(
      remoteRecord(
        'com.example/mcp',
        {
          repo_not_archived: true,
          has_license: true,
          repo_age_over_90d: true,
          last_push_recency: 1,
          active_commit_weeks: 40,
          contributor_count: 7,
          github_stars: 2000,
          github_forks: 200,
          github_watchers: 60,
        },
        'https://github.com/example/mcp',
      ),
    );
    expect(read.outcome.confidence).toBe(100);
    expect(read.record.trust_score).toBeGreaterThan(vendor.record.trust_score);
  });

  it('never reaches a passing score without INSUFFICIENT_EVIDENCE when nothing was measured', () => {
    const none = scoreReadings([], MTS2_RULES);
    expect(none).toMatchObject({ trust_score: 0, confidence: 0, insufficient: true });
    // A record whose sources all fail to read is unmeasured throughout, and says why.
    const broken: EvidenceSource = {
      name: 'registry',
      read: () => {
        throw new Error('entry unreadable');
      },
    };
    const { record } = score(remoteRecord('com.example/mcp'), [{ source: broken, rules: REGISTRY_RULES }]);
    expect(record.trust_score).toBe(0);
    expect(record.flags).toContain('INSUFFICIENT_EVIDENCE');
    expect(record.evidence?.sources.registry).toMatchObject({
      measured: false,
      missing: expect.stringMatching(/reading this source failed: entry unreadable/),
    });
    // Whatever subset of the rules is measured, a confidence under the threshold always carries the flag.
    for (let mask = 0; mask < 1 << 6; mask++) {
      // Every rule of the method listed: the masked ones measured, all the others missing (never left out).
      const signals = Object.fromEntries(
        MTS2_RULES.map((rule, index) => [
          rule.signal,
          index < 6 && (mask >> index) & 1
            ? { source: rule.source, value: rule.signal === 'namespace_verification' ? 'domain' : true, missing: null }
            : { source: rule.source, value: null, missing: 'not measured in this test' },
        ]),
      );
      const reading = {
        source: 'registry' as const,
        state: { measured: true, at: null, by: 'test', third_party: false, missing: null },
        signals,
        findings: [],
      };
      const outcome = scoreReadings([reading, { ...reading, source: 'repository' as const }], MTS2_RULES);
      expect(outcome.insufficient).toBe(outcome.confidence < CONFIDENCE_THRESHOLD);
      if (outcome.trust_score >= 40)
        expect(outcome.confidence >= CONFIDENCE_THRESHOLD || outcome.insufficient).toBe(true);
    }
  });

  it('scores 0 on a blocking finding, whatever else was measured', () => {
    const advisories: EvidenceSource = {
      name: 'advisories',
      read: () => ({
        source: 'advisories',
        state: { measured: true, at: '2026-03-01T00:00:00Z', by: 'OSV', third_party: true, missing: null },
        signals: {},
        findings: [{ flag: 'KNOWN_MALICIOUS', detail: 'MAL-2026-1: the package is malware' }],
      }),
    };
    const good = remoteRecord('com.example/mcp');
    const { record, outcome } = score(good, [...SOURCES, { source: advisories, rules: [] }]);
    expect(score(good).record.trust_score).toBeGreaterThan(0);
    expect(record).toMatchObject({ trust_score: 0, trust_label: 'Unknown/Suspicious' });
    expect(record.flags).toContain('KNOWN_MALICIOUS');
    expect(outcome.blocking.map((finding) => finding.flag)).toEqual(['KNOWN_MALICIOUS']);
    expect(explainRecord(record)?.summary).toMatch(/^Trust score 0: KNOWN_MALICIOUS/);
  });

  it('leaves a signal its source does not list out of the confidence: it does not apply to the server', () => {
    const { outcome } = score(remoteRecord('com.example/mcp'));
    const registry = {
      source: 'registry' as const,
      state: { measured: true, at: null, by: 'test', third_party: false, missing: null },
      signals: Object.fromEntries(
        REGISTRY_RULES.map((rule) => [
          rule.signal,
          { source: 'registry' as const, value: null, missing: 'not measured' },
        ]),
      ),
      findings: [],
    };
    const lower = scoreReadings([registry], REGISTRY_RULES);
    expect(lower.confidence).toBe(0);
    // The same reading without the transport signal: a rule that does not apply changes neither total.
    const { transport: _transport, ...rest } = registry.signals;
    void _transport;
    const without = scoreReadings([{ ...registry, signals: rest }], REGISTRY_RULES);
    const permissions = without.subscores.find((sub) => sub.name === 'permissions')!;
    expect(permissions.totalMax).toBe(100 - 25);
    expect(outcome.subscores.find((sub) => sub.name === 'permissions')!.totalMax).toBe(100);
  });

  it('leaves an unmeasured rule out of its sub-score: earned points over the measured rules only', () => {
    const { outcome } = score(remoteRecord('com.example/mcp'));
    const provenance = outcome.subscores.find((sub) => sub.name === 'provenance')!;
    const measured = provenance.rules.filter((rule) => rule.points !== null);
    const max = measured.reduce((sum, rule) => sum + rule.rule.max, 0);
    const earned = measured.reduce((sum, rule) => sum + (rule.points ?? 0), 0);
    expect(provenance.measuredMax).toBe(max);
    expect(provenance.measuredMax).toBeLessThan(provenance.totalMax);
    expect(provenance.score).toBe(Math.round((100 * earned) / max));
    expect(Number.isInteger(outcome.confidence) && Number.isInteger(outcome.trust_score)).toBe(true);
  });

  it('tells apart no repository, not on GitHub, not read by the scoring run and no data from GitHub', () => {
    const cases = {
      none: remoteRecord('com.example/a'),
      gitlab: remoteRecord('com.example/b', {}, 'https://gitlab.com/example/b'),
      dotted: remoteRecord('com.example/c', {}, 'https://github.com/example/c.server'),
      unread: remoteRecord('com.example/d', {}, 'https://github.com/example/d'),
      empty: remoteRecord('com.example/e', { repo_not_archived: true }, 'https://github.com/example/e'),
      archived: makeRecord({
        ...remoteRecord('com.example/f', {}, 'https://github.com/example/f'),
        flags: ['REPO_ARCHIVED'],
      }),
    };
    const seen = Object.fromEntries(Object.entries(cases).map(([key, record]) => [key, repositoryCase(record).case]));
    expect(seen).toEqual({
      none: 'no-repository',
      gitlab: 'not-github',
      dotted: 'not-read',
      unread: 'not-read',
      empty: 'not-found',
      archived: 'read',
    });
    const missing = (record: ServerRecord) => {
      const repository = score(record).record.evidence?.sources.repository;
      return repository?.measured === false ? repository.missing : undefined;
    };
    expect(missing(cases.gitlab)).toMatch(/not on GitHub.*\(gitlab\.com\)/);
    expect(missing(cases.dotted)).toMatch(/does not recognise this form of GitHub URL/);
    expect(missing(cases.unread)).toMatch(/not read by the scoring run: it got no GitHub answer/);
    expect(missing(cases.empty)).toMatch(/no data for it from GitHub \(a 404, or a refused request\)/);
    // In this project's own run (another scored_at) only a 404 is an answer of nothing: a measurement.
    const ours = score({ ...cases.empty, scored_at: '2026-03-04T02:00:00Z' }).record.evidence!;
    expect(ours.sources.repository).toMatchObject({ measured: true, third_party: false, at: '2026-03-04T02:00:00Z' });
    expect(ours.sources.repository.signals['repository_found']).toBe(false);
    expect(ours.sources.repository.signals['github_stars']).toBeNull();
    expect(ours.sources.repository).toMatchObject({
      missing_signals: { github_stars: 'repository not found on GitHub (404)' },
    });
    const archived = score(cases.archived).record.evidence!;
    expect(archived.sources.repository).toMatchObject({
      measured: true,
      third_party: true,
      by: expect.stringMatching(/MCP Scorecard/),
    });
    expect(archived.sources.repository.signals['repo_not_archived']).toBe(false);
  });

  it('every rule table is data: each rule belongs to a registered source and earns 0..max', () => {
    const names = new Set(MTS2_SOURCES.map((source) => source.name));
    for (const rule of MTS2_RULES) {
      expect(names.has(rule.source)).toBe(true);
      expect(rule.max).toBeGreaterThan(0);
    }
    const signals = MTS2_RULES.map((rule) => rule.signal);
    expect(new Set(signals).size).toBe(signals.length);
  });
});

describe('mts-2 on the committed dataset', () => {
  const records = (
    JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../data/servers.json'), 'utf8')) as unknown[]
  ).map((raw) => ServerRecordSchema.parse(raw));
  const scored = new Map(records.map((record) => [record.name, score(record).record]));

  it("scores vendors' official servers on what was measured, not as Very Low Trust for missing data", () => {
    const names = [
      'com.notion/mcp',
      'app.linear/linear',
      'com.stripe/mcp',
      'aws.api.us-east-1.eks-mcp/server',
      'io.github.github/github-mcp-server',
    ];
    for (const name of names) {
      const record = scored.get(name)!;
      expect(record, name).toBeDefined();
      expect(record.trust_score, name).toBeGreaterThanOrEqual(40);
      expect(record.flags, name).not.toContain('INSUFFICIENT_EVIDENCE');
      expect(ServerRecordSchema.safeParse(record).success, name).toBe(true);
    }
    // Notion's remote has no repository: its score rests on the registry's verification, and says so.
    expect(scored.get('com.notion/mcp')?.evidence?.sources.repository).toMatchObject({
      measured: false,
      missing: 'no repository in the registry entry',
    });
  });

  it("counts a publisher's own word toward the confidence only when a verified domain or a read repository vouches for it", () => {
    for (const record of scored.values()) {
      const github = record.name.toLowerCase().startsWith('io.github.');
      const repositoryRead = record.evidence?.sources.repository.measured === true;
      expect(record.flags.includes('INSUFFICIENT_EVIDENCE'), record.name).toBe(github && !repositoryRead);
    }
    // context7's registry entry names its repository, but the upstream run never read it: its own entry and a
    // GitHub login are all that is known, so it warns by default instead of passing.
    const context7 = scored.get('io.github.upstash/context7')!;
    expect(context7.evidence?.sources.repository.measured).toBe(false);
    expect(context7.flags).toContain('INSUFFICIENT_EVIDENCE');
    expect(context7.trust_score).toBeGreaterThanOrEqual(40);
  });

  it('reproduces every score it serves from the evidence it serves (the explanation recomputes it)', () => {
    const unreproduced = [...scored.values()].filter((record) => explainRecord(record)?.reproduced !== true);
    expect(unreproduced.map((record) => record.name)).toEqual([]);
  });
});

describe('docs/api.md on the explanation', () => {
  it('quotes the mts-2 summaries of the committed records it names, word for word', () => {
    const records = (
      JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../data/servers.json'), 'utf8')) as unknown[]
    ).map((raw) => ServerRecordSchema.parse(raw));
    const document = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
    for (const name of ['io.github.github/github-mcp-server', 'com.notion/mcp']) {
      const record = score(records.find((r) => r.name === name)!).record;
      expect(document).toContain(`\`\`\`\n${explainRecord(record)?.summary}\n\`\`\``);
    }
  });
});

describe('the MCP text of a record scored with mts-2', () => {
  it('says what was measured and what was not, and why, so a model never reads a missing fact as a bad one', () => {
    const { record } = score(remoteRecord('com.example/mcp'));
    const text = recordText(record);
    expect(text).toContain('Evidence (method mts-2, confidence ');
    expect(text).toContain('measured registry;');
    expect(text).toContain('repository (no repository in the registry entry)');
    expect(text).not.toMatch(/0 (GitHub )?stars/);
  });
});
