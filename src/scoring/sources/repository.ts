/**
 * The source repository as a source of evidence: the GitHub facts the scoring run that made the dataset's
 * signals measured. For the committed dataset that is MCP Scorecard's run of 2026-02-21 (a third party,
 * data/README.md); a dataset written by `npm run rescore` carries this project's own run.
 *
 * The upstream signals do not say outright whether the run read a repository: its method turns "no GitHub
 * data" into false, 0 and null (`src/scoring/signals.ts`). This module tells the cases apart from the
 * signals and flags, so that a repository nobody read is never taken for one with 0 stars:
 * - no repository in the registry entry (`has_source_repo` false);
 * - a repository that is not on GitHub (the run reads GitHub only);
 * - a GitHub URL the run does not recognise (a repository name with a dot), or a GitHub repository the run
 *   never got an answer for (its quota ran out): `github === null` in the method, which makes
 *   `repo_not_archived` false without the REPO_ARCHIVED flag;
 * - a repository GitHub gave no data for: the upstream enricher keeps a request answered with anything but
 *   200 as nothing, so a 404 and a request refused once its quota was spent look the same: an answer of
 *   nothing, which makes `repo_not_archived` true with every repository fact empty (no age, no push, no
 *   licence, no counts). Since the two cannot be told apart in the upstream run, this is not read as "the
 *   repository does not exist": the source is unmeasured and says so. This project's own run
 *   (`src/pipeline/github.ts`) keeps only a 404 as an answer of nothing, so in its datasets the pattern is a
 *   measurement: the repository was not found (404), which earns no `repository_found` points.
 */
import type { SignalReading, SourceState } from '../../model/evidence.js';
import type { ServerRecord } from '../../model/schema.js';
import type { EvidenceSource, SignalRule, SourceReading } from '../evidence-source.js';
import { parseGitHubRepo } from '../facts.js';
import { CONTRIBUTOR_TIERS, FORK_BRACKETS, STAR_BRACKETS, WATCHER_BRACKETS, type Brackets } from '../method.js';
import type { Signals } from '../../model/schema.js';
import { measured, missing } from './reading.js';

/** `generated_at` of the MCP Scorecard run that wrote the committed dataset's signals. */
export const UPSTREAM_RUN_AT = '2026-02-21T22:49:33.106359Z';
const UPSTREAM_BY = "MCP Scorecard's scoring run of 2026-02-21 (gigabrainobserver/mcp-scorecard, commit 7bc729d)";
const OWN_BY = "this project's rescoring pipeline (npm run rescore), from GitHub's API";

/** The host of an http(s) URL (`install.repo_url` is one, checked by the record schema). */
const URL_HOST = /^https?:\/\/(?:[^@/?#]*@)?([^:/?#]+)/i;

export type RepositoryCase = 'no-signals' | 'no-repository' | 'not-github' | 'not-read' | 'not-found' | 'read';

/** Why the repository facts are missing, per case; `read` and `not-found` are measurements. */
export const REPOSITORY_MISSING: Readonly<Record<Exclude<RepositoryCase, 'read'>, string>> = {
  'no-signals': 'the dataset holds no repository facts for this server',
  'no-repository': 'no repository in the registry entry',
  'not-github': 'the repository is not on GitHub, and the scoring run reads GitHub only',
  'not-read': 'repository not read by the scoring run: it got no GitHub answer for it',
  'not-found': 'repository not found: the scoring run got no data for it from GitHub (a 404, or a refused request)',
};

/** Why the facts of a repository GitHub answered 404 for are missing (this project's own run). */
const NOT_FOUND_404 = 'repository not found on GitHub (404)';

const REPOSITORY_SIGNALS = [
  'repository_found',
  'has_license',
  'repo_not_archived',
  'repo_age_over_90d',
  'last_push_recency',
  'active_commit_weeks',
  'contributor_count',
  'github_stars',
  'github_forks',
  'github_watchers',
] as const;

/** Which case of the module comment a record is in, from its upstream signals, flags and repository URL. */
export function repositoryCase(record: ServerRecord): {
  case: RepositoryCase;
  signals?: Signals;
  why?: string;
} {
  const s = record.signals;
  if (s === undefined) return { case: 'no-signals' };
  if (s.has_source_repo !== true) return { case: 'no-repository', signals: s };
  const url = record.install.repo_url;
  if (url !== null) {
    const host = (URL_HOST.exec(url)?.[1] ?? '').toLowerCase();
    if (host !== '' && host !== 'github.com' && host !== 'www.github.com') {
      return { case: 'not-github', signals: s, why: `${REPOSITORY_MISSING['not-github']} (${host})` };
    }
    if (parseGitHubRepo(url) === null) {
      return {
        case: 'not-read',
        signals: s,
        why: 'repository not read by the scoring run: it does not recognise this form of GitHub URL',
      };
    }
  }
  const archived = record.flags.includes('REPO_ARCHIVED');
  if (s.repo_not_archived !== true && !archived) return { case: 'not-read', signals: s };
  const empty =
    s.repo_not_archived === true &&
    s.repo_age_over_90d !== true &&
    (s.last_push_recency ?? 0) === 0 &&
    s.has_license !== true &&
    (s.github_stars ?? 0) === 0 &&
    (s.github_forks ?? 0) === 0 &&
    (s.github_watchers ?? 0) === 0 &&
    s.active_commit_weeks === null;
  return { case: empty ? 'not-found' : 'read', signals: s };
}

function readRepository(record: ServerRecord): SourceReading {
  const found = repositoryCase(record);
  const ours = record.scored_at !== UPSTREAM_RUN_AT;
  const by = ours ? OWN_BY : UPSTREAM_BY;
  const signals: Record<string, SignalReading> = {};
  const allMissing = (why: string) => {
    for (const signal of REPOSITORY_SIGNALS) signals[signal] = missing('repository', why);
  };
  let state: SourceState;
  if (found.case === 'read') {
    state = { measured: true, at: record.scored_at, by, third_party: !ours, missing: null };
  } else if (found.case === 'not-found' && ours) {
    // This project's run keeps only a 404 as an answer of nothing (a refused request stops it, unread), so
    // here the answer of nothing is a measurement: GitHub has no such repository.
    state = { measured: true, at: record.scored_at, by, third_party: false, missing: null };
    allMissing(NOT_FOUND_404);
    signals['repository_found'] = measured('repository', false);
  } else {
    const why = found.why ?? REPOSITORY_MISSING[found.case];
    state = { measured: false, at: null, by: null, third_party: false, missing: why };
    allMissing(why);
  }
  if (found.case === 'read') {
    const s = found.signals!;
    const noStats = 'GitHub gave the scoring run no commit statistics for it';
    signals['repository_found'] = measured('repository', true);
    signals['has_license'] = measured('repository', s.has_license === true);
    signals['repo_not_archived'] = measured('repository', !record.flags.includes('REPO_ARCHIVED'));
    signals['repo_age_over_90d'] = measured('repository', s.repo_age_over_90d === true);
    signals['last_push_recency'] = measured('repository', s.last_push_recency ?? 0);
    signals['active_commit_weeks'] =
      typeof s.active_commit_weeks === 'number'
        ? measured('repository', s.active_commit_weeks)
        : missing('repository', noStats);
    signals['contributor_count'] =
      typeof s.contributor_count === 'number'
        ? measured('repository', s.contributor_count)
        : missing('repository', noStats);
    signals['github_stars'] = measured('repository', s.github_stars ?? 0);
    signals['github_forks'] = measured('repository', s.github_forks ?? 0);
    signals['github_watchers'] = measured('repository', s.github_watchers ?? 0);
  }
  return { source: 'repository', state, signals, findings: [] };
}

export const repositorySource: EvidenceSource = {
  name: 'repository',
  read: ({ record }) => readRepository(record),
};

const bracket = (value: number, brackets: Brackets): number => {
  for (const [threshold, result] of brackets) if (value >= threshold) return result;
  return 0;
};
const num = (v: boolean | number | string): number => (typeof v === 'number' ? v : 0);
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * The repository's rules. Provenance: the repository exists, is licensed and is not archived. Maintenance:
 * age, recent pushes, weeks with commits, and more than one committer. Popularity (the least weight of the
 * method: being popular is not being safe): stars, forks and watchers on the upstream method's log brackets.
 */
export const REPOSITORY_RULES: readonly SignalRule[] = [
  {
    signal: 'repository_found',
    source: 'repository',
    subscore: 'provenance',
    max: 10,
    points: (v) => (v === true ? 10 : 0),
    explain: (v) =>
      v === true ? 'the repository exists on GitHub' : 'the repository named was not found on GitHub (404)',
  },
  {
    signal: 'has_license',
    source: 'repository',
    subscore: 'provenance',
    max: 10,
    points: (v) => (v === true ? 10 : 0),
    explain: (v) => (v === true ? 'a licence GitHub recognises' : 'no licence GitHub recognises'),
  },
  {
    signal: 'repo_not_archived',
    source: 'repository',
    subscore: 'provenance',
    max: 5,
    points: (v) => (v === true ? 5 : 0),
    explain: (v) => (v === true ? 'a repository that is not archived' : 'an archived repository'),
  },
  {
    signal: 'repo_age_over_90d',
    source: 'repository',
    subscore: 'maintenance',
    max: 15,
    points: (v) => (v === true ? 15 : 0),
    explain: (v) => (v === true ? 'a repository over 90 days old' : 'a repository under 90 days old'),
  },
  {
    signal: 'last_push_recency',
    source: 'repository',
    subscore: 'maintenance',
    max: 35,
    points: (v) => Math.min(Math.max(num(v), 0), 1) * 35,
    explain: (v) =>
      num(v) >= 1
        ? 'last push within 30 days of the scan'
        : num(v) <= 0
          ? 'no push within 365 days of the scan'
          : `last push about ${Math.round(30 + (1 - num(v)) * 335)} days before the scan`,
  },
  {
    signal: 'active_commit_weeks',
    source: 'repository',
    subscore: 'maintenance',
    max: 30,
    points: (v) => Math.min(num(v) / 52, 1) * 30,
    explain: (v) => `commits in ${num(v)} of the last 52 weeks`,
  },
  {
    signal: 'contributor_count',
    source: 'repository',
    subscore: 'maintenance',
    max: 20,
    points: (v) => bracket(num(v), CONTRIBUTOR_TIERS) * 20,
    explain: (v) => `about ${plural(num(v), 'contributor')} (an estimate from commit weeks)`,
  },
  {
    signal: 'github_stars',
    source: 'repository',
    subscore: 'popularity',
    max: 55,
    points: (v) => bracket(num(v), STAR_BRACKETS) * 55,
    explain: (v) => plural(num(v), 'GitHub star'),
  },
  {
    signal: 'github_forks',
    source: 'repository',
    subscore: 'popularity',
    max: 30,
    points: (v) => bracket(num(v), FORK_BRACKETS) * 30,
    explain: (v) => plural(num(v), 'fork'),
  },
  {
    signal: 'github_watchers',
    source: 'repository',
    subscore: 'popularity',
    max: 15,
    points: (v) => bracket(num(v), WATCHER_BRACKETS) * 15,
    explain: (v) => plural(num(v), 'watcher'),
  },
];
