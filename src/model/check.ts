/**
 * The bulk policy verdict of `POST /v1/check`: the request body, the policy, and the rules that turn what a
 * lookup found into a verdict per server, each with reasons a person can act on (which rule, the value found,
 * the threshold). Pure: resolving an item to a record is the handler's job, so the CLI and the tests can use
 * the same rules.
 */
import { z } from 'zod';
import { advisoryReason, isBlocking } from './advisory-check.js';
import type { AdvisoryFinding } from './advisory-match.js';
import { IdentifierError, parsePackageRef, parseRemoteUrl } from './identifiers.js';
import { purlKey } from './purl.js';
import { FlagSchema, LIMITS, ServerNameSchema, type ServerRecord } from './schema.js';
import { flagDefinition } from './vocabulary.js';

export const CHECK_LIMITS = { maxItems: 100, maxNames: 500, maxBodyBytes: 64 * 1024 } as const;

/** A zod check that `parse` accepts the text, with its message as the issue's. */
function identifier(parse: (text: string) => string) {
  return z.superRefine<string>((text, context) => {
    try {
      parse(text);
    } catch (error) {
      if (!(error instanceof IdentifierError)) throw error;
      context.addIssue({ code: 'custom', message: error.message });
    }
  });
}

export const CheckItemSchema = z.union(
  [
    ServerNameSchema,
    z.strictObject({ package: z.string().trim().min(3).max(LIMITS.maxLookup).check(identifier(parsePackageRef)) }),
    z.strictObject({ url: z.string().trim().min(1).max(LIMITS.maxLookup).check(identifier(parseRemoteUrl)) }),
    z.strictObject({ purl: z.string().trim().min(5).max(LIMITS.maxLookup).check(identifier(purlKey)) }),
  ],
  {
    error:
      'each item of servers is a server name "<namespace>/<id>", {"package": "<registry_type>:<identifier>"}, {"purl": "pkg:<type>/<name>"} or {"url": "<remote url>"}',
  },
);
export type CheckItem = z.infer<typeof CheckItemSchema>;

export const UNKNOWN_VERDICTS = ['fail', 'warn', 'pass'] as const;

/**
 * The policy of a check that sets nothing: a server below 40 (Very Low Trust and below) fails, and so does
 * a server that matches no scored server. Each member a policy leaves out takes its value from here.
 */
export const DEFAULT_POLICY = { min_score: 40, unknown: 'fail' } as const;

export const PolicySchema = z.strictObject({
  min_score: z
    .number({ error: 'policy.min_score must be an integer from 0 to 100' })
    .int({ error: 'policy.min_score must be an integer from 0 to 100' })
    .min(0, { error: 'policy.min_score must be an integer from 0 to 100' })
    .max(100, { error: 'policy.min_score must be an integer from 0 to 100' })
    .default(DEFAULT_POLICY.min_score),
  deny_flags: z.array(FlagSchema).max(64).optional(),
  require_verified_publisher: z
    .boolean({ error: 'policy.require_verified_publisher must be true or false' })
    .optional(),
  allow: z.array(ServerNameSchema).max(CHECK_LIMITS.maxNames).optional(),
  deny: z.array(ServerNameSchema).max(CHECK_LIMITS.maxNames).optional(),
  unknown: z
    .enum(UNKNOWN_VERDICTS, { error: 'policy.unknown must be fail, warn or pass' })
    .default(DEFAULT_POLICY.unknown),
});
export type Policy = z.infer<typeof PolicySchema>;

export const CheckRequestSchema = z.strictObject({
  servers: z
    .array(CheckItemSchema)
    .min(1, { error: 'servers must hold at least one item' })
    .max(CHECK_LIMITS.maxItems, { error: `servers may hold at most ${CHECK_LIMITS.maxItems} items` }),
  policy: PolicySchema.default({ ...DEFAULT_POLICY }),
});
export type CheckRequest = z.infer<typeof CheckRequestSchema>;

export type Verdict = 'pass' | 'warn' | 'fail';

export const CheckResultSchema = z.strictObject({
  input: CheckItemSchema,
  server: z.string().nullable(),
  trust_score: z.number().int().min(0).max(100).nullable(),
  trust_label: z.string().nullable(),
  verdict: z.enum(['pass', 'warn', 'fail']),
  reasons: z.array(z.string()),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

export const CheckAnswerSchema = z.strictObject({
  verdict: z.enum(['pass', 'fail']),
  results: z.array(CheckResultSchema),
});
export type CheckAnswer = z.infer<typeof CheckAnswerSchema>;

/** How an item is looked up: by exact name, or by a normalised package or URL key. */
export type ItemQuery = { kind: 'name'; name: string } | { kind: 'package' | 'url'; key: string };

/** The lookup an item asks for; an IdentifierError when its package or URL is malformed. */
export function itemQuery(item: CheckItem): ItemQuery {
  if (typeof item === 'string') return { kind: 'name', name: item };
  if ('package' in item) return { kind: 'package', key: parsePackageRef(item.package) };
  if ('purl' in item) return { kind: 'package', key: purlKey(item.purl) };
  return { kind: 'url', key: parseRemoteUrl(item.url) };
}

/**
 * The policy in one line, as every report of the CLI begins: "fail below trust score 40; fail servers that
 * match no scored server". Members are named in a fixed order; lists of names are given in full.
 */
export function describePolicy(policy: Policy): string {
  const parts = [`fail below trust score ${policy.min_score}`];
  if (policy.deny_flags?.length) parts.push(`fail a server carrying ${policy.deny_flags.join(', ')}`);
  if (policy.require_verified_publisher) parts.push('fail a server whose publisher is not verified');
  parts.push(`${policy.unknown} a server that matches no scored server`);
  if (policy.allow?.length) parts.push(`always pass ${policy.allow.join(', ')}`);
  if (policy.deny?.length) parts.push(`always fail ${policy.deny.join(', ')}`);
  return parts.join('; ');
}

/** What an item is, in words, for reasons: `io.x/y`, `package npm:@a/b`, `url https://…`. */
export function describeItem(item: CheckItem): string {
  if (typeof item === 'string') return item;
  if ('package' in item) return `package ${item.package}`;
  return 'purl' in item ? `purl ${item.purl}` : `url ${item.url}`;
}

const lower = (names: readonly string[] | undefined) => new Set((names ?? []).map((name) => name.toLowerCase()));

/**
 * The verdict of one item. `matches` are the records it resolved to, most trusted first (empty: unknown);
 * the first is the one judged, and the others are named so nobody is surprised.
 */
export function judge(
  item: CheckItem,
  matches: readonly ServerRecord[],
  policy: Policy,
  advisories: readonly AdvisoryFinding[] = [],
): CheckResult {
  const record = matches[0];
  // Advisories on the package at the pinned version (advisory-check.ts): a blocking one fails under every
  // policy, known server or not, allow list or not; the others fail where the policy denies their flag.
  const deniedFlags = new Set((policy.deny_flags ?? []).map((flag) => flag.toUpperCase()));
  const advisoryFails = advisories.filter((finding) => isBlocking(finding) || deniedFlags.has(finding.flag));
  if (advisoryFails.length > 0) {
    return {
      input: item,
      server: record?.name ?? null,
      trust_score: record?.trust_score ?? null,
      trust_label: record?.trust_label ?? null,
      verdict: 'fail',
      reasons: advisoryFails.map(advisoryReason),
    };
  }
  if (record === undefined) {
    const reason = `No scored server matches ${describeItem(item)}; the policy treats unknown servers as "${policy.unknown}"`;
    return {
      input: item,
      server: null,
      trust_score: null,
      trust_label: null,
      verdict: policy.unknown,
      reasons: [reason],
    };
  }
  const base = { input: item, server: record.name, trust_score: record.trust_score, trust_label: record.trust_label };
  const others = matches.slice(1).map((other) => other.name);
  const also =
    others.length === 0 ? [] : [`${describeItem(item)} also belongs to ${others.join(', ')}; judged: ${record.name}`];
  const name = record.name.toLowerCase();
  if (lower(policy.deny).has(name)) {
    return { ...base, verdict: 'fail', reasons: [`${record.name} is on the policy's deny list`, ...also] };
  }
  if (lower(policy.allow).has(name)) {
    return { ...base, verdict: 'pass', reasons: [`${record.name} is on the policy's allow list`, ...also] };
  }
  const reasons: string[] = [];
  if (record.trust_score < policy.min_score) {
    reasons.push(
      `trust score ${record.trust_score} (${record.trust_label}) is below the policy's minimum of ${policy.min_score}`,
    );
  }
  const denied = new Set((policy.deny_flags ?? []).map((flag) => flag.toUpperCase()));
  for (const flag of record.flags) {
    if (!denied.has(flag.toUpperCase())) continue;
    const meaning = flagDefinition(flag)?.meaning;
    reasons.push(`carries the flag ${flag}${meaning ? ` (${meaning})` : ''}, which the policy denies`);
  }
  if (policy.require_verified_publisher && !record.verified_publisher) {
    reasons.push(`its publisher namespace is not a verified publisher, which the policy requires`);
  }
  return { ...base, verdict: reasons.length > 0 ? 'fail' : 'pass', reasons: [...reasons, ...also] };
}

/**
 * The kinds of reason, each a stable id (SARIF rule ids, annotations), recognised by the start of the
 * sentences `judge` writes above, so the two are kept side by side here.
 */
export const REASON_KINDS = [
  { id: 'denied-server', pattern: /is on the policy's deny list$/, summary: 'A server on the deny list' },
  { id: 'allowed-server', pattern: /is on the policy's allow list$/, summary: 'A server on the allow list' },
  { id: 'unknown-server', pattern: /^No scored server matches /, summary: 'A server that matches no scored server' },
  {
    id: 'below-min-score',
    pattern: /^trust score \d+ .* is below the policy's minimum/,
    summary: 'A trust score below the minimum',
  },
  {
    id: 'denied-flag',
    pattern: /^carries the flag \S+.*, which the policy denies$/,
    summary: 'A flag the policy denies',
  },
  {
    id: 'unverified-publisher',
    pattern: /is not a verified publisher, which the policy requires$/,
    summary: 'A publisher that is not verified',
  },
  { id: 'advisory', pattern: /^advisory [A-Z_]+: /, summary: 'An advisory on the package at the version used' },
  { id: 'shared-package', pattern: / also belongs to /, summary: 'A package or URL that several servers share' },
] as const;
export type ReasonKind = (typeof REASON_KINDS)[number]['id'];

/** The kind of a reason `judge` wrote (undefined for a sentence it does not write). */
export function reasonKind(reason: string): ReasonKind | undefined {
  return REASON_KINDS.find((kind) => kind.pattern.test(reason))?.id;
}

/** The overall verdict: fail when any item fails (a warning does not fail the check). */
export function overallVerdict(results: readonly CheckResult[]): 'pass' | 'fail' {
  return results.some((result) => result.verdict === 'fail') ? 'fail' : 'pass';
}

export { IdentifierError };
