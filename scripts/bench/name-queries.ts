/**
 * `npm run bench -- --only name-queries` (issue 43): how often search by name answers what curators list, on
 * this tree and on the search before issue 43 (BASELINE_COMMIT, from git): the three name-query sets of
 * `test/fixtures/search/` (Docker's MCP Catalog; the MCP servers README's Official Integrations and Community
 * Servers), each half apart, the share of queries whose first answer is an expected server and the share with
 * one in the first three (strict recall at 3). Both trees search the committed data's names
 * (`data/servers.json`, in its order) with the trust scores this tree's build gives them, so only the search
 * differs. The figures of this tree are the ones `test/search/name-queries.test.ts` holds (which also states
 * the tie-aware recall, from a method only this tree has); docs/evaluation.md shows both.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import type { createSlicer as CreateSlicer } from '../../src/format/slicer.js';
import { openSnapshot } from '../../src/query/open.js';
import type { createSearch as CreateSearch } from '../../src/search/search.js';
import type { WordIndex as WordIndexClass } from '../../src/search/word-index.js';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { runMain } from '../lib/main.js';
import { BASELINE_COMMIT, baselineSource, ROOT, runTreeChild } from './lib/baseline-tree.js';

const SETS = [
  { list: "Docker's MCP Catalog", file: 'name-queries.json' },
  { list: 'Official Integrations', file: 'name-queries-official.json' },
  { list: 'Community Servers', file: 'name-queries-community.json' },
] as const;
/** The build's clock for the snapshot whose trust scores both trees rank by, as the test's snapshots have. */
const NOW = new Date('2026-03-01T00:00:00.000Z');

const NameQueriesSchema = z.object({
  queries: z.array(
    z.object({ half: z.enum(['tuning', 'held-out']), query: z.string(), expected: z.array(z.string()).min(1) }),
  ),
});
type NameQuery = z.infer<typeof NameQueriesSchema>['queries'][number];

export interface NameQueriesFigure {
  list: string;
  half: NameQuery['half'];
  queries: number;
  before: { first: number; strict: number };
  now: { first: number; strict: number };
}

/** Child: the first three record ids of each query, with the search of the `src/` at `source`. */
async function child(source: string, input: string): Promise<number[][]> {
  const at = (file: string) => pathToFileURL(path.join(source, file)).href;
  const { encodeNameIndex } = (await import(at('search/word-index-writer.ts'))) as {
    encodeNameIndex(names: readonly string[]): Buffer;
  };
  const { WordIndex } = (await import(at('search/word-index.ts'))) as { WordIndex: typeof WordIndexClass };
  const { createSearch } = (await import(at('search/search.ts'))) as { createSearch: typeof CreateSearch };
  const { createSlicer } = (await import(at('format/slicer.ts'))) as { createSlicer: typeof CreateSlicer };
  const { names, scores, queries } = JSON.parse(await readFile(input, 'utf8')) as {
    names: string[];
    scores: number[];
    queries: string[];
  };
  const trustScore = Uint32Array.from(scores);
  const nameIndex = await WordIndex.load(encodeNameIndex(names), createSlicer(Infinity));
  const search = createSearch(trustScore.length, {
    lists: () => ({ trustScore }),
    search: () => ({ nameIndex }),
    descriptions: () => ({ descriptionIndex: nameIndex }),
  });
  return queries.map((query) => search.page(query, 3, 0, ['name']).ids);
}

const runChild = (source: string, input: string) => runTreeChild<number[][]>('name-queries.ts', source, input);

export async function benchNameQueries(): Promise<NameQueriesFigure[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'mts-bench-name-queries-'));
  try {
    const records = JSON.parse(await readFile(path.join(ROOT, 'data', 'servers.json'), 'utf8')) as { name: string }[];
    const names = records.map((record) => record.name);
    const snapshot = path.join(work, 'snapshot');
    await writeSnapshot(records, snapshot, { now: NOW });
    const engine = await openSnapshot(snapshot);
    const scores = names.map((name) => (JSON.parse(engine.getJson(name)!) as { trust_score: number }).trust_score);
    engine.close();
    const sets = await Promise.all(
      SETS.map(async ({ list, file }) => ({
        list,
        queries: NameQueriesSchema.parse(
          JSON.parse(await readFile(path.join(ROOT, 'test', 'fixtures', 'search', file), 'utf8')),
        ).queries,
      })),
    );
    const all = sets.flatMap((set) => set.queries);
    const input = path.join(work, 'input.json');
    await writeFile(input, JSON.stringify({ names, scores, queries: all.map((query) => query.query) }));
    const answers = {
      before: runChild(await baselineSource(work), input),
      now: runChild(path.join(ROOT, 'src'), input),
    };
    const idOf = new Map(names.map((name, id) => [name, id]));
    const figures: NameQueriesFigure[] = [];
    let offset = 0;
    for (const set of sets) {
      for (const half of ['tuning', 'held-out'] as const) {
        const at = set.queries.flatMap((query, i) => (query.half === half ? [offset + i] : []));
        const share = (tree: 'before' | 'now', within: number) =>
          Math.round(
            (at.filter((i) => {
              const wanted = all[i]!.expected.map((name) => idOf.get(name));
              return answers[tree][i]!.slice(0, within).some((id) => wanted.includes(id));
            }).length /
              at.length) *
              100,
          ) / 100;
        figures.push({
          list: set.list,
          half,
          queries: at.length,
          before: { first: share('before', 1), strict: share('before', 3) },
          now: { first: share('now', 1), strict: share('now', 3) },
        });
      }
      offset += set.queries.length;
    }
    return figures;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export function formatNameQueriesBench(figures: readonly NameQueriesFigure[]): string {
  const rows = [
    '| list | half | queries | first answer: before issue 43 | now | strict recall at 3: before issue 43 | now |',
    '| ---- | ---- | ------: | ----------------------------: | --: | ----------------------------------: | --: |',
    ...figures.map(
      (f) =>
        `| ${f.list} | ${f.half} | ${f.queries} | ${f.before.first.toFixed(2)} | ${f.now.first.toFixed(2)} | ` +
        `${f.before.strict.toFixed(2)} | ${f.now.strict.toFixed(2)} |`,
    ),
  ];
  return `${rows.join('\n')}\n\nBefore: ${BASELINE_COMMIT.slice(0, 7)}; the committed data's names, this tree's trust scores.`;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runMain(async () => {
    const { values } = parseArgs({ options: { child: { type: 'string' }, input: { type: 'string' } }, strict: true });
    if (values.child === undefined || values.input === undefined)
      throw new Error('run through npm run bench -- --only name-queries');
    console.log(JSON.stringify(await child(values.child, values.input)));
  });
}
