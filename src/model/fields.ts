/**
 * The fields every schema of the service is made of: trust labels, server names, timestamps, flag names and
 * the text bounds. Both the record's schema (`record-schema.ts`) and the service's (`schema.ts`) are built
 * from them.
 */
import * as z from 'zod';
import { TRUST_BANDS, type TrustLabel } from './vocabulary.js';

export const TRUST_LABELS = TRUST_BANDS.map((band) => band.label) as [TrustLabel, ...TrustLabel[]];

/** The label of the band that holds `score` (an integer 0 to 100). */
export function labelForScore(score: number): TrustLabel {
  for (const band of TRUST_BANDS) if (score >= band.min) return band.label;
  return 'Unknown/Suspicious';
}

/** Bounds on every string of a record: a dataset is input too. */
export const MAX_NAME_LENGTH = 200;
export const MAX_TEXT = 500;

/**
 * What a name part may not hold: `/`, control characters (C0, DEL, C1) and white space, the set ECMAScript's
 * `[\s\p{Cc}]` means, spelled out. Published patterns use only syntax ECMAScript, Python's `re` and Go's
 * RE2 read alike (no `\p{...}`, no `\s` or `\d`, whose sets differ between them), with the Unicode spaces
 * written as the characters themselves (RE2 has no `\u` escape). U+2028 and U+2029 sit inside the range
 * U+2027-U+202F because a RegExp's `source` writes a line terminator as an escape however it was given; the
 * range also refuses the bidirectional embedding controls U+202A-U+202E, which have no place in a name.
 */
const NAME_EXCLUDED = '/\\x00-\\x20\\x7f-\\x9f\u00a0\u1680\u2000-\u200a\u2027-\u202f\u205f\u3000\ufeff';

/** `<namespace>/<id>`: exactly one slash, both parts non-empty, no white space or control characters. */
export const SERVER_NAME_PATTERN = new RegExp(`^[^${NAME_EXCLUDED}]+/[^${NAME_EXCLUDED}]+$`);

/** An ISO 8601 UTC timestamp (`2026-02-21T22:49:33.106Z`), in portable pattern syntax (`[0-9]`, not `\d`). */
export const ISO_UTC_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$/;

/** A real instant in UTC, with a portable pattern: a day that does not exist (Feb 30) is refused too. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether text of ISO_UTC_PATTERN's form names a real instant: a month 1 to 12, a day that month has (29
 * February in leap years only), hours to 23, minutes and seconds to 59, exactly the texts that `Date`
 * reads and writes back unchanged. By arithmetic: a dataset has a timestamp per record, and making two
 * `Date` objects for each was a tenth of a build.
 */
export function isCalendarTime(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return (
    days !== undefined &&
    day >= 1 &&
    day <= days &&
    Number(text.slice(11, 13)) <= 23 &&
    Number(text.slice(14, 16)) <= 59 &&
    Number(text.slice(17, 19)) <= 59
  );
}

export const isoUtc = (error = 'must be an ISO 8601 UTC timestamp (ending in Z)') =>
  z.string().regex(ISO_UTC_PATTERN, { error }).refine(isCalendarTime, { error }).meta({ format: 'date-time' });

/** A server name; `hint` follows the rule in the message (what the caller can do next). */
export const serverName = (hint = '') =>
  z
    .string()
    .max(MAX_NAME_LENGTH, { error: `name must be at most ${MAX_NAME_LENGTH} characters` })
    .regex(SERVER_NAME_PATTERN, { error: `name must be <namespace>/<id> with exactly one "/"${hint}` });

export const ServerNameSchema = serverName();

export const FLAG_PATTERN = /^[A-Z][A-Z0-9_]*$/;
export const FlagSchema = z.string().max(64).regex(FLAG_PATTERN, { error: 'flag names are UPPER_SNAKE_CASE' });

/**
 * Whether `name` can be asked for by its path (`/v1/servers/{namespace}/{id}`): a valid name whose parts are
 * not `.` or `..`, which a URL parser would resolve into another route (the collector refuses such names too).
 */
export function isFetchableName(name: string): boolean {
  if (name.length > MAX_NAME_LENGTH || !SERVER_NAME_PATTERN.test(name)) return false;
  const { namespace, id } = splitName(name);
  return namespace !== '.' && namespace !== '..' && id !== '.' && id !== '..';
}

/** Split a name into its namespace and id (the name is valid, so both exist). */
export function splitName(name: string): { namespace: string; id: string } {
  const slash = name.indexOf('/');
  return { namespace: name.slice(0, slash), id: name.slice(slash + 1) };
}
