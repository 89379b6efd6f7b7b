/**
 * The scoring module on hand-made facts: what the method makes of a registry entry and of GitHub's answers,
 * including the cases the committed data cannot show one by one (a 404, statistics still computing, the
 * contributor estimate), and the flags.
 */
import { describe, expect, it } from 'vitest';
import { factsFromServer, parseGitHubRepo, type GitHubFacts, type MethodServer } from '../../src/scoring/facts.js';
import { flagContext, flagsFor } from '../../src/scoring/flags.js';
import { scoreServer } from '../../src/scoring/score.js';
import { signalsFor } from '../../src/scoring/signals.js';

const AS_OF = '2026-02-21T00:00:00Z';
const server = (extra: Partial<MethodServer> = {}): MethodServer => ({
  name: 'io.github.acme/widget-mcp',
  description: 'Manages widgets',
  repository: { url: 'https://github.com/acme/widget-mcp', source: 'github' },
  packages: [{ registryType: 'npm', identifier: '@acme/widget', transport: { type: 'stdio' } }],
  ...extra,
});
const github = (extra: Partial<GitHubFacts> = {}): GitHubFacts => ({
  owner: 'acme',
  repository: {
    stars: 150,
    forks: 12,
    watchers: 6,
    archived: false,
    spdxId: 'NOASSERTION',
    createdAt: '2025-01-01T00:00:00Z',
    pushedAt: '2026-02-20T00:00:00Z',
  },
  community: { hasSecurityPolicy: false, hasCodeOfConduct: true },
  participation: { all: Array(52).fill(1), owner: [...Array(40).fill(0), ...Array(12).fill(1)] },
  ...extra,
});

describe('scoreServer', () => {
  it('scores a well-kept repository by the method', () => {
    const facts = factsFromServer(server());
    const scored = scoreServer(facts, github(), flagContext([facts]), AS_OF);
    expect(scored.signals).toMatchObject({
      has_license: true, // the method at this version counts any SPDX id GitHub reports, NOASSERTION too
      namespace_matches_owner: true,
      active_commit_weeks: 52,
      contributor_count: 10,
      releases_past_year: 15,
      last_push_recency: 1,
    });
    // 80 = 25+10+10+15+10+5+5; 90 = 10+25+20+15+5+15; 51 = 0.6*55+0.4*30+0.4*15; 81.7 = 24+22.5+10.2+25.
    expect(scored.scores).toEqual({ provenance: 80, maintenance: 90, popularity: 51, permissions: 100 });
    expect(scored.trust_score).toBe(82);
    expect(scored.trust_label).toBe('High Trust');
    expect(scored.flags).toEqual([]);
  });

  it('counts a repository GitHub found nothing for as data: not archived, nothing else', () => {
    const facts = factsFromServer(server());
    const nothing = github({ repository: null, community: null, participation: null });
    const { signals } = signalsFor(facts, nothing, AS_OF);
    expect(signals).toMatchObject({ repo_not_archived: true, github_stars: 0, namespace_matches_owner: false });
    expect(signalsFor(facts, null, AS_OF).signals.repo_not_archived).toBe(false);
    expect(flagsFor(facts, nothing, flagContext([facts]))).not.toContain('DEAD_ENTRY');
  });

  it('leaves activity unknown while GitHub is still computing it, and zero weeks with no contributor estimate', () => {
    const facts = factsFromServer(server());
    expect(signalsFor(facts, github({ participation: null }), AS_OF).signals).toMatchObject({
      active_commit_weeks: null,
      contributor_count: null,
      releases_past_year: 0,
    });
    const idle = github({ participation: { all: Array(52).fill(0), owner: Array(52).fill(0) } });
    expect(signalsFor(facts, idle, AS_OF).signals).toMatchObject({ active_commit_weeks: 0, contributor_count: null });
  });

  it('raises the registry flags in the method order', () => {
    const template = server({
      name: 'io.example/test-server',
      description: 'An MCP server for things',
      repository: null,
      packages: [
        {
          registryType: 'npm',
          identifier: '',
          transport: { type: 'stdio' },
          environmentVariables: ['A_KEY', 'B_TOKEN', 'C_SECRET', 'D_PASSWORD', 'WALLET_PRIVATE_KEY'].map((name) => ({
            name,
            isSecret: true,
          })),
        },
      ],
    });
    const others = ['io.a/x', 'io.b/y'].map((name) => factsFromServer({ ...template, name }));
    const facts = factsFromServer(template);
    expect(flagsFor(facts, null, flagContext([facts, ...others]))).toEqual([
      'TEMPLATE_DESCRIPTION',
      'STAGING_ARTIFACT',
      'HIGH_SECRET_DEMAND',
      'SENSITIVE_CRED_REQUEST',
      'NO_SOURCE',
      'DESCRIPTION_DUPLICATE',
    ]);
    const dead = factsFromServer(server({ packages: [], remotes: [] }));
    expect(
      flagsFor(dead, github({ repository: { ...github().repository!, archived: true } }), flagContext([dead])),
    ).toEqual(['DEAD_ENTRY', 'REPO_ARCHIVED']);
  });

  it('recognises GitHub repository URLs as the method does', () => {
    expect(parseGitHubRepo('https://github.com/acme/widget.git/')).toEqual({ owner: 'acme', repo: 'widget' });
    expect(parseGitHubRepo(' http://github.com/acme/widget ')).toEqual({ owner: 'acme', repo: 'widget' });
    expect(parseGitHubRepo('https://github.com/acme/widget.js')).toBeNull();
    expect(parseGitHubRepo('https://gitlab.com/acme/widget')).toBeNull();
    expect(parseGitHubRepo('https://github.com/acme/widget/tree/main/server')).toBeNull();
    // Only names GitHub allows: an owner of dots would make /repos/../user a token-carrying request to /user.
    expect(parseGitHubRepo('https://github.com/../user')).toBeNull();
    expect(parseGitHubRepo('https://github.com/%2e%2e/user')).toBeNull();
    expect(parseGitHubRepo(`https://github.com/${'a'.repeat(40)}/x`)).toBeNull();
    expect(parseGitHubRepo(`https://github.com/${'a'.repeat(39)}/x`)).not.toBeNull();
    expect(parseGitHubRepo('https://github.com/acme/wid%67et')).toBeNull();
    expect(parseGitHubRepo('https://github.com/acme/wid?get')).toBeNull();
  });
});
