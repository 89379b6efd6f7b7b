/**
 * A key's label is free text from whoever asked for the key (`POST /v1/keys` is open to anyone), and
 * `npm run keys -- list` prints it to an operator's terminal. So it may hold no control character (C0, DEL
 * or C1: a terminal acts on them) and no bidirectional formatting character (they reorder what is shown,
 * so a label could make the line read as something else); and what an older version stored is escaped when
 * printed.
 */

/** C0, DEL and C1 controls, and the bidirectional marks, embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
export const LABEL_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const LABEL_FORBIDDEN_ALL = new RegExp(LABEL_FORBIDDEN.source, 'gu');

/**
 * A whole label with no control character, as a pattern the OpenAPI document states: written with `\x` escapes
 * only, the subset ECMAScript, Python and RE2 share. The bidirectional characters lie above U+00FF, where the
 * three disagree on escapes, so the body schema refuses them with `LABEL_FORBIDDEN` instead of a pattern.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
export const LABEL_CONTROLS_PATTERN = /^[^\x00-\x1f\x7f-\x9f]*$/;

/** `label` with every forbidden character written as `\u{hex}`, so printing it shows it and does nothing. */
export function escapeLabel(label: string): string {
  return label.replace(LABEL_FORBIDDEN_ALL, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
}
