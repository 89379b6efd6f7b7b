/**
 * Text from a configuration file (a server's name, a command, a file name) made safe to print on one line of a
 * terminal or a CI log. A pull request can put anything into `.mcp.json`: a newline followed by
 * `::error::` or `::stop-commands::` would be read by the runner as a workflow command, an ESC or a C1 CSI
 * starts an ANSI sequence, and a bidi override reorders what a reviewer sees. Each of these is written as a
 * visible escape (`\n`, `\u001b`, `\u202e`), so the text reads the same and can never break out of its line.
 */

/**
 * C0 controls (newline, carriage return, tab, ESC, BEL ...), DEL, C1 controls (among them U+0085 NEXT LINE
 * and U+009B CSI), the Unicode line and paragraph separators, and the bidi embedding, override and isolate
 * characters.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One character as its visible escape: `\n`, `\r`, `\t`, otherwise `\uXXXX`. */
function escapeOne(char: string): string {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every control character, line break and bidi control written as a visible escape. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escapeOne);
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
