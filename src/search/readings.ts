/**
 * The readings of a query (issue 43): besides the query as written, what else it may mean that the index can
 * answer. A record matching any reading matches, with its best relevance; every reading still needs all of
 * its words (decisions §4), so a reading only ever leaves out words that say nothing about which server is
 * meant:
 *
 * - Words that say what every record is, or join other words (`mcp`, `server`, `and`, `the`: `OPTIONAL_WORDS`),
 *   when the query has other words too: `dynatrace mcp server` also reads as `dynatrace`. Alone, or with only
 *   each other (`mcp`, `mcp server`), they are the content and must match.
 * - Compounds and their parts (`compounds.ts`), of the query and of its content reading.
 *
 * `official` asks for the publisher's own server (`officialReading`); `search.ts` answers it, as it needs the
 * publisher table.
 */
import { compoundReadings } from './compounds.js';
import { nameWords, writesNamespace } from './words.js';

/**
 * Words that do not say which server is meant when other words do: every record is an MCP server, and the
 * rest join words in a sentence. Kept short: a word here is never required next to a content word.
 */
export const OPTIONAL_WORDS: ReadonlySet<string> = new Set([
  'mcp',
  'server',
  'servers',
  'a',
  'an',
  'and',
  'at',
  'by',
  'for',
  'from',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);

/** The word of a query that asks for the publisher's own server: `github official`. */
export const OFFICIAL_WORD = 'official';

/** At most this many readings besides the query's own: a query of many words stays a few searches. */
const MAX_READINGS = 6;

/**
 * The words of `query` that name a server or its publisher: without `OPTIONAL_WORDS` and `official` when any
 * other word is left, else every word. The publisher a query names is these words run together.
 */
export function contentWords(query: string): string[] {
  const words = nameWords(query);
  const content = words.filter((word) => !OPTIONAL_WORDS.has(word) && word !== OFFICIAL_WORD);
  return content.length > 0 ? content : words;
}

/**
 * The other readings of `query`, as queries, that `known` (the searched indexes' terms) can answer: its
 * content reading (optional words left out), and the compound readings of both.
 * None for a query that writes a namespace (a name is written as it is).
 */
export function queryReadings(query: string, known: (word: string) => boolean): string[] {
  if (writesNamespace(query)) return [];
  const words = nameWords(query);
  const written = words.join(' ');
  // `official` stays: it is answered by the publisher's own servers (`officialReading`), never left out.
  const kept = words.filter((word) => !OPTIONAL_WORDS.has(word));
  const content = (kept.length > 0 ? kept : words).join(' ');
  const readings = new Set<string>(compoundReadings(written, known));
  if (content !== written) {
    readings.add(content);
    for (const reading of compoundReadings(content, known)) readings.add(reading);
  }
  readings.delete(written);
  return [...readings].slice(0, MAX_READINGS);
}

/**
 * For a query that asks for a publisher's official server (`github official`, `official slack mcp server`):
 * the rest of its content words, whose publisher's own servers answer it (`search.ts`). Undefined when the
 * query does not say `official`, or says nothing else.
 */
export function officialReading(query: string): string | undefined {
  if (writesNamespace(query)) return undefined;
  const words = nameWords(query);
  if (!words.includes(OFFICIAL_WORD)) return undefined;
  const rest = contentWords(query);
  return rest.includes(OFFICIAL_WORD) ? undefined : rest.join(' ');
}
