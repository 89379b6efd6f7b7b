/**
 * `npm run bench -- --only name-index [--seed S] [--rounds R]` (issue 43): the name index (`search.bin`) at
 * 100,000 and 1,000,000 synthetic names against the index before issue 43 (BASELINE_COMMIT), which the bench
 * takes from git (`git archive` of its `src/` into a temporary folder), so the comparison needs no recorded
 * figure. For each size, each tree in a fresh child process, the two alternating round by round (a busy host
 * falls on both alike): the encoding's time (`encodeNameIndex`), the index's bytes, the memory a process holds
 * for the loaded index and the search's per-record arrays (heap and array buffers, after a collection), and
 * the time of searches by name (`createSearch(...).page`): words of the names met the first time, then the
 * same words asked again, a tenth of them written as compounds (`COMPOUND_QUERIES`). Medians over the rounds;
 * each after / before ratio judged against 1.10 (issue 43: within 10 % of the index before it).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateRecords, seededRandom } from '../../src/bench/synthetic.js';
import type { createSlicer as CreateSlicer } from '../../src/format/slicer.js';
import type { createSearch as CreateSearch } from '../../src/search/search.js';
import type { WordIndex as WordIndexClass } from '../../src/search/word-index.js';
import { BASELINE_COMMIT, baselineSource, ROOT, runTreeChild } from './lib/baseline-tree.js';
import { percentile } from './lib/latency.js';
import { runMain } from '../lib/main.js';

const SIZES = [100_000, 1_000_000];
/** Distinct one- and two-word queries drawn from the names' own words, the same for both trees. */
const QUERIES = 400;
/**
 * Of them, written as compounds are (issue 43's readings): a word with a space inside (`wen shi` for
 * `wenshi`), or two neighbouring words run together (`slacktools`), so the search's merge of a query's
 * readings is timed and its memory counted.
 */
const COMPOUND_QUERIES = 40;
const LIMIT = 20;
/** Asked before the timed queries; the synthetic names' ids never hold it (`src/bench/synthetic.ts`). */
const WARM_UP = 'warmup';

interface ChildResult {
  encodeMs: number;
  bytes: number;
  heldMB: number;
  /** Every query (the compound ones included). */
  firstMedianMs: number;
  firstP99Ms: number;
  againMedianMs: number;
  /** The queries of the names' own words only: the bench's queries before the compound ones were added. */
  ownWordsFirstMedianMs: number;
  ownWordsFirstP99Ms: number;
  ownWordsAgainMedianMs: number;
}

export interface NameIndexBench {
  names: number;
  rounds: number;
  before: ChildResult;
  after: ChildResult;
}

/** Child: encode the names with the `src/` at `source`, load the index, search; one JSON line on stdout. */
async function child(source: string, input: string): Promise<ChildResult> {
  const at = (file: string) => pathToFileURL(path.join(source, file)).href;
  const { encodeNameIndex } = (await import(at('search/word-index-writer.ts'))) as {
    encodeNameIndex(names: readonly string[]): Buffer;
  };
  const { WordIndex } = (await import(at('search/word-index.ts'))) as { WordIndex: typeof WordIndexClass };
  const { createSearch } = (await import(at('search/search.ts'))) as { createSearch: typeof CreateSearch };
  const { createSlicer } = (await import(at('format/slicer.ts'))) as { createSlicer: typeof CreateSlicer };
  const { names, scores, queries, compoundQueries } = JSON.parse(await readFile(input, 'utf8')) as {
    names: string[];
    scores: number[];
    queries: string[];
    /** The first this many queries are the compound ones. */
    compoundQueries: number;
  };
  const gc = globalThis.gc ?? (() => undefined);
  const held = () => {
    gc();
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const trustScore = Uint32Array.from(scores);
  // What the process holds before the index: the names and the rest of the input stay held throughout.
  const base = held();
  let encodeMs = 0;
  let size = 0;
  const encode = () => {
    const start = performance.now();
    const bytes = encodeNameIndex(names);
    encodeMs = performance.now() - start;
    size = bytes.length;
    return bytes;
  };
  const nameIndex = await WordIndex.load(encode(), createSlicer(Infinity));
  const search = createSearch(trustScore.length, {
    lists: () => ({ trustScore }),
    search: () => ({ nameIndex }),
    descriptions: () => ({ descriptionIndex: nameIndex }),
  });
  const time = (query: string) => {
    const t = performance.now();
    search.page(query, LIMIT, 0, ['name']);
    return performance.now() - t;
  };
  // The engine's one-off setup (its per-record arrays) on a word no query asks, not on the first query.
  time(WARM_UP);
  const firstTimes = queries.map(time);
  const againTimes = queries.map(time);
  const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
  const [first, again] = [sorted(firstTimes), sorted(againTimes)];
  const [ownFirst, ownAgain] = [sorted(firstTimes.slice(compoundQueries)), sorted(againTimes.slice(compoundQueries))];
  // The loaded index (and the bytes it keeps) and the search's per-record arrays.
  const heldMB = (held() - base) / 2 ** 20;
  return {
    encodeMs,
    bytes: size,
    heldMB,
    firstMedianMs: percentile(first, 0.5),
    firstP99Ms: percentile(first, 0.99),
    againMedianMs: percentile(again, 0.5),
    ownWordsFirstMedianMs: percentile(ownFirst, 0.5),
    ownWordsFirstP99Ms: percentile(ownFirst, 0.99),
    ownWordsAgainMedianMs: percentile(ownAgain, 0.5),
  };
}

/** The synthetic names, their trust scores and the queries, written once for every child to read. */
async function writeInput(file: string, count: number, seed: number): Promise<void> {
  const records = generateRecords(count, seed);
  const names = records.map((record) => record.name);
  const scores = records.map((record) => record.trust_score);
  records.length = 0;
  const random = seededRandom(seed ^ 0x43);
  const words = (name: string) => name.split(/[^A-Za-z0-9]+/).filter((word) => word.length >= 2);
  const queries = new Set<string>();
  while (queries.size < COMPOUND_QUERIES) {
    const own = words(names[Math.floor(random() * names.length)]!.split('/')[1]!).map((word) => word.toLowerCase());
    const at = Math.floor(random() * own.length);
    const word = own[at]!;
    const next = own[at + 1];
    if (next !== undefined && word.length >= 4 && next.length >= 4) queries.add(word + next);
    else if (word.length >= 6) queries.add(`${word.slice(0, word.length >> 1)} ${word.slice(word.length >> 1)}`);
  }
  while (queries.size < QUERIES) {
    const own = words(names[Math.floor(random() * names.length)]!.split('/')[1]!);
    const first = own[Math.floor(random() * own.length)];
    if (first === undefined) continue;
    const second = random() < 0.3 ? own.find((word) => word !== first) : undefined;
    queries.add(second === undefined ? first : `${first} ${second}`);
  }
  await writeFile(file, JSON.stringify({ names, scores, queries: [...queries], compoundQueries: COMPOUND_QUERIES }));
}

const runChild = (source: string, input: string): ChildResult =>
  runTreeChild<ChildResult>('name-index.ts', source, input, ['--expose-gc', '--max-old-space-size=6144']);

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

const medianOf = (results: readonly ChildResult[]): ChildResult => ({
  encodeMs: median(results.map((r) => r.encodeMs)),
  bytes: median(results.map((r) => r.bytes)),
  heldMB: median(results.map((r) => r.heldMB)),
  firstMedianMs: median(results.map((r) => r.firstMedianMs)),
  firstP99Ms: median(results.map((r) => r.firstP99Ms)),
  againMedianMs: median(results.map((r) => r.againMedianMs)),
  ownWordsFirstMedianMs: median(results.map((r) => r.ownWordsFirstMedianMs)),
  ownWordsFirstP99Ms: median(results.map((r) => r.ownWordsFirstP99Ms)),
  ownWordsAgainMedianMs: median(results.map((r) => r.ownWordsAgainMedianMs)),
});

/** Both trees at each size, alternating, `rounds` times each. */
export async function benchNameIndex(options: { seed: number; rounds: number }): Promise<NameIndexBench[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'mts-bench-name-index-'));
  try {
    const trees = { before: await baselineSource(work), after: path.join(ROOT, 'src') };
    const results: NameIndexBench[] = [];
    for (const names of SIZES) {
      const input = path.join(work, `names-${names}.json`);
      await writeInput(input, names, options.seed);
      const runs = { before: [] as ChildResult[], after: [] as ChildResult[] };
      for (let round = 0; round < options.rounds; round++) {
        // The order turns each round, so neither tree always runs on a host the other left warm.
        const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
        for (const tree of order) runs[tree].push(runChild(trees[tree], input));
      }
      results.push({ names, rounds: options.rounds, before: medianOf(runs.before), after: medianOf(runs.after) });
      await rm(input, { force: true });
    }
    return results;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The figures as a table, each ratio judged against issue 43's bound (within 10 %) where both trees do the
 * same work: the searches of the names' own words (the bench's queries before the compound ones were added).
 * With the compound queries, which the index before issue 43 answered with nothing, the medians are shown
 * and not judged: a tenth of the queries moving from "nothing found" to a ranked page moves a median of a
 * mix of kept one-word answers (microseconds) and ranked searches (a tenth of a millisecond) by the gap
 * between the two, not by the index's speed.
 */
export function formatNameIndexBench(results: readonly NameIndexBench[]): string {
  const rows = [
    '| names | figure | before issue 43 | now | now / before | within 10 % |',
    '| ----: | ------ | --------------: | --: | -----------: | ----------- |',
  ];
  const ms = (digits: number) => (v: number) => `${v.toFixed(digits)} ms`;
  const figures: [string, (r: ChildResult) => number, (v: number) => string, boolean][] = [
    ['encode', (r) => r.encodeMs, ms(0), true],
    ['bytes', (r) => r.bytes, (v) => `${(v / 1e6).toFixed(2)} MB`, true],
    ['held in memory (heap + array buffers)', (r) => r.heldMB, (v) => `${v.toFixed(1)} MiB`, true],
    ["search of the names' own words, first time: median", (r) => r.ownWordsFirstMedianMs, ms(3), true],
    ["search of the names' own words, first time: p99", (r) => r.ownWordsFirstP99Ms, ms(2), true],
    ["search of the names' own words, asked again: median", (r) => r.ownWordsAgainMedianMs, ms(3), true],
    ['search with the compound queries, first time: median', (r) => r.firstMedianMs, ms(3), false],
    ['search with the compound queries, first time: p99', (r) => r.firstP99Ms, ms(2), false],
    ['search with the compound queries, asked again: median', (r) => r.againMedianMs, ms(3), false],
  ];
  for (const result of results) {
    for (const [label, value, show, judged] of figures) {
      const ratio = value(result.after) / value(result.before);
      const verdict = judged ? (ratio <= 1.1 ? 'PASS' : 'FAIL') : 'not judged: more found';
      rows.push(
        `| ${result.names.toLocaleString('en')} | ${label} | ${show(value(result.before))} | ` +
          `${show(value(result.after))} | ${ratio.toFixed(3)} | ${verdict} |`,
      );
    }
  }
  return `${rows.join('\n')}\n\nMedians of ${results[0]?.rounds ?? 0} rounds a tree, alternating; before: ${BASELINE_COMMIT.slice(0, 7)}.`;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runMain(async () => {
    const { values } = parseArgs({
      options: { child: { type: 'string' }, input: { type: 'string' } },
      strict: true,
    });
    if (values.child === undefined || values.input === undefined)
      throw new Error('run through npm run bench -- --only name-index');
    console.log(JSON.stringify(await child(values.child, values.input)));
  });
}
