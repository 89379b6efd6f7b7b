/**
 * The bulk policy verdict of `POST /v1/check`: the request body, the policy, and the rules that turn what a
 * lookup found into a verdict per server, each with reasons a person can act on (which rule, the value found,
 * the threshold). Pure: resolving an item to a record is the handler's job, so the CLI and the tests can use
 * the same rules.
 */
import * as z from 'zod';
import { IdentifierError, packageKey, parsePackageRef, parseRemoteUrl, urlKey } from './identifiers.js';
import {
  BLOCKING_FLAGS,
  CHECK_LIMITS,
  DEFAULT_POLICY,
  exceptionTargetText,
  FAILING_FLAGS,
  identifier,
  INSUFFICIENT_EVIDENCE_FLAG,
  lowerFlags,
  type Policy,
  type PolicyException,
  PolicySchema,
  type PolicyTarget,
  policyTarget,
  todayUtc,
  unknownVerdict,
  type Verdict,
  WARNING_FLAGS,
} from './policy.js';
import type { AdvisoryDetail } from './advisories.js';
import { advisoriesAtPinnedVersion, knownBadPackage } from './pinned-version.js';
import { purlKey } from './purl.js';
import { LIMITS, ServerNameSchema, type ServerRecord } from './schema.js';
import { flagDefinition } from './vocabulary.js';

export * from './policy.js';

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

export const CheckRequestSchema = z.strictObject({
  servers: z
    .array(CheckItemSchema)
    .min(1, { error: 'servers must hold at least one item' })
    .max(CHECK_LIMITS.maxItems, { error: `servers may hold at most ${CHECK_LIMITS.maxItems} items` }),
  policy: PolicySchema.default({ ...DEFAULT_POLICY }),
});
export type CheckRequest = z.infer<typeof CheckRequestSchema>;

export const CheckResultSchema = z.strictObject({
  input: CheckItemSchema,
  server: z.string().nullable(),
  trust_score: z.number().int().min(0).max(100).nullable(),
  trust_label: z.string().nullable(),
  verdict: z.enum(['pass', 'warn', 'fail']),
  reasons: z.array(z.string()),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

/**
 * The answer: the policy it applied in words (`describePolicy`, as every report of the CLI begins), the overall
 * verdict and one result per item. `policy` is optional here only so that a newer CLI still reads the answer
 * of an older deployment; this gateway always sends it.
 */
export const CheckAnswerSchema = z.strictObject({
  policy: z
    .string()
    .max(256 * 1024)
    .optional(),
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

/** What an item is, in words, for reasons: `io.x/y`, `package npm:@a/b`, `url https://…`. */
export function describeItem(item: CheckItem): string {
  if (typeof item === 'string') return item;
  if ('package' in item) return `package ${item.package}`;
  return 'purl' in item ? `purl ${item.purl}` : `url ${item.url}`;
}

const lower = (names: readonly string[] | undefined) => new Set((names ?? []).map((name) => name.toLowerCase()));

function exceptionTarget(exception: PolicyException): PolicyTarget {
  if (exception.server !== undefined) return { kind: 'name', name: exception.server.toLowerCase() };
  if (exception.package !== undefined) return { kind: 'package', key: parsePackageRef(exception.package) };
  if (exception.purl !== undefined) return { kind: 'package', key: purlKey(exception.purl) };
  return { kind: 'url', key: parseRemoteUrl(exception.url ?? '') };
}

/** Whether a policy target names this item, or the record it resolved to (by name, one of its packages or remotes). */
function targets(target: PolicyTarget, item: CheckItem, record: ServerRecord | undefined): boolean {
  const query = itemQuery(item);
  if (target.kind === 'name') {
    return (
      (query.kind === 'name' && query.name.toLowerCase() === target.name) || record?.name.toLowerCase() === target.name
    );
  }
  if (query.kind === target.kind && query.key === target.key) return true;
  if (record === undefined) return false;
  if (target.kind === 'package') {
    return (record.packages ?? []).some((pkg) => packageKey(pkg.registry_type, pkg.identifier) === target.key);
  }
  return (record.remotes ?? []).some((remote) => urlKey(remote.url) === target.key);
}

/** The policy's allow entry that names the item, if any. */
function allowedBy(policy: Policy, item: CheckItem, record: ServerRecord | undefined): string | undefined {
  return policy.allow?.find((text) => targets(policyTarget(text), item, record));
}

/** The policy's exceptions that name the item: those in force today, and those that have expired. */
function exceptionsFor(policy: Policy, item: CheckItem, record: ServerRecord | undefined, today: string) {
  const matching = (policy.exceptions ?? []).filter((exception) => targets(exceptionTarget(exception), item, record));
  return {
    active: matching.find((exception) => exception.until >= today),
    expired: matching.filter((exception) => exception.until < today),
  };
}

const expiredReason = (exception: PolicyException) =>
  `the exception for ${exceptionTargetText(exception)} expired on ${exception.until} (${exception.reason}); it no longer applies`;
const exceptionReason = (exception: PolicyException) =>
  `excepted until ${exception.until} by the policy: ${exception.reason}`;

/** What a record's evidence says was not measured, in words: "repository: no repository in the registry entry". */
export function missingEvidence(record: ServerRecord): string {
  const evidence = record.evidence;
  if (evidence === undefined) return 'the record does not say what was measured';
  const missing = Object.entries(evidence.sources).flatMap(([source, state]) =>
    state.measured ? [] : [`${source}: ${state.missing}`],
  );
  return `confidence ${evidence.confidence} of 100; not measured: ${missing.join('; ') || 'nothing'}`;
}

const flagMeaning = (flag: string) => {
  const meaning = flagDefinition(flag)?.meaning;
  return meaning ? ` (${meaning})` : '';
};

/**
 * A sentence when the record's latest probe found its remote not answering: said in the verdict. One
 * observation does not change it; failures on consecutive nights of this project's own probes are
 * REMOTE_UNREACHABLE (the probe source), which a policy may deny, and the sentence counts them.
 */
function unreachableRemote(record: ServerRecord): string | undefined {
  const probe = ProbeNoteSchema.safeParse(record.evidence?.probe);
  if (!probe.success || probe.data.reachable) return undefined;
  const state = record.evidence?.sources.probe;
  const by = state?.measured === true ? state.by : 'a probe';
  const nights = probe.data.consecutive_failures ?? 1;
  const when = `its remote did not answer when probed on ${probe.data.probed_at.slice(0, 10)} (${by})`;
  return nights >= 2 ? `${when}, ${nights} nights in a row` : `${when}; one observation, so no flag yet`;
}
const ProbeNoteSchema = z.looseObject({
  reachable: z.boolean(),
  probed_at: z.string(),
  consecutive_failures: z.number().int().min(0).optional(),
});

/**
 * The verdict of one item. `matches` are the records it resolved to, most trusted first (empty: unknown);
 * the first is the one judged, and the others are named so nobody is surprised. `today` (a UTC date) decides
 * which of the policy's exceptions are still in force.
 */
export function judge(
  item: CheckItem,
  matches: readonly ServerRecord[],
  policy: Policy,
  today: string = todayUtc(),
  unknownAdvisories: readonly AdvisoryDetail[] = [],
): CheckResult {
  const record = matches[0];
  const { active, expired } = exceptionsFor(policy, item, record, today);
  const notes = expired.map(expiredReason);
  const allowed = allowedBy(policy, item, record);
  if (record === undefined) {
    const base = { input: item, server: null, trust_score: null, trust_label: null };
    const known = knownBadPackage(item, unknownAdvisories);
    if (known.length > 0) return { ...base, verdict: 'fail', reasons: [...known, ...notes] };
    if (allowed !== undefined) {
      return { ...base, verdict: 'pass', reasons: [`${describeItem(item)} is on the policy's allow list`, ...notes] };
    }
    if (active !== undefined) return { ...base, verdict: 'pass', reasons: [exceptionReason(active), ...notes] };
    const verdict = unknownVerdict(policy);
    const why = policy.strict && policy.unknown === undefined ? ' (strict)' : '';
    const reason = `No scored server matches ${describeItem(item)}; no evidence of it was measured (no registry entry, repository, package, probe or advisory record); the policy treats unknown servers as "${verdict}"${why}`;
    return { ...base, verdict, reasons: [reason, ...notes] };
  }
  const base = { input: item, server: record.name, trust_score: record.trust_score, trust_label: record.trust_label };
  const others = matches.slice(1).map((other) => other.name);
  const also =
    others.length === 0 ? [] : [`${describeItem(item)} also belongs to ${others.join(', ')}; judged: ${record.name}`];
  const pinned = advisoriesAtPinnedVersion(item, record);
  const flags = pinned?.flags ?? new Set(record.flags.map((flag) => flag.toUpperCase()));
  notes.unshift(...(pinned?.reasons ?? []));
  const blocking = [...flags].filter((flag) => BLOCKING_FLAGS.has(flag));
  if (blocking.length > 0) {
    const reasons = blocking.map(
      (flag) =>
        `carries the flag ${flag}${flagMeaning(flag)}, which fails every policy, allow lists and exceptions included`,
    );
    return { ...base, verdict: 'fail', reasons: [...reasons, ...notes, ...also] };
  }
  if (lower(policy.deny).has(record.name.toLowerCase())) {
    return { ...base, verdict: 'fail', reasons: [`${record.name} is on the policy's deny list`, ...notes, ...also] };
  }
  if (allowed !== undefined) {
    return { ...base, verdict: 'pass', reasons: [`${record.name} is on the policy's allow list`, ...notes, ...also] };
  }
  if (active !== undefined) return { ...base, verdict: 'pass', reasons: [exceptionReason(active), ...notes, ...also] };

  const failures: string[] = [];
  const warnings: string[] = [];
  const insufficient = flags.has(INSUFFICIENT_EVIDENCE_FLAG);
  if (record.trust_score < policy.min_score) {
    const below = `trust score ${record.trust_score} (${record.trust_label}) is below the policy's minimum of ${policy.min_score}`;
    if (!insufficient) failures.push(below);
    else if (policy.strict) failures.push(`${below}, and it rests on too little measured evidence (strict)`);
  }
  if (insufficient) {
    const reason = `too little of it was measured to rely on its score (INSUFFICIENT_EVIDENCE: ${missingEvidence(record)})`;
    (policy.strict ? failures : warnings).push(
      policy.strict ? `${reason}; the strict policy fails it` : `${reason}; the policy warns`,
    );
  }
  const denied = lowerFlags(policy.deny_flags);
  for (const flag of flags) {
    const upper = flag.toUpperCase();
    if (denied.has(upper)) failures.push(`carries the flag ${flag}${flagMeaning(upper)}, which the policy denies`);
    else if (FAILING_FLAGS.has(upper))
      failures.push(`carries the flag ${flag}${flagMeaning(upper)}, known-bad evidence the policy fails`);
    else if (WARNING_FLAGS.has(upper)) warnings.push(`carries the flag ${flag}${flagMeaning(upper)}; the policy warns`);
  }
  if (policy.require_verified_publisher && !record.verified_publisher) {
    failures.push(`its publisher namespace is not a verified publisher, which the policy requires`);
  }
  const probe = unreachableRemote(record);
  if (probe !== undefined) notes.push(probe);
  const verdict: Verdict = failures.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : 'pass';
  return { ...base, verdict, reasons: [...failures, ...warnings, ...notes, ...also] };
}

/**
 * The kinds of reason, each a stable id (SARIF rule ids, annotations), recognised by the sentences `judge`
 * writes above, so the two are kept side by side here. The first kind whose pattern matches is the reason's.
 */
export const REASON_KINDS = [
  {
    id: 'blocking-flag',
    pattern: /, which fails every policy, allow lists and exceptions included$/,
    summary: 'Known-bad evidence that fails every policy (malware, a takedown)',
  },
  { id: 'denied-server', pattern: /is on the policy's deny list$/, summary: 'A server on the deny list' },
  { id: 'allowed-server', pattern: /is on the policy's allow list$/, summary: 'A server on the allow list' },
  { id: 'excepted-server', pattern: /^excepted until \S+ by the policy: /, summary: 'A server excepted by the policy' },
  {
    id: 'expired-exception',
    pattern: /^the exception for .* expired on \S+ .*; it no longer applies$/,
    summary: 'An exception of the policy that has expired',
  },
  {
    id: 'pinned-advisory',
    pattern: /^the version pinned, .* is affected by \S+ /,
    summary: 'A pinned version an advisory names (malware or a vulnerability)',
  },
  {
    id: 'remote-not-answering',
    pattern: /^its remote did not answer when probed on /,
    summary: 'A remote that did not answer a probe',
  },
  { id: 'unknown-server', pattern: /^No scored server matches /, summary: 'A server that matches no scored server' },
  {
    id: 'below-min-score',
    pattern: /^trust score \d+ .* is below the policy's minimum/,
    summary: 'A trust score below the minimum',
  },
  {
    id: 'insufficient-evidence',
    pattern: /^too little of it was measured to rely on its score/,
    summary: 'A score resting on too little measured evidence',
  },
  {
    id: 'denied-flag',
    pattern: /^carries the flag \S+.*, which the policy denies$/,
    summary: 'A flag the policy denies',
  },
  {
    id: 'failing-flag',
    pattern: /^carries the flag \S+.*, known-bad evidence the policy fails$/,
    summary: 'Known-bad evidence (a vulnerable version)',
  },
  {
    id: 'warning-flag',
    pattern: /^carries the flag \S+.*; the policy warns$/,
    summary: 'Live evidence the policy warns about',
  },
  {
    id: 'unverified-publisher',
    pattern: /is not a verified publisher, which the policy requires$/,
    summary: 'A publisher that is not verified',
  },
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
