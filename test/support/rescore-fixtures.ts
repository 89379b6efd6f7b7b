/**
 * The stand-ins' data for reproducing the committed dataset: the committed registry entries as the registry
 * serves them, and for each GitHub repository the facts that make the committed signals under the method
 * (`--as-of` the committed `scored_at`). What cannot be made is said, per server, with the reason:
 * - the upstream run had no GitHub data for it (its rate limit ran out): the stand-in serves a repository all
 *   the same, so a correct pipeline scores it with data, and differently;
 * - a repository GitHub found nothing for (404) is left out of the stand-in, which then answers 404.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerRecord, Signals } from '../../src/model/schema.js';
import { UpstreamServerSchema } from '../../src/registry/upstream.js';
import { factsFromServer, parseGitHubRepo } from '../../src/scoring/facts.js';
import { maintenancePoints, subScoreTotal } from '../../src/scoring/subscores.js';
import { preciseTime } from '../../src/scoring/signals.js';
import type { StandInRepository } from './github-standin.js';
import type { StandInEntry } from './registry-standin.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DAY_MS = 86_400_000;

export interface CommittedData {
  records: ServerRecord[];
  entries: StandInEntry[];
  scoredAt: string;
}

export function committedData(): CommittedData {
  const records = JSON.parse(readFileSync(path.join(ROOT, 'data/servers.json'), 'utf8')) as ServerRecord[];
  const entries = JSON.parse(readFileSync(path.join(ROOT, 'data/registry/servers.json'), 'utf8')) as StandInEntry[];
  return { records, entries, scoredAt: records[0]!.scored_at };
}

/** The committed signals say the upstream run had no GitHub data for this server. */
export const scoredWithoutGitHub = (record: ServerRecord): boolean =>
  !record.signals!.repo_not_archived && !record.flags.includes('REPO_ARCHIVED');

/** The committed signals are what the method makes of a repository GitHub found nothing for. */
const nothingFound = (s: Signals): boolean =>
  s.repo_not_archived &&
  !s.has_license &&
  !s.repo_age_over_90d &&
  s.last_push_recency === 0 &&
  s.github_stars === 0 &&
  s.github_forks === 0 &&
  s.github_watchers === 0 &&
  !s.namespace_matches_owner &&
  s.active_commit_weeks === null &&
  !s.has_code_of_conduct;

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A push time whose recency rounds to the signal and whose unrounded value gives the stored maintenance. */
function pushedAt(s: Signals, maintenance: number, asOfMs: number): string {
  const r = s.last_push_recency ?? 0;
  if (r === 0) return iso(asOfMs - 400 * DAY_MS);
  if (r === 1) return iso(asOfMs - 2 * DAY_MS);
  for (let step = -9; step <= 9; step++) {
    const target = r + step * 0.00005;
    const at = iso(asOfMs - (30 + (1 - target) * 335) * DAY_MS);
    const days = (asOfMs - Date.parse(at)) / DAY_MS;
    const exact = days <= 30 ? 1 : days >= 365 ? 0 : 1 - (days - 30) / 335;
    if (Number(exact.toFixed(3)) !== r) continue;
    if (subScoreTotal(maintenancePoints(s, exact)) === maintenance) return at;
  }
  return iso(asOfMs - (30 + (1 - r) * 335) * DAY_MS);
}

/** Weeks of commits giving the method's activity count and contributor estimate. */
function participation(weeks: number | null, contributors: number | null): StandInRepository['participation'] {
  if (weeks === null) return 'computing';
  const others =
    contributors === null || contributors === 1 ? 0 : ({ 2: 1, 3: 8, 5: 15, 7: 25, 10: 40 }[contributors] ?? 1);
  const all = Array.from({ length: 52 }, (_, week) => (week < others ? 2 : week < weeks ? 1 : 0));
  const owner = Array.from({ length: 52 }, (_, week) => (week < weeks ? 1 : 0));
  return { all, owner };
}

export interface ReproductionFixtures {
  entries: StandInEntry[];
  repositories: StandInRepository[];
  /** Server name → why the stand-ins cannot give back its inputs exactly. */
  excluded: Map<string, string>;
}

export function reproductionFixtures(data: CommittedData = committedData()): ReproductionFixtures {
  const asOfMs = preciseTime(data.scoredAt);
  const byName = new Map(data.records.map((record) => [record.name, record]));
  const repositories = new Map<string, StandInRepository>();
  const excluded = new Map<string, string>();
  for (const record of data.records) {
    if (!data.entries.some((entry) => entry.server.name === record.name)) {
      excluded.set(
        record.name,
        'its registry entry breaks the registry schema, so the registry stand-in cannot serve it',
      );
    }
  }
  for (const entry of data.entries) {
    const record = byName.get(entry.server.name)!;
    const facts = factsFromServer(UpstreamServerSchema.parse(entry.server));
    const repo = parseGitHubRepo(facts.repoUrl);
    if (repo === null) continue;
    const key = `${repo.owner}/${repo.repo}`.toLowerCase();
    const s = record.signals!;
    if (scoredWithoutGitHub(record)) {
      excluded.set(record.name, 'the upstream run scored it without GitHub data (its rate limit ran out)');
    }
    if (repositories.has(key) || (!scoredWithoutGitHub(record) && nothingFound(s))) continue;
    repositories.set(key, {
      owner: repo.owner,
      name: repo.repo,
      stars: s.github_stars ?? 0,
      forks: s.github_forks ?? 0,
      watchers: s.github_watchers ?? 0,
      archived: record.flags.includes('REPO_ARCHIVED'),
      spdxId: s.has_license ? 'MIT' : null,
      createdAt: iso(asOfMs - (s.repo_age_over_90d ? 400 : 10) * DAY_MS),
      pushedAt: pushedAt(s, record.scores.maintenance, asOfMs),
      hasCodeOfConduct: s.has_code_of_conduct,
      participation: participation(s.active_commit_weeks, s.contributor_count),
    });
  }
  return { entries: data.entries, repositories: [...repositories.values()], excluded };
}

/**
 * A small registry and GitHub for fast tests: the first `count` committed entries whose GitHub repository the
 * stand-in serves with statistics ready, and those repositories.
 */
export function smallFixtures(count: number): { entries: StandInEntry[]; repositories: StandInRepository[] } {
  const all = reproductionFixtures();
  const byKey = new Map(all.repositories.map((repo) => [`${repo.owner}/${repo.name}`.toLowerCase(), repo]));
  const entries: StandInEntry[] = [];
  const repositories = new Map<string, StandInRepository>();
  for (const entry of all.entries) {
    if (entries.length >= count) break;
    const repo = parseGitHubRepo(factsFromServer(UpstreamServerSchema.parse(entry.server)).repoUrl);
    const found = repo && byKey.get(`${repo.owner}/${repo.repo}`.toLowerCase());
    if (!found || found.participation === 'computing' || repositories.has(`${found.owner}/${found.name}`.toLowerCase()))
      continue;
    entries.push(structuredClone(entry));
    repositories.set(`${found.owner}/${found.name}`.toLowerCase(), structuredClone(found));
  }
  return { entries, repositories: [...repositories.values()] };
}
