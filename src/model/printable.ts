/**
 * Text from outside (a configuration file, a registry entry, a service's error, a child's output) made safe to
 * print on a terminal or in a CI log. A pull request can put anything into `.mcp.json` and a publisher anything
 * into a registry entry: a newline followed by `::error::` or `::stop-commands::` would be read by the runner
 * as a workflow command, an ESC or a C1 CSI starts an ANSI sequence, and a bidi override reorders what a
 * reviewer sees. Each of these is written as a visible escape (`\n`, `\u001b`, `\u202e`), so the text reads
 * the same and can never break out of its line. The one copy every command uses.
 */

/**
 * C0 controls (newline, carriage return, tab, ESC, BEL ...), DEL, C1 controls (among them U+0085 NEXT LINE
 * and U+009B CSI), the Unicode line and paragraph separators, and the bidi embedding, override and isolate
 * characters.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same but for tab and newline, which a multi-line text keeps. */
// eslint-disable-next-line no-control-regex -- as above
const UNPRINTABLE_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One character as its visible escape: `\n`, `\r`, `\t`, otherwise `\uXXXX`. */
function escapeOne(char: string): string {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` on one line, with every control character, line break and bidi control written as a visible escape;
 * with `max`, cut to that many characters of the escaped text and marked with `…`.
 */
export function printable(text: string, max?: number): string {
  const escaped = text.replace(UNPRINTABLE, escapeOne);
  return max !== undefined && escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

/**
 * Text of several lines (a child's output) kept as lines: tab and newline stay, every other control and bidi
 * character is written as `\uXXXX`, and a line that would start a GitHub Actions workflow command (`::`) is
 * indented, so nothing a child prints can steer the runner.
 */
export function printableLines(text: string): string {
  const escaped = text.replace(
    UNPRINTABLE_BUT_LINES,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.replace(/^(\s*)::/gm, '$1  ::');
}

/** What `JSON.stringify` leaves raw inside strings: DEL, C1 controls, the line separators, bidi controls. */
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text as `JSON.stringify` writes it (C0 controls inside strings already escaped; the line breaks between
 * members are its own) with the rest written as `\uXXXX` too: still the same JSON value.
 */
export function printableJson(json: string): string {
  return json.replace(UNPRINTABLE_IN_JSON, escapeOne);
}
