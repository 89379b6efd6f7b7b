/**
 * Issue 43: how often search by name puts the server a person asks for in its first three, on the committed
 * data (`data/servers.json`) built into a snapshot as `npm run build` builds it. Three curated lists give the
 * queries: Docker's MCP Catalog (titles and names), and the MCP servers README's Official Integrations and
 * Community Servers (the listed names); a query's expected answers are the registry servers with the
 * repository the curator links (`test/fixtures/search/README.md`). The figures are stated in docs/evaluation.md. `NAME_QUERIES_MISSES=1`
 * prints each query whose first answer is not expected, with the first three answers' record ids.
 *
 * First: the share of queries whose first result is an expected server. Strict recall at 3: the share with an
 * expected server among the first three results. Tie-aware:
 * an expected server also counts when it ties the third result on what the order decides before trust and name
 * (its class and relevance), i.e. when only the decisions' tie-break keeps it out.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSnapshot } from '../../src/query/open.js';
import { readSnapshot } from '../../src/query/load.js';
import { createParts } from '../../src/query/parts.js';
import { createSearch, type Search } from '../../src/search/search.js';
import type { QueryEngine } from '../../src/query/types.js';
import { type NameQuery, readNameQueries, share } from '../support/name-queries.js';
import { buildTestSnapshot } from '../support/records.js';

let engine: QueryEngine;
/** A second search over the same snapshot, asked only for the relevance of matches (the engine's is private). */
let relevanceSearch: Search;
let idOf: Map<string, number>;
let queries: NameQuery[];
let official: NameQuery[];

beforeAll(async () => {
  const records = JSON.parse(await readFile('data/servers.json', 'utf8')) as { name: string }[];
  idOf = new Map(records.map((record, id) => [record.name, id]));
  queries = await readNameQueries('docker');
  official = await readNameQueries('official');
  const dir = await buildTestSnapshot(records);
  engine = await openSnapshot(dir);
  await engine.ready('search');
  const artifacts = await readSnapshot(dir);
  const parts = createParts(artifacts);
  await parts.ready('search');
  relevanceSearch = createSearch(artifacts.manifest.record_count, parts);
  artifacts.records.close();
}, 60_000);

afterAll(() => engine.close());

interface Outcome {
  first: boolean;
  strict: boolean;
  tieAware: boolean;
}

function outcome({ query, expected }: NameQuery): Outcome {
  const first = engine.searchIds(query, 3).ids;
  const wanted = expected.map((name) => idOf.get(name)!);
  const strict = wanted.some((id) => first.includes(id));
  const atOne = first.length > 0 && wanted.includes(first[0]!);
  if (strict || first.length < 3) return { first: atOne, strict, tieAware: strict };
  const classes = relevanceSearch.relevance(query);
  const third = classes.get(first[2]!)!;
  const tieAware = wanted.some((id) => {
    const match = classes.get(id);
    return match !== undefined && match.first === third.first && match.relevance === third.relevance;
  });
  return { first: atOne, strict, tieAware };
}

function recall(
  half: NameQuery['half'],
  set: NameQuery[] = queries,
): { queries: number; first: number; strict: number; tieAware: number } {
  const chosen = set.filter((query) => query.half === half);
  const outcomes = chosen.map(outcome);
  if (process.env.NAME_QUERIES_MISSES) {
    chosen.forEach((query, index) => {
      if (!outcomes[index]!.first) {
        const first = engine.searchIds(query.query, 3).ids;
        console.log(
          half,
          JSON.stringify(query.query),
          query.expected.join(' '),
          outcomes[index]!.strict ? 'NOT-FIRST' : outcomes[index]!.tieAware ? 'TIE' : 'MISS',
          first.join(','),
        );
      }
    });
  }
  return {
    queries: outcomes.length,
    first: share(outcomes.filter((o) => o.first).length, outcomes.length),
    strict: share(outcomes.filter((o) => o.strict).length, outcomes.length),
    tieAware: share(outcomes.filter((o) => o.tieAware).length, outcomes.length),
  };
}

describe('name queries from a curated catalog, by repository', () => {
  it('every expected server is a record of the committed data', () => {
    for (const { expected } of queries) for (const name of expected) expect(idOf.has(name)).toBe(true);
  });

  // The one miss on the tuning half finds nothing: `Neo4j Cloud Aura Api`, whose `cloud` and `api` no name of
  // its servers holds (decisions §4: every word that says which server is meant must match; readings.ts).
  it('states recall at 3 on the tuning half: 0.97 strict, 0.97 tie-aware', () => {
    expect(recall('tuning')).toEqual({ queries: 29, first: 0.93, strict: 0.97, tieAware: 0.97 });
  });

  // The four misses on the held-out half find nothing, for the same reason (`Mapbox Developer` for
  // mcp-devkit-server, `Hummingbot: Trading Agent` for hummingbot/mcp).
  it('states recall at 3 on the held-out half: 0.90 strict, 0.90 tie-aware', () => {
    expect(recall('held-out')).toEqual({ queries: 40, first: 0.8, strict: 0.9, tieAware: 0.9 });
  });
});

describe('name queries from the MCP servers README, by repository', () => {
  it('every expected server is a record of the committed data', () => {
    for (const { expected } of official) for (const name of expected) expect(idOf.has(name)).toBe(true);
  });

  // The misses find nothing: `Google Maps Platform Code Assist` (platform-ai) and `MCP Toolbox for Databases`
  // (genai-toolbox) each hold words in no name of their server.
  it('states recall at 3 on the tuning half: 0.96 strict, 0.96 tie-aware', () => {
    expect(recall('tuning', official)).toEqual({ queries: 45, first: 0.96, strict: 0.96, tieAware: 0.96 });
  });

  // The two misses find nothing, for the same reason (`Microsoft Learn Docs`, `Klavis ReportGen`). `Norman
  // Finance` (finance.norman/mcp-server) is found by the domain reading, a rule of issue 43's text that this
  // half's miss brought to mind: this half is no longer unseen for it (docs/evaluation.md).
  it('states recall at 3 on the held-out half: 0.93 strict, 0.93 tie-aware', () => {
    expect(recall('held-out', official)).toEqual({ queries: 28, first: 0.89, strict: 0.93, tieAware: 0.93 });
  });
});

// A third list, taken after every rule of issue 43 was made and measured once, with no change made on it since:
// both halves are unseen (docs/evaluation.md). Where it lists one name for several servers, any of them answers.
describe('name queries from the MCP servers README’s Community Servers, by repository', () => {
  let community: NameQuery[];
  beforeAll(async () => {
    community = await readNameQueries('community');
  });

  it('every expected server is a record of the committed data', () => {
    for (const { expected } of community) for (const name of expected) expect(idOf.has(name)).toBe(true);
  });

  // The seven misses find nothing, each for a word in no name of its server (`AntV Chart` for
  // mcp-server-chart, `Squad AI` for ai.meetsquad/squad).
  it('states recall at 3 on the tuning half: 0.78 strict, 0.78 tie-aware', () => {
    expect(recall('tuning', community)).toEqual({ queries: 32, first: 0.75, strict: 0.78, tieAware: 0.78 });
  });

  // Four of the five misses find nothing, for the same reason (`Prometheus (Golang)`, `Video Editor`);
  // `mcp_weather` finds its server below the first three.
  it('states recall at 3 on the held-out half: 0.86 strict, 0.86 tie-aware', () => {
    expect(recall('held-out', community)).toEqual({ queries: 36, first: 0.69, strict: 0.86, tieAware: 0.86 });
  });
});

// The issue's own held-out set (strict 0.87, tie-aware 0.99 before it) held queries whose server the name search
// matched almost always, and missed on order. The queries of that kind here: the held-out ones of all three
// lists whose expected server the name search matches at all, at any rank. How many of those have it in the
// first three says how well the order does, apart from the words no name holds.
describe('held-out queries whose server the name search matches at all', () => {
  it('have it in the first three: 93 of 94 (0.99)', async () => {
    const community = await readNameQueries('community');
    const heldOut = [...queries, ...official, ...community].filter((query) => query.half === 'held-out');
    const matched = heldOut.filter(({ query, expected }) => {
      const matches = relevanceSearch.relevance(query);
      return expected.some((name) => matches.has(idOf.get(name)!));
    });
    const inFirstThree = matched.filter((query) => outcome(query).strict);
    expect({ heldOut: heldOut.length, matched: matched.length, inFirstThree: inFirstThree.length }).toEqual({
      heldOut: 104,
      matched: 94,
      inFirstThree: 93,
    });
  });
});
