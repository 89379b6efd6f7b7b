/**
 * `npx tsx scripts/bench/minisearch.ts [--records N] [--seed S] [--calls C]` (also `npm run bench -- --only
 * minisearch`): the name search of this project's word index against MiniSearch 7, the library the design
 * names for it and the reference the tests hold the index to (`test/search/word-index-writer.test.ts`).
 *
 * Both index the same names the same way (the id part boosted 3, the namespace 1, words by `nameWords`,
 * prefix matching, typo tolerance by `fuzziness`, every word required) and answer `mcp`, the word most names
 * hold, at the committed dataset's size and at N synthetic names (`src/bench/synthetic.ts`, default 100,000):
 * median and p99 of C calls each, and how many names match. The engine keeps a common word's ranked matches
 * once asked (`src/search/search.ts`), so its first answer is timed apart, on freshly loaded engines, each
 * having answered one other word first (its scratch arrays are made once per engine, not per word). Then what
 * a server would pay to start from MiniSearch's serialized index: `MiniSearch.loadJSON` of the N-name index is
 * synchronous, so it holds the event loop for all of its time; `loadJSONAsync`'s longest hold is measured with
 * `monitorEventLoopDelay`.
 * docs/performance.md and docs/decisions.md carry the figures.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { generateRecords } from '../../src/bench/synthetic.js';
import { splitName } from '../../src/model/schema.js';
import { loadSnapshot } from '../../src/query/open.js';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { FIELD_BOOST, FUZZY_WEIGHT, fuzziness, nameWords, PREFIX_WEIGHT } from '../../src/search/words.js';
import { latency, percentile } from './lib/latency.js';
import { runMain } from '../lib/main.js';

interface NameDoc {
  id: number;
  server: string;
  namespace: string;
}

/** The index options: this project's fields, words and boosts, as the reference test builds MiniSearch. */
const INDEX_OPTIONS: Options<NameDoc> = {
  idField: 'id',
  fields: ['server', 'namespace'],
  storeFields: [],
  tokenize: (text) => nameWords(text),
  processTerm: (term) => term,
};

/** The query options: the project's prefix matching, typo tolerance, weights, and every word required. */
const QUERY_OPTIONS: SearchOptions = {
  boost: FIELD_BOOST,
  prefix: true,
  fuzzy: (term) => fuzziness(term),
  weights: { prefix: PREFIX_WEIGHT, fuzzy: FUZZY_WEIGHT },
  combineWith: 'AND',
};

const QUERY = 'mcp';
/** Asked of a fresh engine before `mcp`, so the first `mcp` is timed without the engine's one-off setup. */
const OTHER_WORD = 'github';
/** Fresh engines whose first answer is timed, per size. */
const FIRST_ASK_ROUNDS = 11;

export interface SizeResult {
  names: number;
  matches: { minisearch: number; project: number };
  minisearch: { medianMs: number; p99Ms: number; indexMs: number };
  project: { medianMs: number; p99Ms: number; firstMedianMs: number; firstMaxMs: number };
}

export interface MiniSearchBench {
  sizes: SizeResult[];
  load: { names: number; jsonMB: number; loadJsonMs: number; asyncMaxHoldMs: number; asyncTotalMs: number };
}

function miniSearchOf(names: readonly string[]): MiniSearch<NameDoc> {
  const index = new MiniSearch<NameDoc>(INDEX_OPTIONS);
  index.addAll(
    names.map((name, id) => {
      const { namespace, id: server } = splitName(name);
      return { id, server, namespace };
    }),
  );
  return index;
}

/** Both indexes over `records`' names, each asked `mcp` `calls` times. */
async function benchSize(records: readonly { name: string }[], calls: number): Promise<SizeResult> {
  const names = records.map((record) => record.name);
  const work = await mkdtemp(path.join(tmpdir(), 'mts-bench-minisearch-'));
  try {
    await writeSnapshot(records, work);
    // The first answer of a freshly loaded engine, a few times over (each load is a full one).
    const firsts: number[] = [];
    for (let round = 0; round < FIRST_ASK_ROUNDS; round++) {
      const fresh = await loadSnapshot(work, {}, { sliceMs: Infinity });
      fresh.searchJson(OTHER_WORD, 20);
      const started = process.hrtime.bigint();
      fresh.searchJson(QUERY, 20);
      firsts.push(Number(process.hrtime.bigint() - started) / 1e6);
      fresh.close();
    }
    firsts.sort((a, b) => a - b);
    const engine = await loadSnapshot(work, {}, { sliceMs: Infinity });
    let projectMatches: number;
    let project: SizeResult['project'];
    try {
      projectMatches = engine.searchJson(QUERY, 20).total;
      project = {
        ...latency(() => engine.searchJson(QUERY, 20), calls, Math.max(5, calls / 10)),
        firstMedianMs: percentile(firsts, 0.5),
        firstMaxMs: firsts.at(-1) ?? Number.NaN,
      };
    } finally {
      engine.close();
    }
    const started = performance.now();
    const index = miniSearchOf(names);
    const indexMs = performance.now() - started;
    const minisearchMatches = index.search(QUERY, QUERY_OPTIONS).length;
    const minisearch = latency(() => index.search(QUERY, QUERY_OPTIONS).slice(0, 20), calls, Math.max(5, calls / 10));
    return {
      names: names.length,
      matches: { minisearch: minisearchMatches, project: projectMatches },
      minisearch: { ...minisearch, indexMs },
      project,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** MiniSearch's serialized index of `names`, loaded back: synchronously, then asynchronously. */
async function benchLoad(names: readonly string[]): Promise<MiniSearchBench['load']> {
  const json = JSON.stringify(miniSearchOf(names));
  let started = performance.now();
  MiniSearch.loadJSON(json, INDEX_OPTIONS);
  const loadJsonMs = performance.now() - started;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  started = performance.now();
  await MiniSearch.loadJSONAsync(json, INDEX_OPTIONS);
  const asyncTotalMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 5)); // let the histogram record the last turn
  delay.disable();
  return {
    names: names.length,
    jsonMB: Buffer.byteLength(json) / 1e6,
    loadJsonMs,
    asyncMaxHoldMs: delay.max / 1e6,
    asyncTotalMs,
  };
}

/** The committed dataset's names, then `records` synthetic ones (seed `seed`). */
export async function benchMiniSearch(options: {
  records: number;
  seed: number;
  calls: number;
}): Promise<MiniSearchBench> {
  const committed = JSON.parse(await readFile(path.join('data', 'servers.json'), 'utf8')) as { name: string }[];
  const synthetic = generateRecords(options.records, options.seed);
  const sizes = [await benchSize(committed, options.calls), await benchSize(synthetic, Math.ceil(options.calls / 4))];
  return { sizes, load: await benchLoad(synthetic.map((record) => record.name)) };
}

const ms = (value: number) => (value < 1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1));

export function formatMiniSearchBench(result: MiniSearchBench): string {
  const lines = [
    `| names | \`${QUERY}\` matches | MiniSearch 7: median / p99 (ms) | this project: first time asked, median / max (ms) | this project: asked again, median / p99 (ms) | MiniSearch: build the index (ms) |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const size of result.sizes) {
    const matches =
      size.matches.minisearch === size.matches.project
        ? size.matches.project.toLocaleString('en')
        : `${size.matches.minisearch.toLocaleString('en')} (this project: ${size.matches.project.toLocaleString('en')})`;
    lines.push(
      `| ${size.names.toLocaleString('en')} | ${matches} | ${ms(size.minisearch.medianMs)} / ${ms(size.minisearch.p99Ms)} | ` +
        `${ms(size.project.firstMedianMs)} / ${ms(size.project.firstMaxMs)} | ` +
        `${ms(size.project.medianMs)} / ${ms(size.project.p99Ms)} | ${ms(size.minisearch.indexMs)} |`,
    );
  }
  const { load } = result;
  lines.push(
    '',
    `MiniSearch's serialized index of ${load.names.toLocaleString('en')} names: ${load.jsonMB.toFixed(1)} MB of JSON; ` +
      `\`loadJSON\` ${ms(load.loadJsonMs)} ms, all of it holding the event loop; \`loadJSONAsync\` ` +
      `${ms(load.asyncTotalMs)} ms in all, holding the event loop at most ${ms(load.asyncMaxHoldMs)} ms at a time.`,
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  runMain(async () => {
    const { values } = parseArgs({
      options: {
        records: { type: 'string', default: '100000' },
        seed: { type: 'string', default: '42' },
        calls: { type: 'string', default: '200' },
      },
      strict: true,
    });
    const result = await benchMiniSearch({
      records: Number(values.records),
      seed: Number(values.seed),
      calls: Number(values.calls),
    });
    console.log(formatMiniSearchBench(result));
  });
