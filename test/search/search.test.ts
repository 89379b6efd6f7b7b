/** Name search on the cases decisions §4 and §6 name. */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QueryEngine } from '../../src/query/types.js';
import type { ObjectEngine } from '../support/engine.js';
import { nameWords } from '../../src/search/words.js';
import { loadObjectEngine } from '../support/engine.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const names: [string, number][] = [
  ['io.github.alice/postgres-mcp', 70],
  ['io.github.bob/PostgresQueryTool', 40],
  ['com.acme/mysql-server', 65],
  ['io.github.carol/github-mcp-server', 55],
  ['io.github.dave/slack-bot', 90],
  ['io.github.erin/weather', 30],
  ['io.github.frank/notion-sync', 20],
  ['com.example/mcp', 10],
  ['ai.tools/mcp-server', 80],
  ['io.github.github/github-mcp-server', 85],
  ['io.github.zed/kubernetes-helper', 50],
  ['io.github.yan/kubernetes-helper-pro', 60],
];

let engine: QueryEngine & ObjectEngine;
const search = (q: string, limit = 20) => engine.search(q, limit);
const namesOf = (q: string, limit = 20) => search(q, limit).items.map((r) => r.name);

beforeAll(async () => {
  engine = await loadObjectEngine(
    await buildTestSnapshot(names.map(([name, trust_score]) => makeRecord({ name, trust_score }))),
  );
});

/** The words of `text` by the general rule alone (no fast path): what `nameWords` must give for any text. */
function wordsByRule(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}]+/u)
    .filter((chunk) => chunk !== '')
    .flatMap((chunk) =>
      chunk
        .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
        .replace(/(\p{Lu})(\p{Lu}\p{Ll})(?<!\p{Lu}s(?!\p{Ll}))/gu, '$1 $2')
        .split(' ')
        .filter((word) => word !== '')
        .map((word) => word.toLowerCase()),
    );
}

describe('name words', () => {
  it('gives the general rule’s words on its fast paths too', () => {
    const text = fc.stringMatching(/^[A-Za-z0-9 ./_-]{0,24}$/);
    fc.assert(
      fc.property(text, (value) => {
        expect(nameWords(value)).toEqual(wordsByRule(value));
      }),
      { numRuns: 5000 },
    );
    for (const value of ['Manage files', 'MCPServer', 'API', 'myServer', 'PostgreSQL-backed', 'ÉtéMCP', 'x'])
      expect(nameWords(value), value).toEqual(wordsByRule(value));
  });

  it('splits on / . - _ and letter-case changes, lower-cased', () => {
    expect(nameWords('io.github.bob/PostgresQueryTool')).toEqual(['io', 'github', 'bob', 'postgres', 'query', 'tool']);
    expect(nameWords('ai.x/MCPServer_v2-beta')).toEqual(['ai', 'x', 'mcp', 'server', 'v2', 'beta']);
  });

  it('keeps an acronym’s plural one word: PRs, APIs', () => {
    expect(nameWords('GitHub PRs and Issues')).toEqual(['git', 'hub', 'prs', 'and', 'issues']);
    expect(nameWords('APIsHub')).toEqual(['apis', 'hub']);
    expect(nameWords('MCPServer')).toEqual(['mcp', 'server']);
  });
});

describe('search', () => {
  it('matches a word prefix: postg finds postgres', () => {
    expect(namesOf('postg')).toEqual(
      expect.arrayContaining(['io.github.alice/postgres-mcp', 'io.github.bob/PostgresQueryTool']),
    );
    expect(search('postg').total).toBe(2);
  });

  it('tolerates a typo in a word of 4 or more characters', () => {
    expect(namesOf('postgras')).toContain('io.github.alice/postgres-mcp');
    expect(namesOf('kubernets')).toContain('io.github.zed/kubernetes-helper');
  });

  it('does not apply typo tolerance to words shorter than 4 characters', () => {
    // "bot" is in slack-bot; "bxt" is one edit away but only 3 characters long.
    expect(search('bxt').total).toBe(0);
  });

  it('requires every word of a query with several words', () => {
    expect(namesOf('kubernetes pro')).toEqual(['io.github.yan/kubernetes-helper-pro']);
    expect(namesOf('postgres slack')).toEqual([]);
  });

  it('weighs the id above the namespace, so github does not rank every io.github.* server first', () => {
    const results = namesOf('github');
    expect(results.slice(0, 2).sort()).toEqual([
      'io.github.carol/github-mcp-server',
      'io.github.github/github-mcp-server',
    ]);
    // A namespace is not a name: `io.github.` says where a publisher lives, so only the servers whose id or
    // publisher says github match; a query that writes the namespace reaches every io.github.* server.
    expect(search('github').total).toBe(
      names.filter(([n]) => /github/i.test(n.split('/')[1]!) || n.startsWith('io.github.github/')).length,
    );
    expect(search('io.github').total).toBe(names.filter(([n]) => n.startsWith('io.github.')).length);
  });

  it('ranks a server whose id is exactly the query first: q=mcp puts <namespace>/mcp at the top', () => {
    expect(namesOf('mcp')[0]).toBe('com.example/mcp');
    expect(namesOf('MCP')[0]).toBe('com.example/mcp');
  });

  it('breaks ties in relevance by the higher trust score', () => {
    // Both ids have the same words; only the trust score differs.
    expect(namesOf('github mcp server')).toEqual([
      'io.github.github/github-mcp-server',
      'io.github.carol/github-mcp-server',
    ]);
  });

  it('counts only the words that say what a name is in its length: mcp and server make no name longer', async () => {
    const sqlite = await loadObjectEngine(
      await buildTestSnapshot(
        [
          ['io.github.x/mcp-sqlite', 30],
          ['io.github.y/sqlite-mcp-server', 60],
          ['io.github.z/sqlite-backup-tool', 90],
        ].map(([name, trust_score]) => makeRecord({ name: name as string, trust_score: trust_score as number })),
      ),
    );
    // The first two are equally about sqlite, so the higher trust score decides; the third says more.
    expect(sqlite.search('sqlite', 5).items.map((r) => r.name)).toEqual([
      'io.github.y/sqlite-mcp-server',
      'io.github.x/mcp-sqlite',
      'io.github.z/sqlite-backup-tool',
    ]);
  });

  it('matches case-insensitively and counts every match in total while returning at most limit', () => {
    const page = search('MCP', 2);
    expect(page.items).toHaveLength(2);
    expect(page.total).toBe(names.filter(([n]) => nameWords(n).includes('mcp')).length);
  });

  it('answers a query with no words at all with no matches', () => {
    expect(search('--')).toEqual({ items: [], total: 0 });
  });

  it('gives the same page as JSON text', () => {
    const json = engine.searchJson('postgres', 5);
    expect(JSON.parse(json.json)).toEqual(search('postgres', 5).items);
    expect(json.total).toBe(search('postgres', 5).total);
  });
});

describe('get and stats', () => {
  it('finds a server case-insensitively and answers with the stored spelling', () => {
    expect(engine.get('IO.GITHUB.BOB/postgresquerytool')?.name).toBe('io.github.bob/PostgresQueryTool');
    expect(engine.getJson('io.github.bob/POSTGRESQUERYTOOL')).toContain('"name":"io.github.bob/PostgresQueryTool"');
    expect(engine.get('io.github.bob/nothing')).toBeUndefined();
  });

  it('computes the statistics record', () => {
    const stats = engine.stats();
    expect(stats.total_servers).toBe(names.length);
    const scores = names.map(([, s]) => s).sort((a, b) => a - b);
    expect(stats.median_score).toBe((scores[5]! + scores[6]!) / 2);
    expect(stats.average_score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 2);
    expect(Object.values(stats.score_distribution).reduce((a, b) => a + b, 0)).toBe(names.length);
    expect(stats.score_distribution['High Trust']).toBe(3);
    expect(JSON.parse(engine.statsJson())).toEqual(stats);
  });
});
