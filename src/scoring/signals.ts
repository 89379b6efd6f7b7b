/**
 * The 23 signals from a server's registry facts, its GitHub facts and the time of the scan, as the method makes
 * them, with the unrounded push recency its maintenance score scales.
 */
import type { Signals } from '../model/schema.js';
import type { GitHubFacts, ServerFacts } from './facts.js';
import {
  API_KEY_PATTERNS,
  CREDENTIAL_POINTS,
  PACKAGE_TYPE_RISK,
  PACKAGE_TYPE_RISK_DEFAULT,
  PUSH_RECENCY_FULL_DAYS,
  PUSH_RECENCY_MAX_DAYS,
  RELEASE_POINTS_BY_WEEKS,
  REPO_AGE_DAYS,
  SENSITIVE_CREDENTIAL_PATTERNS,
  TEMPLATE_DESCRIPTIONS,
  TRANSPORT_RISK,
  TRANSPORT_RISK_DEFAULT,
  TRANSPORT_RISK_MIXED,
  VERSION_COUNT_STUB,
} from './method.js';
import { bracket } from './subscores.js';

const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of an ISO time, fractions below a millisecond kept (the committed run has µs). */
export function preciseTime(iso: string): number {
  const match = /^(.*T\d{2}:\d{2}:\d{2})\.(\d+)(.*)$/.exec(iso);
  if (match === null) return Date.parse(iso);
  return Date.parse(`${match[1]}${match[3]}`) + Number(`0.${match[2]}`) * 1000;
}

/** Days from `iso` to the scan, never negative; null when the time is missing or unreadable. */
function daysBefore(iso: string | null, asOfMs: number): number | null {
  if (!iso) return null;
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return null;
  return Math.max((asOfMs - then) / DAY_MS, 0);
}

/** Python's round(x, 3) on the values recency takes (ties are not reachable from second-precision times). */
const round3 = (x: number): number => Number(x.toFixed(3));

export function isTemplateDescription(description: string): boolean {
  const lowered = description.toLowerCase().trim();
  return lowered !== '' && TEMPLATE_DESCRIPTIONS.some((template) => lowered.startsWith(template));
}

/** Lower-cased, without `.`, `-` and `_`: how the method compares a namespace with an owner. */
const comparable = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/[.\-_]/g, '');

export function isSensitiveVariable(name: string): boolean {
  const lowered = name.toLowerCase();
  return SENSITIVE_CREDENTIAL_PATTERNS.some((pattern) => lowered.includes(pattern));
}

function credentialSensitivity(facts: ServerFacts): number {
  let points: number = CREDENTIAL_POINTS.none;
  for (const variable of facts.envVars) {
    if (isSensitiveVariable(variable.name)) return CREDENTIAL_POINTS.sensitive;
    const lowered = variable.name.toLowerCase();
    if (API_KEY_PATTERNS.some((pattern) => lowered.includes(pattern))) points = CREDENTIAL_POINTS.apiKey;
  }
  return points;
}

function transportRisk(types: readonly string[]): number {
  if (types.length === 0) return TRANSPORT_RISK_DEFAULT;
  if (types.includes('stdio')) return types.length === 1 ? TRANSPORT_RISK['stdio']! : TRANSPORT_RISK_MIXED;
  return Math.max(...types.map((type) => TRANSPORT_RISK[type] ?? TRANSPORT_RISK_DEFAULT));
}

function packageRisk(types: readonly string[]): number {
  if (types.length === 0) return PACKAGE_TYPE_RISK_DEFAULT;
  return Math.max(...types.map((type) => PACKAGE_TYPE_RISK[type] ?? PACKAGE_TYPE_RISK_DEFAULT));
}

/** Commit-week counts of the participation statistics: the method's activity and its contributor estimate. */
function activity(participation: GitHubFacts['participation']): { weeks: number | null; contributors: number | null } {
  const all = participation?.all ?? [];
  if (all.length === 0) return { weeks: null, contributors: null };
  const owner = participation?.owner ?? [];
  const active = all.filter((commits) => commits > 0).length;
  if (active === 0) return { weeks: 0, contributors: null };
  if (owner.length !== all.length) return { weeks: active, contributors: Math.max(1, Math.floor(active / 10)) };
  const others = all.filter((commits, week) => commits > owner[week]!).length;
  // A heuristic of the method, not a count: weeks in which someone other than the owner committed.
  const contributors = others === 0 ? 1 : others >= 40 ? 10 : others >= 25 ? 7 : others >= 15 ? 5 : others >= 8 ? 3 : 2;
  return { weeks: active, contributors };
}

/** The push recency as a fraction: 1 within 30 days, falling linearly to 0 at 365 days, 0 when unknown. */
function pushRecency(pushedAt: string | null, asOfMs: number): number {
  const days = daysBefore(pushedAt, asOfMs);
  if (days === null) return 0;
  if (days <= PUSH_RECENCY_FULL_DAYS) return 1;
  if (days >= PUSH_RECENCY_MAX_DAYS) return 0;
  return 1 - (days - PUSH_RECENCY_FULL_DAYS) / (PUSH_RECENCY_MAX_DAYS - PUSH_RECENCY_FULL_DAYS);
}

/**
 * The signals of one server. `github` is null when the method has no GitHub data for it (no GitHub repository,
 * or never asked); a `GitHubFacts` whose three answers are all null is GitHub finding nothing (404), which the
 * method still counts as data: the repository is then "not archived".
 */
export function signalsFor(
  facts: ServerFacts,
  github: GitHubFacts | null,
  asOf: string,
): { signals: Signals; exactRecency: number } {
  const asOfMs = preciseTime(asOf);
  const repo = github?.repository ?? null;
  const age = daysBefore(repo?.createdAt ?? null, asOfMs);
  const recency = github === null ? 0 : pushRecency(repo?.pushedAt ?? null, asOfMs);
  const { weeks, contributors } =
    github === null ? { weeks: null, contributors: null } : activity(github.participation);
  const owner = repo !== null && github !== null ? comparable(github.owner) : '';
  const namespace = comparable(facts.namespace);
  const description = facts.description.toLowerCase().trim();
  const secrets = facts.envVars.filter((variable) => variable.isSecret).length;
  const signals: Signals = {
    has_source_repo: facts.repoUrl !== null,
    repo_not_archived: github !== null && !(repo?.archived ?? false),
    has_license: Boolean(repo?.spdxId),
    has_installable_package: facts.hasPackages,
    has_website_url: facts.hasWebsite,
    has_icon: facts.hasIcon,
    namespace_matches_owner:
      owner !== '' && namespace !== '' && (namespace.includes(owner) || owner.includes(namespace)),
    has_security_md: github?.community?.hasSecurityPolicy ?? false,
    has_code_of_conduct: github?.community?.hasCodeOfConduct ?? false,
    unique_description: description !== '' && !isTemplateDescription(description),
    repo_age_over_90d: age !== null && age > REPO_AGE_DAYS,
    last_push_recency: round3(recency),
    active_commit_weeks: weeks,
    contributor_count: contributors,
    version_count: VERSION_COUNT_STUB,
    releases_past_year: weeks === null ? 0 : bracket(weeks, RELEASE_POINTS_BY_WEEKS),
    github_stars: github === null ? 0 : (repo?.stars ?? 0),
    github_forks: github === null ? 0 : (repo?.forks ?? 0),
    github_watchers: github === null ? 0 : (repo?.watchers ?? 0),
    secret_env_var_count: secrets,
    transport_type_risk: transportRisk(facts.transportTypes),
    credential_sensitivity: credentialSensitivity(facts),
    package_type_risk: packageRisk(facts.packageTypes),
  };
  return { signals, exactRecency: recency };
}
