/**
 * Badges: a few positive facts about a server, each read from one scoring signal by the table below and
 * shown with its evidence. Flags already carry the negative findings, so badges only ever say something good;
 * a badge that is absent means "not shown by the signals", never "known to be false". data/README.md mirrors
 * the table (a test keeps the two in step).
 */
import type { Badge, Signals } from '../model/schema.js';

/** One row of the badge table: the badge, its rule in words, and the rule itself. */
export interface BadgeRule {
  readonly id: string;
  readonly label: string;
  /** The rule as data/README.md states it. */
  readonly rule: string;
  /** The evidence sentence when the rule holds, or `undefined` when it does not. */
  readonly evidence: (signals: Signals) => string | undefined;
}

/** Stars from which a server counts as popular: about the top 6% of the 2026-02-21 scorecard. */
export const POPULAR_MIN_STARS = 100;

/**
 * `last_push_recency` from which a repository counts as actively maintained. The pipeline scores 1 for a push
 * within 30 days of the scan, falling linearly to 0 at 365 days, so 0.9 means a push within about 64 days.
 */
export const ACTIVE_MIN_PUSH_RECENCY = 0.9;

const when = (holds: boolean, evidence: string): string | undefined => (holds ? evidence : undefined);

/** The badge table, in output order. */
export const BADGE_RULES: readonly BadgeRule[] = [
  {
    id: 'license',
    label: 'License',
    rule: 'has_license is true',
    evidence: (s) =>
      when(s.has_license, 'has_license is true: the repository declares a license the scoring pipeline recognises'),
  },
  {
    id: 'security-policy',
    label: 'Security policy',
    rule: 'has_security_md is true',
    evidence: (s) => when(s.has_security_md, 'has_security_md is true: the repository has a SECURITY.md policy'),
  },
  {
    id: 'code-of-conduct',
    label: 'Code of conduct',
    rule: 'has_code_of_conduct is true',
    evidence: (s) => when(s.has_code_of_conduct, 'has_code_of_conduct is true: the repository has a code of conduct'),
  },
  {
    id: 'established',
    label: 'Established',
    rule: 'repo_age_over_90d is true',
    evidence: (s) =>
      when(s.repo_age_over_90d, 'repo_age_over_90d is true: the repository was over 90 days old when scored'),
  },
  {
    id: 'actively-maintained',
    label: 'Actively maintained',
    rule: `last_push_recency is at least ${ACTIVE_MIN_PUSH_RECENCY}`,
    evidence: (s) =>
      s.last_push_recency !== null && s.last_push_recency >= ACTIVE_MIN_PUSH_RECENCY
        ? `last_push_recency is ${s.last_push_recency} (at least ${ACTIVE_MIN_PUSH_RECENCY}): ` +
          'the repository was pushed to within about 64 days of the scan'
        : undefined,
  },
  {
    id: 'popular',
    label: 'Popular',
    rule: `github_stars is at least ${POPULAR_MIN_STARS}`,
    evidence: (s) =>
      s.github_stars !== null && s.github_stars >= POPULAR_MIN_STARS
        ? `github_stars is ${s.github_stars} (at least ${POPULAR_MIN_STARS})`
        : undefined,
  },
  {
    id: 'namespace-owner-match',
    label: 'Namespace matches repository owner',
    rule: 'namespace_matches_owner is true',
    evidence: (s) =>
      when(
        s.namespace_matches_owner,
        'namespace_matches_owner is true: the registry namespace matches the GitHub owner of the repository',
      ),
  },
];

/** The badges a server earns from its signals, in the order of BADGE_RULES. */
export function badgesFor(signals: Signals): Badge[] {
  const badges: Badge[] = [];
  for (const rule of BADGE_RULES) {
    const evidence = rule.evidence(signals);
    if (evidence !== undefined) badges.push({ id: rule.id, label: rule.label, evidence });
  }
  return badges;
}
