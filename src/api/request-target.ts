/**
 * The request target (`/v1/search?q=x`) read strictly, before routing: what a URL may hold, and how long it
 * may be. A target that breaks a rule is refused with one `ApiError` naming the rule, so hostile input gets
 * a clear 4xx instead of reaching the router, the parameter parser or a log line in some odd form.
 *
 * The rules (docs/security.md, "Hostile input"):
 * - at most `MAX_TARGET_BYTES` bytes (414 `uri_too_long`);
 * - visible ASCII only (0x21 to 0x7E): no space, control character, DEL or raw byte of 0x80 and above;
 *   anything else is percent-encoded UTF-8, as browsers send it;
 * - no fragment (`#`): clients never send one, so one that arrives was not meant as a URL;
 * - every `%` starts a two-hex-digit escape, and the escaped bytes are UTF-8 (`%zz`, a truncated `%E0%A4`
 *   and `%C3%28` are refused rather than guessed at);
 * - no percent-encoded control character (`%00` to `%1F`, `%7F`, and the C1 range `%C2%80` to `%C2%9F`);
 * - no dot segment (`.` or `..`, also as `%2E`): the path is routed exactly as sent, never resolved, so what
 *   is routed, cached and logged is what the client wrote (a browser resolves dot segments before sending);
 * - at most `MAX_QUERY_PARAMETERS` query parameters (no endpoint takes more than 8).
 *
 * The length and the raw characters hold for the whole target and are checked before routing; the query's
 * encoding and size are parameter rules, checked by `checkQuery` when parameters are read (after the key).
 *
 * Every refusal here is a 400 `invalid_parameter` (the specification's one 400: "missing or invalid
 * parameters"), except the length, a 414. The check is cheap on the hot path: one regular expression over
 * the target, and decoding only when a `%` is present.
 */
import { ApiError } from './errors.js';

/** The longest request target (path and query) the gateway reads, in bytes. */
export const MAX_TARGET_BYTES = 2048;

/** The most query parameters a request may carry. */
export const MAX_QUERY_PARAMETERS = 32;

/** A target split into its raw (still percent-encoded) path and query (without the `?`). */
export interface RequestTarget {
  path: string;
  query: string;
}

/** Anything but visible ASCII, and `#`. */
const FORBIDDEN_RAW = /[^\x21\x22\x24-\x7e]/;
/** A `%` that does not start a two-hex-digit escape. */
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
/** C0 controls, DEL and C1 controls, once decoded. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
/** A path segment that is `.` or `..`, written plainly or percent-encoded. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

const invalid = (rule: string) => new ApiError('invalid_parameter', `Invalid URL: ${rule}`);

/** The rule a raw byte breaks, in the words both this check and the Node server's parser error use. */
export const FORBIDDEN_BYTE_RULE =
  'a URL holds visible ASCII only (no space, control character or byte of 0x80 and above); percent-encode anything else as UTF-8';

function describeChar(code: number): string {
  if (code === 0x23) return 'a fragment ("#") is never part of a request; percent-encode "#" as %23';
  const hex = code.toString(16).toUpperCase().padStart(2, '0');
  const what =
    code === 0x20 ? 'a space' : code < 0x20 || code === 0x7f ? `a control character (0x${hex})` : `the byte 0x${hex}`;
  return `${what} is not allowed: ${FORBIDDEN_BYTE_RULE}`;
}

/** Percent-encoding rules shared by the path and the query; `part` names which one, for the message. */
function checkEncoding(text: string, part: 'path' | 'query'): void {
  if (!text.includes('%')) return;
  if (BAD_ESCAPE.test(text)) {
    throw invalid(`the ${part} is not valid percent-encoding: every "%" must be followed by two hex digits`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    throw invalid(`the ${part} has percent-encoded bytes that are not UTF-8 (such as %C3%28 or a truncated %E0%A4)`);
  }
  if (CONTROL.test(decoded)) {
    throw invalid(`the ${part} has a percent-encoded control character (%00 to %1F, %7F, %C2%80 to %C2%9F)`);
  }
}

/** Number of non-empty `&`-separated pieces in `query`, counting no further than `max + 1`. */
function countParameters(query: string, max: number): number {
  let count = 0;
  let start = 0;
  while (start <= query.length && count <= max) {
    let end = query.indexOf('&', start);
    if (end === -1) end = query.length;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}

/**
 * Read `url` (a request target as the request line carries it, or an absolute URL as a Web `Request` has
 * it) into its path and query, or throw the `ApiError` that names the broken rule.
 */
export function readRequestTarget(url: string): RequestTarget {
  let target = url;
  if (!url.startsWith('/')) {
    // An absolute URL (a Web Request, or absolute-form from a proxy): its parser has already normalised it.
    try {
      const parsed = new URL(url);
      target = parsed.pathname + parsed.search;
    } catch {
      throw invalid('the request target is neither a path starting with "/" nor an absolute URL');
    }
  }
  // Checked on characters first: a raw byte is one character here (Node reads the request line as latin1),
  // so this bounds the bytes too; whatever is not ASCII is refused just below in any case.
  if (target.length > MAX_TARGET_BYTES) {
    throw new ApiError(
      'uri_too_long',
      `The URL is ${target.length} bytes long; the most this API reads is ${MAX_TARGET_BYTES} bytes (path and query)`,
    );
  }
  const forbidden = FORBIDDEN_RAW.exec(target);
  if (forbidden !== null) throw invalid(describeChar(target.charCodeAt(forbidden.index)));

  const question = target.indexOf('?');
  const path = question === -1 ? target : target.slice(0, question);
  const query = question === -1 ? '' : target.slice(question + 1);

  checkEncoding(path, 'path');
  if (DOT_SEGMENT.test(path)) {
    throw invalid('dot segments ("." and "..", also as %2E) are not resolved; send the path they stand for');
  }
  return { path, query };
}

/**
 * The query's own rules (percent-encoding, UTF-8, control characters, the number of parameters). They are
 * parameter problems, so the parameter parser applies them after the key and the daily limit (decisions,
 * section 5: key 401, limit 429, then parameters 400), not before routing as the target's rules above.
 */
export function checkQuery(query: string): void {
  if (query === '') return;
  checkEncoding(query, 'query');
  // Fewer characters than this cannot hold more parameters than the maximum: skip the count.
  if (query.length > 2 * MAX_QUERY_PARAMETERS) {
    const count = countParameters(query, MAX_QUERY_PARAMETERS);
    if (count > MAX_QUERY_PARAMETERS) {
      throw invalid(`a request carries at most ${MAX_QUERY_PARAMETERS} query parameters`);
    }
  }
}
