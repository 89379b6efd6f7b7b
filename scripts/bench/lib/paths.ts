/**
 * The requests of the throughput benchmarks (`http.ts` over HTTP, `gateway.ts` in process), in
 * one place so both send the same: each case is a generator giving the next request's path.
 */
import { SORT_FIELDS } from '../../../src/model/schema.js';
import { nameWords } from '../../../src/search/words.js';

/** Gives the next request's path. */
export type Paths = () => string;

const cycle = (paths: readonly string[]): Paths => {
  let next = 0;
  return () => paths[next++ % paths.length] ?? '/';
};

const FLAGS = ['TEMPLATE_DESCRIPTION', 'NO_SOURCE', 'DEAD_ENTRY'];

/**
 * A filtered page: two filters, a sort, an order and a page among the first ten. Walking `i` up goes
 * through 48,480 distinct combinations, more than a run can ask for, so none is answered from the cache.
 */
function listPath(i: number): string {
  const page = i % 10;
  const sort = SORT_FIELDS[Math.floor(i / 10) % SORT_FIELDS.length];
  const order = Math.floor(i / 80) % 2 === 0 ? 'asc' : 'desc';
  const flag = FLAGS[Math.floor(i / 160) % FLAGS.length];
  const minScore = Math.floor(i / 480) % 101;
  return `/v1/servers?min_score=${minScore}&flags=${flag}&sort=${sort}&order=${order}&limit=20&offset=${page * 20}`;
}

/** The `count` words the most ids hold ("mcp", "server", "tools", ... in the synthetic records). */
function commonWords(ids: readonly string[], count: number): string[] {
  const frequency = new Map<string, number>();
  for (const id of ids) for (const word of new Set(nameWords(id))) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  return [...frequency]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([word]) => word);
}

/**
 * A search for one of the 40 commonest words (at 100,000 records, from 37,689 matches for "mcp" down to
 * 1,468), at an offset within its first 1,000 matches and a limit of 10 to 20: 431,200 distinct requests,
 * more than a run asks, so none is answered from the response cache.
 */
function commonWordPath(words: readonly string[], i: number): string {
  const word = words[i % words.length]!;
  const offset = Math.floor(i / words.length) % 980;
  const limit = 10 + (Math.floor(i / (words.length * 980)) % 11);
  return `/v1/search?q=${encodeURIComponent(word)}&limit=${limit}&offset=${offset}`;
}

export interface BenchCase {
  name: string;
  /** A fresh generator, starting from the case's first request. */
  paths: () => Paths;
  /** The target ratio against a bare server (issue 11), when it sets one. */
  target?: number;
}

/**
 * The seven cases: Get Server, a filtered list page and a search, each "cached" (a few requests in turn, so
 * after the first round every answer comes from the response cache) and "uncached" (a new request each time:
 * the next record, the next filter combination, the next server's id as the query); and a search for a
 * common word (the case), a new request each time.
 */
export function benchCases(names: readonly string[], ids: readonly string[]): BenchCase[] {
  const words = commonWords(ids, 40);
  return [
    {
      name: 'Get Server, cached (1,000 names in turn)',
      paths: () => cycle(names.slice(0, 1000).map((name) => `/v1/servers/${name}`)),
      target: 0.5,
    },
    {
      name: 'Get Server, uncached (every record once)',
      paths: () => {
        let next = 0;
        return () => `/v1/servers/${names[next++ % names.length]}`;
      },
      target: 0.5,
    },
    {
      name: 'List filtered page, cached (10 pages)',
      paths: () => cycle(Array.from({ length: 10 }, (_, i) => listPath(i))),
      target: 0.3,
    },
    {
      name: 'List filtered page, uncached',
      paths: () => {
        let next = 0;
        return () => listPath(next++);
      },
      target: 0.3,
    },
    {
      name: 'Search, cached (20 queries)',
      paths: () => cycle(ids.slice(0, 20).map((id) => `/v1/search?q=${encodeURIComponent(id)}`)),
      target: 0.2,
    },
    {
      name: 'Search, uncached (next id as query)',
      paths: () => {
        let next = 0;
        return () => `/v1/search?q=${encodeURIComponent(ids[next++ % ids.length] ?? 'mcp')}`;
      },
      target: 0.2,
    },
    {
      name: 'Search, a common word (40 words, pages varying)',
      paths: () => {
        let next = 0;
        return () => commonWordPath(words, next++);
      },
      target: 0.2,
    },
  ];
}
