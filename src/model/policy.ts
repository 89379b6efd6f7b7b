/**
 * The policy of a check: what it may say (the schema a policy file and the body of `POST /v1/check` share),
 * its defaults, the flags it always fails, fails or warns on, what its allow lists and exceptions may name,
 * and the sentence every report begins with. The verdict rules that apply it are `check.ts`'s.
 */
import * as z from 'zod';
import { IdentifierError, isPackageRegistry, parsePackageRef, parseRemoteUrl } from './identifiers.js';
import { purlKey } from './purl.js';
import { isCalendarTime } from './fields.js';
import { FlagSchema, LIMITS, ServerNameSchema } from './schema.js';
import { FLAGS } from './vocabulary.js';
import { CHECK_LIMITS } from './check-limits.js';

export { CHECK_LIMITS };

/** A zod check that `parse` accepts the text, with its message as the issue's. */
export function identifier(parse: (text: string) => string) {
  return z.superRefine<string>((text, context) => {
    try {
      parse(text);
    } catch (error) {
      if (!(error instanceof IdentifierError)) throw error;
      context.addIssue({ code: 'custom', message: error.message });
    }
  });
}

export const UNKNOWN_VERDICTS = ['fail', 'warn', 'pass'] as const;

/**
 * The policy of a check that sets nothing, one users can keep on: it fails on known-bad evidence (a blocking
 * flag, a vulnerable version, a measured score below 40) and warns where evidence is missing (a server that
 * matches no scored server, a score resting on too little measured evidence). `strict` makes those fail too.
 * Each member a policy leaves out takes its value from here.
 */
export const DEFAULT_POLICY = { min_score: 40 } as const;

/** Flags that fail a check whatever the policy says (the vocabulary's `blocking` flags). */
export const BLOCKING_FLAGS: ReadonlySet<string> = new Set(FLAGS.filter((flag) => flag.blocking).map((f) => f.name));
/** Flags of known-bad evidence that fail under every policy that does not except the server. */
export const FAILING_FLAGS: ReadonlySet<string> = new Set(['VULNERABLE_VERSION']);
/** Flags of live evidence that warn unless the policy denies them. */
export const WARNING_FLAGS: ReadonlySet<string> = new Set([
  'REMOTE_UNREACHABLE',
  'TOOL_INSTRUCTIONS',
  'TOOLS_CHANGED',
  'DEPRECATED',
]);
export const INSUFFICIENT_EVIDENCE_FLAG = 'INSUFFICIENT_EVIDENCE';

/**
 * What a policy's `allow` and `exceptions` may name: a server name, a package (`npm:@scope/pkg`), a package
 * URL (`pkg:npm/%40scope/pkg`) or a remote URL. Told apart by form: registry names hold no `:`.
 */
export type PolicyTarget = { kind: 'name'; name: string } | { kind: 'package' | 'url'; key: string };

/** The target `text` names; an IdentifierError when it is none of the four forms. */
export function policyTarget(text: string): PolicyTarget {
  const trimmed = text.trim();
  if (/^pkg:/i.test(trimmed)) return { kind: 'package', key: purlKey(trimmed) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return { kind: 'url', key: parseRemoteUrl(trimmed) };
  const colon = trimmed.indexOf(':');
  if (colon > 0 && isPackageRegistry(trimmed.slice(0, colon).toLowerCase())) {
    return { kind: 'package', key: parsePackageRef(trimmed) };
  }
  if (!ServerNameSchema.safeParse(trimmed).success) {
    throw new IdentifierError(
      `"${trimmed.slice(0, 80)}" is not a server name (<namespace>/<id>), a package (npm:<name>), a package URL (pkg:npm/<name>) or a remote URL`,
    );
  }
  return { kind: 'name', name: trimmed.toLowerCase() };
}

const TargetText = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.maxLookup)
  .check(identifier((text) => JSON.stringify(policyTarget(text))));

/** A calendar date, `2026-12-31`: an exception applies through that day (UTC). */
const UNTIL_ERROR = 'until must be a date, such as 2026-12-31';
// A portable pattern (published in the OpenAPI document, read by Python and RE2 too), then a real day.
const UntilDate = z
  .string({ error: UNTIL_ERROR })
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { error: UNTIL_ERROR })
  .refine((date) => isCalendarTime(`${date}T00:00:00Z`), { error: UNTIL_ERROR })
  .meta({ format: 'date' });

export const PolicyExceptionSchema = z
  .strictObject({
    server: ServerNameSchema.optional(),
    package: z.string().trim().min(3).max(LIMITS.maxLookup).check(identifier(parsePackageRef)).optional(),
    purl: z.string().trim().min(5).max(LIMITS.maxLookup).check(identifier(purlKey)).optional(),
    url: z.string().trim().min(1).max(LIMITS.maxLookup).check(identifier(parseRemoteUrl)).optional(),
    reason: z
      .string({ error: 'every exception needs a reason' })
      .trim()
      .min(1, { error: 'every exception needs a reason' })
      .max(500),
    until: UntilDate,
  })
  .refine((e) => [e.server, e.package, e.purl, e.url].filter((v) => v !== undefined).length === 1, {
    error: 'an exception names exactly one of server, package, purl or url',
  });
export type PolicyException = z.infer<typeof PolicyExceptionSchema>;

export const PolicySchema = z
  .strictObject({
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
    /** Unknown servers and scores resting on too little evidence fail instead of warning. */
    strict: z.boolean({ error: 'policy.strict must be true or false' }).optional(),
    allow: z.array(TargetText).max(CHECK_LIMITS.maxNames).optional(),
    deny: z.array(ServerNameSchema).max(CHECK_LIMITS.maxNames).optional(),
    exceptions: z.array(PolicyExceptionSchema).max(CHECK_LIMITS.maxNames).optional(),
    /** What a server that matches no scored server gets: `warn` by default, `fail` when strict. */
    unknown: z.enum(UNKNOWN_VERDICTS, { error: 'policy.unknown must be fail, warn or pass' }).optional(),
  })
  .refine((policy) => !(policy.strict === true && policy.unknown !== undefined && policy.unknown !== 'fail'), {
    error: 'policy.strict makes unknown servers fail: drop policy.unknown or policy.strict',
    path: ['unknown'],
  });
export type Policy = z.infer<typeof PolicySchema>;

/** What a server that matches no scored server gets under `policy`. */
export function unknownVerdict(policy: Policy): Verdict {
  return policy.unknown ?? (policy.strict ? 'fail' : 'warn');
}

export type Verdict = 'pass' | 'warn' | 'fail';

/** Flag names upper-cased, as flags compare. */
export const lowerFlags = (flags: readonly string[] | undefined) =>
  new Set((flags ?? []).map((flag) => flag.toUpperCase()));

const verb = (verdict: Verdict) => (verdict === 'warn' ? 'warn on' : verdict);
const flagList = (flags: Iterable<string>) => [...flags].join(', ');

/**
 * The policy in one line, as every report begins: "fail below trust score 40 (…); fail a server carrying
 * KNOWN_MALICIOUS, REGISTRY_TAKEDOWN (always) or VULNERABLE_VERSION; …". Members are named in a fixed order;
 * lists of names are given in full. An exception whose `until` is before `today` is said to have expired, so
 * a report says so even when no server of the configuration is the one it names.
 */
export function describePolicy(policy: Policy, today: string = todayUtc()): string {
  const strict = policy.strict === true;
  const parts = [
    `fail below trust score ${policy.min_score}` +
      (strict ? '' : ' (a score resting on too little measured evidence warns instead)'),
    `fail a server carrying ${flagList(BLOCKING_FLAGS)} (always, allow lists and exceptions included) or ${flagList(FAILING_FLAGS)}`,
  ];
  if (policy.deny_flags?.length) parts.push(`fail a server carrying ${policy.deny_flags.join(', ')}`);
  const warned = [...WARNING_FLAGS].filter((flag) => !lowerFlags(policy.deny_flags).has(flag));
  if (warned.length > 0) parts.push(`warn on ${warned.join(', ')}`);
  if (policy.require_verified_publisher) parts.push('fail a server whose publisher is not verified');
  parts.push(`${verb(unknownVerdict(policy))} a server that matches no scored server`);
  parts.push(`${strict ? 'fail' : 'warn on'} a server with insufficient evidence`);
  if (strict) parts.push('strict');
  if (policy.allow?.length) parts.push(`always pass ${policy.allow.join(', ')}`);
  if (policy.deny?.length) parts.push(`always fail ${policy.deny.join(', ')}`);
  for (const exception of policy.exceptions ?? []) {
    const expired = exception.until < today ? '; expired, no longer applies' : '';
    parts.push(`except ${exceptionTargetText(exception)} until ${exception.until} (${exception.reason}${expired})`);
  }
  return parts.join('; ');
}

export function exceptionTargetText(exception: PolicyException): string {
  if (exception.server !== undefined) return exception.server;
  if (exception.package !== undefined) return exception.package;
  if (exception.purl !== undefined) return exception.purl;
  return exception.url ?? '';
}

/** Today as a calendar date in UTC, the day an exception's `until` is compared with. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
