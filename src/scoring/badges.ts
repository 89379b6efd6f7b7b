/**
 * Badges: a few positive facts about a server, each read from one scoring signal by the table below and
 * shown with its evidence, that signal's value in words (src/model/signal-words.ts). Flags already carry the
 * negative findings, so badges only ever say something good; a badge that is absent means "not shown by the
 * signals", never "known to be false". data/README.md mirrors the table (a test keeps the two in step).
 */
import type { Badge, Signals } from '../model/schema.js';
import { daysSincePush, signalWords } from '../model/signal-words.js';

/** One row of the badge table: the badge, its rule in words, and the rule itself. */
export interface BadgeRule {
  readonly id: string;
  readonly label: string;
  /** The rule as data/README.md states it. */
  readonly rule: string;
  /** The signal the badge is read from; its evidence says that signal's value in words (signal-words.ts). */
  readonly signal: keyof Signals;
  /** Whether the rule holds. */
  readonly holds: (signals: Signals) => boolean;
  /** The threshold in words, added to the evidence where the rule has one. */
  readonly threshold?: string;
}

/** Stars from which a server counts as popular: about the top 6% of the 2026-02-21 scorecard. */
export const POPULAR_MIN_STARS = 100;

/**
 * `last_push_recency` from which a repository counts as actively maintained. The pipeline scores 1 for a push
 * within 30 days of the scan, falling linearly to 0 at 365 days, so 0.9 means a push within about 64 days.
 */
export const ACTIVE_MIN_PUSH_RECENCY = 0.9;

/** The badge table, in output order. */
export const BADGE_RULES: readonly BadgeRule[] = [
  { id: 'license', label: 'License', rule: 'has_license is true', signal: 'has_license', holds: (s) => s.has_license },
  {
    id: 'security-policy',
    label: 'Security policy',
    rule: 'has_security_md is true',
    signal: 'has_security_md',
    holds: (s) => s.has_security_md,
  },
  {
    id: 'code-of-conduct',
    label: 'Code of conduct',
    rule: 'has_code_of_conduct is true',
    signal: 'has_code_of_conduct',
    holds: (s) => s.has_code_of_conduct,
  },
  {
    id: 'established',
    label: 'Established',
    rule: 'repo_age_over_90d is true',
    signal: 'repo_age_over_90d',
    holds: (s) => s.repo_age_over_90d,
  },
  {
    id: 'actively-maintained',
    label: 'Actively maintained',
    rule: `last_push_recency is at least ${ACTIVE_MIN_PUSH_RECENCY}`,
    signal: 'last_push_recency',
    holds: (s) => s.last_push_recency !== null && s.last_push_recency >= ACTIVE_MIN_PUSH_RECENCY,
    threshold: `the badge needs a push within about ${daysSincePush(ACTIVE_MIN_PUSH_RECENCY)} days`,
  },
  {
    id: 'popular',
    label: 'Popular',
    rule: `github_stars is at least ${POPULAR_MIN_STARS}`,
    signal: 'github_stars',
    holds: (s) => s.github_stars !== null && s.github_stars >= POPULAR_MIN_STARS,
    threshold: `the badge needs at least ${POPULAR_MIN_STARS}`,
  },
  {
    id: 'namespace-owner-match',
    label: 'Namespace matches repository owner',
    rule: 'namespace_matches_owner is true',
    signal: 'namespace_matches_owner',
    holds: (s) => s.namespace_matches_owner,
  },
];

/** The evidence of a badge whose rule holds: its signal's value in words, and the threshold if it has one. */
export function badgeEvidence(rule: BadgeRule, signals: Signals): string {
  const words = signalWords(rule.signal, signals[rule.signal]);
  const sentence = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  return rule.threshold === undefined ? sentence : `${sentence} (${rule.threshold})`;
}

/** The badges a server earns from its signals, in the order of BADGE_RULES. */
export function badgesFor(signals: Signals): Badge[] {
  const badges: Badge[] = [];
  for (const rule of BADGE_RULES) {
    if (rule.holds(signals)) badges.push({ id: rule.id, label: rule.label, evidence: badgeEvidence(rule, signals) });
  }
  return badges;
}
