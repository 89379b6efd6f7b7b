/**
 * What the documents say about the routes, made from the route table (`src/api/routes.ts`) so it cannot
 * drift from it: the count and methods in words, and the route index of `docs/api.md`. A document holds each
 * made part between markers, `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; `npm run generate`
 * rewrites what is between them and `test/generated-files.test.ts` fails until the committed text is current.
 */
import type { Route } from '../../src/api/route.js';

const SMALL = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** A count in words, as the documents write counts (`seventeen`, `twenty-one`); digits from 100 on. */
export function countWord(count: number): string {
  if (!Number.isInteger(count) || count < 0 || count >= 100) return String(count);
  if (count < 20) return SMALL[count] ?? String(count);
  const unit = count % 10;
  return `${TENS[Math.floor(count / 10)]}${unit === 0 ? '' : `-${SMALL[unit]}`}`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const methodOf = (route: Route) => route.method ?? 'GET';

/** `seventeen routes`: the phrase a sentence of prose uses for the table's size. */
export const routeCountPhrase = (routes: readonly Route[]): string => `${countWord(routes.length)} routes`;

/** The opening of the API reference: how many routes, their methods, and which need a key. */
export function routeOverview(routes: readonly Route[]): string {
  const posts = routes.filter((route) => methodOf(route) === 'POST');
  const deletes = routes.filter((route) => methodOf(route) === 'DELETE');
  const gets = routes.length - posts.length - deletes.length;
  const keyless = routes.filter((route) => !route.keyed);
  const keyed = routes.length - keyless.length;
  const shared =
    new Set(routes.map((route) => route.path)).size === routes.length
      ? 'one path each'
      : 'a path for each but where two methods share one';
  const deleting =
    deletes.length === 0
      ? ''
      : ` and ${countWord(deletes.length)} \`DELETE\` (and \`OPTIONS\`): ${deletes.map((route) => `\`DELETE ${route.path}\``).join(' and ')}`;
  return (
    `${capitalised(routeCountPhrase(routes))}, ${shared}: ${countWord(gets)} answer \`GET\` (and \`HEAD\`, ` +
    `and \`OPTIONS\` for CORS preflight), ${countWord(posts.length)} answer \`POST\` (and \`OPTIONS\`): ` +
    `${posts.map((route) => `\`POST ${route.path}\``).join(' and ')}${deleting}. ` +
    `${capitalised(countWord(keyed))} need the \`X-API-Key\` header and count against its daily limit; ` +
    `${countWord(keyless.length)} need no key: ${keyless.map((route) => route.doc.summary).join(', ')}.`
  );
}

/** The route index: one row per route, in the table's order (the order of the 404's list and the OpenAPI). */
export function routeIndex(routes: readonly Route[]): string {
  const rows = routes.map(
    (route) => `| \`${methodOf(route)}\` | \`${route.path}\` | ${route.keyed ? 'yes' : 'no'} | ${route.doc.summary} |`,
  );
  return ['| Method | Path | Key | Route |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/**
 * `text` with the part between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` replaced by
 * `content`: inline when the markers share a line, as a block (a blank line either side) otherwise.
 * Throws when a marker is missing, so a document that lost its markers is an error, not a silent skip.
 */
export function replaceGenerated(text: string, name: string, content: string, file: string): string {
  const open = `<!-- generated:${name} -->`;
  const close = `<!-- /generated:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close, start + open.length);
  if (start === -1 || end === -1) throw new Error(`${file}: the markers ${open} … ${close} are missing`);
  const inside = text.slice(start + open.length, end);
  const made = inside.includes('\n') ? `\n\n${content}\n\n` : content;
  return `${text.slice(0, start + open.length)}${made}${text.slice(end)}`;
}

/** The parts each document holds, by file: marker name → content. */
export function routeDocParts(routes: readonly Route[]): Record<string, Record<string, string>> {
  return {
    'docs/api.md': { 'route-overview': routeOverview(routes), 'route-index': routeIndex(routes) },
    'docs/site.md': { 'route-count': routeCountPhrase(routes) },
  };
}
