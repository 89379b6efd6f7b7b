/**
 * What each scoring signal means, in words for people: the one table every text that cites a signal reads
 * from (badge evidence, the explanation of a score), so no sentence shows a field name such as
 * `last_push_recency`. The JSON keeps the field names; only the sentences use these words. The meanings
 * follow data/README.md's table of signals.
 */
import type { Signals } from './schema.js';

type SignalValue<K extends keyof Signals> = Signals[K];

/** A signal's value said as a phrase ("last push within 30 days of the scan"); `null` is "not measured". */
type Wording = { readonly [K in keyof Signals]: (value: Exclude<SignalValue<K>, null>) => string };

const count = (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the pipeline's points (higher is safer) stand for; a value outside the table is said as points. */
const pointsMeaning =
  (table: Record<number, string>, what: string) =>
  (points: number): string =>
    table[points] ?? `${what} worth ${points} points`;

/** Days since the last push that a recency stands for: 1 within 30 days, falling linearly to 0 at 365. */
export function daysSincePush(recency: number): number {
  // Rounded to 6 places first, so 0.9 is the 63.5 days it stands for (64), not the 63.4999… a double gives.
  return Math.round(Number((30 + (1 - recency) * 335).toFixed(6)));
}

const WORDING: Wording = {
  has_source_repo: (v) =>
    v ? 'a source repository in the registry entry' : 'no source repository in the registry entry',
  repo_not_archived: (v) =>
    v ? 'a repository that is not archived' : 'a repository archived or not readable on GitHub',
  has_license: (v) => (v ? 'a licence the scoring pipeline recognises' : 'no licence the scoring pipeline recognises'),
  has_installable_package: (v) => (v ? 'an installable package' : 'no installable package'),
  has_website_url: (v) => (v ? 'a website' : 'no website'),
  has_icon: (v) => (v ? 'an icon' : 'no icon'),
  namespace_matches_owner: (v) =>
    v
      ? 'a registry namespace that matches the GitHub owner of the repository'
      : 'a registry namespace that does not match the GitHub owner of the repository',
  has_security_md: (v) => (v ? 'a SECURITY.md security policy' : 'no SECURITY.md security policy'),
  has_code_of_conduct: (v) => (v ? 'a code of conduct' : 'no code of conduct'),
  unique_description: (v) => (v ? 'a description of its own' : 'an empty or template description'),
  repo_age_over_90d: (v) =>
    v ? 'a repository over 90 days old when scored' : 'a repository under 90 days old when scored',
  last_push_recency: (v) =>
    v >= 1
      ? 'last push within 30 days of the scan'
      : v <= 0
        ? 'no push within 365 days of the scan'
        : `last push about ${daysSincePush(v)} days before the scan`,
  active_commit_weeks: (v) => `commits in ${v} of the last 52 weeks`,
  contributor_count: (v) => `about ${count(v, 'contributor', 'contributors')}`,
  version_count: (v) => count(v, 'published version', 'published versions'),
  releases_past_year: (v) => (v === 0 ? 'no release activity' : `release activity rated ${v} of 15`),
  github_stars: (v) => count(v, 'GitHub star', 'GitHub stars'),
  github_forks: (v) => count(v, 'fork', 'forks'),
  github_watchers: (v) => count(v, 'watcher', 'watchers'),
  secret_env_var_count: (v) =>
    v === 0
      ? 'no secret environment variable'
      : count(v, 'secret environment variable', 'secret environment variables'),
  transport_type_risk: pointsMeaning(
    { 25: 'runs locally only (stdio)', 15: 'runs locally and remotely', 10: 'remote only', 5: 'no known transport' },
    'transport',
  ),
  credential_sensitivity: pointsMeaning(
    { 20: 'asks for no credentials', 15: 'asks for API keys or tokens', 5: 'asks for sensitive credentials' },
    'credentials',
  ),
  package_type_risk: pointsMeaning(
    { 15: 'published on npm or PyPI', 10: 'published as an OCI image', 5: 'no npm, PyPI or OCI package' },
    'package type',
  ),
};

/** What each signal is, for "… not measured". */
const SUBJECT: { readonly [K in keyof Signals]: string } = {
  has_source_repo: 'source repository',
  repo_not_archived: 'archive state',
  has_license: 'licence',
  has_installable_package: 'installable package',
  has_website_url: 'website',
  has_icon: 'icon',
  namespace_matches_owner: 'namespace owner match',
  has_security_md: 'security policy',
  has_code_of_conduct: 'code of conduct',
  unique_description: 'description',
  repo_age_over_90d: 'repository age',
  last_push_recency: 'last push',
  active_commit_weeks: 'commit activity',
  contributor_count: 'contributors',
  version_count: 'published versions',
  releases_past_year: 'release activity',
  github_stars: 'GitHub stars',
  github_forks: 'forks',
  github_watchers: 'watchers',
  secret_env_var_count: 'secret environment variables',
  transport_type_risk: 'transport',
  credential_sensitivity: 'credentials asked for',
  package_type_risk: 'package type',
};

/** The signals, in the order of the schema. */
export const SIGNAL_NAMES = Object.keys(SUBJECT) as ReadonlyArray<keyof Signals>;

/** Signal `name` with `value`, in words: "last push within 30 days of the scan", "GitHub stars not measured". */
export function signalWords<K extends keyof Signals>(name: K, value: SignalValue<K>): string {
  if (value === null) return `${SUBJECT[name]} not measured`;
  const say = WORDING[name] as (value: Exclude<SignalValue<K>, null>) => string;
  return say(value as Exclude<SignalValue<K>, null>);
}
