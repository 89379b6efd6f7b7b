/**
 * The trust badge: a small flat SVG in the style READMEs use (`MCP trust | 66 · Moderate`), coloured by band,
 * or a grey `not scored` for a name the snapshot does not hold. Built from escaped text only: no script, no
 * style sheet, no external reference, so it is safe wherever it is embedded.
 */
import { labelForScore } from '../model/schema.js';
import { TRUST_BANDS } from '../model/vocabulary.js';

/** Band key → colour; readable white text on each (contrast at least 4.5:1). */
const BAND_COLOURS: Record<(typeof TRUST_BANDS)[number]['key'], string> = {
  high: '#1b7a2e',
  moderate: '#3f6e13',
  low: '#8a5a00',
  verylow: '#b3410e',
  unknown: '#b02020',
};
const LABEL_COLOUR = '#555';
const NOT_SCORED_COLOUR = '#6b6b6b';

/** Text made safe for XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Width of `text` at 11 px Verdana, near enough for a badge (wide letters count more). */
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[MWmw@]/.test(char) ? 9 : /[A-Z0-9#%]/.test(char) ? 7.5 : /[ il.,:;|'!·]/.test(char) ? 3.5 : 6.5;
  return Math.ceil(width);
}

function svg(left: string, right: string, colour: string, title: string): string {
  const leftWidth = textWidth(left) + 12;
  const rightWidth = textWidth(right) + 12;
  const width = leftWidth + rightWidth;
  const l = escapeXml(left);
  const r = escapeXml(right);
  const t = escapeXml(title);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${t}">` +
    `<title>${t}</title>` +
    `<rect width="${leftWidth}" height="20" fill="${LABEL_COLOUR}"/>` +
    `<rect x="${leftWidth}" width="${rightWidth}" height="20" fill="${colour}"/>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">` +
    `<text x="${leftWidth / 2}" y="14">${l}</text>` +
    `<text x="${leftWidth + rightWidth / 2}" y="14">${r}</text>` +
    `</g></svg>\n`
  );
}

/** The badge of a scored server. */
export function trustBadge(name: string, score: number): string {
  const label = labelForScore(score);
  const band = TRUST_BANDS.find((candidate) => candidate.label === label) ?? TRUST_BANDS[TRUST_BANDS.length - 1]!;
  const short = label.replace(/ Trust$/, '');
  return svg('MCP trust', `${score} · ${short}`, BAND_COLOURS[band.key], `${name}: MCP trust score ${score}, ${label}`);
}

/** The badge of a name the snapshot does not hold. */
export function notScoredBadge(name: string): string {
  return svg('MCP trust', 'not scored', NOT_SCORED_COLOUR, `${name}: not scored`);
}
