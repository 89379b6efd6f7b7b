/**
 * The readings of a query (issue 43): besides the query as written, what else it may mean that the index can
 * answer. A record matching any reading matches, with its best relevance. Two kinds, tried in turn:
 *
 * - Readings with the same words (`sameWords`): compounds and their parts (`compounds.ts`), `file system` for
 *   `filesystem`. Every word the query wrote still matches (decisions §4: several words mean all of them).
 * - Readings with fewer words (`fewerWords`), only when neither the query as written nor a same-words reading
 *   matches anything, so an answer the specification gives is never widened: words that say what every record
 *   is, or join other words (`mcp`, `server`, `and`, `the`: `OPTIONAL_WORDS`), left out when the query has
 *   other words too (`dynatrace mcp server` also reads as `dynatrace`), and that reading's compounds. Alone,
 *   or with only each other (`mcp`, `mcp server`), they are the content and must match.
 *
 * `official` asks for the publisher's own server (`officialReading`), a reading with fewer words too;
 * `search.ts` answers it, as it needs the publisher table. So does a publisher's domain written as words
 * (`domainReading`: `norman finance` for `finance.norman`), tried with the readings with fewer words.
 */
import { compoundReadings } from './compounds.js';
import { nameWords, OPTIONAL_WORDS, writesNamespace } from './words.js';

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

/** The other readings of a query, by kind (see the module's comment). */
export interface QueryReadings {
  /** Compound readings: every word of the query still matches. */
  sameWords: string[];
  /** The content reading and its compounds: tried only when the query and `sameWords` match nothing. */
  fewerWords: string[];
}

/**
 * The other readings of `query`, as queries, that `known` (the searched indexes' terms) can answer: its
 * compound readings, and its content reading (optional words left out) with that reading's compounds.
 * None for a query that writes a namespace (a name is written as it is).
 */
export function queryReadings(query: string, known: (word: string) => boolean): QueryReadings {
  return { sameWords: sameWordsReadings(query, known), fewerWords: fewerWordsReadings(query, known) };
}

/** The compound readings of `query` (`QueryReadings.sameWords`), without the query as written. */
export function sameWordsReadings(query: string, known: (word: string) => boolean): string[] {
  if (writesNamespace(query)) return [];
  const written = nameWords(query).join(' ');
  return compoundReadings(written, known)
    .filter((reading) => reading !== written)
    .slice(0, MAX_READINGS);
}

/**
 * The content reading of `query` and its compounds (`QueryReadings.fewerWords`), without the query as written
 * or its compound readings. Worked out only for a query that matched nothing as written (`search.ts`).
 */
export function fewerWordsReadings(query: string, known: (word: string) => boolean): string[] {
  if (writesNamespace(query)) return [];
  const words = nameWords(query);
  const written = words.join(' ');
  // `official` stays: it is answered by the publisher's own servers (`officialReading`), never left out.
  const kept = words.filter((word) => !OPTIONAL_WORDS.has(word));
  const content = (kept.length > 0 ? kept : words).join(' ');
  if (content === written) return [];
  const fewerWords = new Set<string>([content, ...compoundReadings(content, known)]);
  for (const reading of [written, ...compoundReadings(written, known)]) fewerWords.delete(reading);
  return [...fewerWords].slice(0, MAX_READINGS);
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

/**
 * For a query that names a publisher by its domain, written as words (`norman finance` for the namespace
 * `finance.norman`, the domain `norman.finance`): the query written as that namespace, which reaches the
 * top-level domain a namespace's prefix holds (a query naming the namespace itself may, issue 43), and the
 * publisher's name, whose own servers alone may answer it (`query-plans.ts`). Undefined for a query that
 * writes a namespace already, or names no more than one word.
 */
export function domainReading(query: string): { reading: string; publisher: string } | undefined {
  if (writesNamespace(query)) return undefined;
  const words = contentWords(query);
  if (words.length < 2) return undefined;
  const name = words.slice(0, -1);
  return { reading: [words[words.length - 1]!, ...name].join('.'), publisher: name.join(' ') };
}
