/**
 * Search by what a server does (`in=description` and `in=name,description`) and search paging (`offset`):
 * a name match always ranks above a description-only match, descriptions split into words as names do,
 * every match can be paged to, and a search of names alone answers exactly as before.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine, SearchField } from '../../src/query/types.js';
import { nameWords } from '../../src/search/words.js';
import { matchesAllWords, matchesName, matchReadings, nameIndexTerms, nameTerms } from '../support/naive-search.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const records = [
  makeRecord({ name: 'io.github.alice/filesystem-mcp', trust_score: 70, description: 'Read and write local files' }),
  makeRecord({ name: 'com.acme/disk-tools', trust_score: 90, description: 'Secure file system access for agents' }),
  makeRecord({ name: 'com.acme/file-share', trust_score: 40, description: 'Share links to documents' }),
  makeRecord({ name: 'io.github.bob/mailer', trust_score: 60, description: 'Send email through SMTP' }),
  makeRecord({ name: 'io.github.carol/send-email', trust_score: 20, description: 'Description of my MCP server' }),
  makeRecord({ name: 'io.github.dave/slack-bot', trust_score: 80, description: 'Posts messages to channels' }),
  makeRecord({ name: 'io.github.erin/pg-tools', trust_score: 55, description: 'PostgreSQL-backed key_value store' }),
  makeRecord({ name: 'io.github.frank/no-description', trust_score: 50 }),
  makeRecord({ name: 'io.github.gina/empty', trust_score: 50, description: null }),
];

let engine: QueryEngine;
const names = (q: string, fields: SearchField[], limit = 20, offset = 0) =>
  (JSON.parse(engine.searchJson(q, limit, { in: fields, offset }).json) as { name: string }[]).map((r) => r.name);
const total = (q: string, fields: SearchField[]) => engine.searchJson(q, 1, { in: fields }).total;

beforeAll(async () => {
  engine = await loadSnapshot(await buildTestSnapshot(records));
  await engine.ready('descriptions');
});
afterAll(() => engine.close());

describe('search in descriptions', () => {
  it('finds servers by words of their description that no name has', () => {
    expect(names('send smtp', ['name'])).toEqual([]);
    expect(names('send smtp', ['name', 'description'])).toEqual(['io.github.bob/mailer']);
    // `file system` reads as `filesystem` too (issue 43): alice's name matches, and comes first.
    expect(names('file system', ['name'])).toEqual(['io.github.alice/filesystem-mcp']);
    expect(names('file system', ['name', 'description'])).toEqual([
      'io.github.alice/filesystem-mcp',
      'com.acme/disk-tools',
    ]);
    expect(names('smtp', ['description'])).toEqual(['io.github.bob/mailer']);
  });

  it('ranks every name match above every description-only match, whatever the trust scores', () => {
    // carol's name matches "send email" (score 20); bob's description does (score 60).
    expect(names('send email', ['name', 'description'])).toEqual([
      'io.github.carol/send-email',
      'io.github.bob/mailer',
    ]);
    // "file": two names match (alice's filesystem by prefix, file-share), disk-tools only by its description.
    const found = names('file', ['name', 'description']);
    expect(found.slice(0, 2).sort()).toEqual(['com.acme/file-share', 'io.github.alice/filesystem-mcp']);
    expect(found.slice(2)).toEqual(['com.acme/disk-tools']);
    expect(total('file', ['name', 'description'])).toBe(3);
  });

  it('lets each word match the name or the description', () => {
    expect(names('slack channels', ['name'])).toEqual([]);
    expect(names('slack channels', ['description'])).toEqual([]);
    expect(names('slack channels', ['name', 'description'])).toEqual(['io.github.dave/slack-bot']);
  });

  it('splits descriptions into words as names are split', () => {
    // "PostgreSQL-backed key_value": on - and _, and where the letter case changes.
    expect(nameWords('PostgreSQL-backed key_value')).toEqual(['postgre', 'sql', 'backed', 'key', 'value']);
    expect(names('sql backed', ['description'])).toEqual(['io.github.erin/pg-tools']);
    expect(names('value', ['description'])).toEqual(['io.github.erin/pg-tools']);
  });

  it('searches descriptions alone without the name matches', () => {
    expect(names('send email', ['description'])).toEqual(['io.github.bob/mailer']);
    expect(names('mailer', ['description'])).toEqual([]);
  });

  it('leaves records without a description out of description matches', () => {
    expect(names('description', ['description'])).toEqual(['io.github.carol/send-email']);
    expect(names('description', ['name', 'description']).sort()).toEqual([
      'io.github.carol/send-email',
      'io.github.frank/no-description',
    ]);
  });

  it('answers a search of names exactly as a search without options', () => {
    for (const q of ['file', 'send email', 'tools', 'io github', 'slack']) {
      expect(engine.searchJson(q, 20, { in: ['name'] })).toEqual(engine.searchJson(q, 20));
    }
  });
});

describe('search paging', () => {
  it('pages through every match with offset, the pages adding up to one long page', () => {
    for (const fields of [['name'], ['description'], ['name', 'description']] as SearchField[][]) {
      for (const q of ['file', 'io', 'send email', 'to']) {
        const all = names(q, fields, 200);
        const paged = [0, 1, 2, 3, 4, 5, 6, 7, 8].flatMap((page) => names(q, fields, 1, page));
        expect(paged, `${q} in ${fields.join(',')}`).toEqual(all);
        expect(names(q, fields, 2, all.length)).toEqual([]);
        expect(engine.searchJson(q, 2, { in: fields, offset: all.length + 5 }).total).toBe(all.length);
      }
    }
  });
});

const VOCABULARY = ['mcp', 'server', 'postgres', 'github', 'slack', 'weather', 'files', 'email', 'kube', 'ab', 'abcd'];
const NAMESPACES = ['io.github.alice', 'com.acme', 'ai.mcp'];
const words = (max: number) => fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: max });

describe('search in descriptions against a naive oracle', () => {
  it('matches exactly, ranks names first and pages without overlap on random datasets', async () => {
    const dataset = fc.uniqueArray(
      fc.record({
        name: fc.tuple(fc.constantFrom(...NAMESPACES), words(2)).map(([ns, id]) => `${ns}/${id.join('-')}`),
        description: fc.option(
          words(5).map((list) => list.join(' ')),
          { nil: undefined },
        ),
        score: fc.integer({ min: 0, max: 100 }),
      }),
      { minLength: 1, maxLength: 40, selector: (record) => record.name.toLowerCase() },
    );
    const query = words(2).map((list) => list.map((word) => word.slice(0, Math.max(2, word.length - 1))).join(' '));
    await fc.assert(
      fc.asyncProperty(dataset, fc.array(query, { minLength: 1, maxLength: 6 }), async (rows, queries) => {
        const snapshot = await loadSnapshot(
          await buildTestSnapshot(
            rows.map((row) =>
              makeRecord({
                name: row.name,
                trust_score: row.score,
                ...(row.description ? { description: row.description } : {}),
              }),
            ),
          ),
        );
        await snapshot.ready('descriptions');
        try {
          for (const q of queries) {
            const names = rows.map((row) => row.name);
            const byName = new Set(matchReadings(names, q, nameIndexTerms(names), matchesName));
            const known = new Set([
              ...nameIndexTerms(rows.map((row) => row.name)),
              ...rows.flatMap((row) => nameWords(row.description ?? '')),
            ]);
            const either = matchReadings(rows, q, known, (row, reading) => {
              const { terms, prefix } = nameTerms(row.name);
              return matchesAllWords([...terms, ...nameWords(row.description ?? '')], reading, prefix);
            }).map((row) => row.name);
            const page = snapshot.searchJson(q, 200, { in: ['name', 'description'] });
            const found = (JSON.parse(page.json) as { name: string }[]).map((r) => r.name);
            expect(page.total, q).toBe(either.length);
            expect(new Set(found), q).toEqual(new Set(either));
            // The name matches come first, all of them.
            expect(new Set(found.slice(0, byName.size)), q).toEqual(byName);
            // Pages of 3 add up to the long page.
            const paged: string[] = [];
            for (let offset = 0; offset < found.length; offset += 3) {
              const part = snapshot.searchJson(q, 3, { in: ['name', 'description'], offset });
              paged.push(...(JSON.parse(part.json) as { name: string }[]).map((r) => r.name));
            }
            expect(paged, q).toEqual(found);
          }
        } finally {
          snapshot.close();
        }
      }),
      { numRuns: 30 },
    );
  });
});
