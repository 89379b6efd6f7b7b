/**
 * Issue 43: the readings of a query (`src/search/readings.ts`) on a small dataset. Words that say only what
 * every record is (`mcp`, `server`) or join a sentence (`and`) need not match when other words are given and
 * the query as written matches nothing; a plural matches its singular as a whole word; `official` asks for
 * the publisher's own server. Every word that says which server is meant still has to match (decisions §4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryEngine } from '../../src/query/types.js';
import { contentWords, domainReading, officialReading, queryReadings } from '../../src/search/readings.js';
import { NAMESPACE_MARK, ownerKeys } from '../../src/search/words.js';
import type { ObjectEngine } from '../support/engine.js';
import { loadObjectEngine } from '../support/engine.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const names: [string, number][] = [
  ['io.github.dynatrace-oss/dynatrace-mcp', 70],
  ['io.github.alice/dynatrace-logs', 80],
  ['com.acme/mcp-server', 60],
  ['com.acme/mcp', 50],
  ['io.github.bob/github-pr-issue-analyser', 40],
  ['io.github.bob/profile', 90],
  ['io.github.github/github-mcp-server', 85],
  ['io.github.carol/github-tools', 95],
  ['io.github.dave/toolkit', 30],
  ['io.github.erin/tool', 35],
  ['io.github.frank/ros_2-relay', 20],
  ['io.github.gina/ros-bridge', 99],
];

let engine: QueryEngine & ObjectEngine;
const namesOf = (q: string) => engine.search(q, 50).items.map((record) => record.name);

beforeAll(async () => {
  engine = await loadObjectEngine(
    await buildTestSnapshot(names.map(([name, trust_score]) => makeRecord({ name, trust_score }))),
  );
});

afterAll(() => engine.close());

describe('words that do not say which server is meant', () => {
  it('mcp and server need not match next to a word that does', () => {
    expect(namesOf('dynatrace mcp server')).toEqual([
      'io.github.dynatrace-oss/dynatrace-mcp',
      'io.github.alice/dynatrace-logs',
    ]);
    expect(engine.search('dynatrace-mcp-server', 20).total).toBe(2);
  });

  it('alone or with only each other they are the content, and must match', () => {
    expect(new Set(namesOf('mcp server'))).toEqual(
      new Set(['com.acme/mcp-server', 'io.github.github/github-mcp-server']),
    );
    expect(namesOf('mcp')[0]).toBe('com.acme/mcp');
  });

  it('are left out only when the query as written matches nothing (decisions §4: all the words)', () => {
    // `dynatrace mcp` matches a server as written, so the server named only `dynatrace` is not added.
    expect(namesOf('dynatrace mcp')).toEqual(['io.github.dynatrace-oss/dynatrace-mcp']);
    expect(namesOf('github mcp server')).toEqual(['io.github.github/github-mcp-server']);
  });

  it('a word that says which server is meant still has to match', () => {
    expect(engine.search('dynatrace kubernetes mcp server', 20).total).toBe(0);
  });

  it('joining words of a sentence need not match: and, the, for', () => {
    expect(namesOf('the analyser for github prs and issues')).toEqual(['io.github.bob/github-pr-issue-analyser']);
  });
});

describe('plurals', () => {
  it('a plural matches its singular as a whole word, never as a beginning', () => {
    expect(namesOf('prs')).toEqual(['io.github.bob/github-pr-issue-analyser']);
    // `tools` matches `tools` and `tool`, not `toolkit` through its singular.
    expect(new Set(namesOf('tools'))).toEqual(new Set(['io.github.carol/github-tools', 'io.github.erin/tool']));
  });
});

describe('official', () => {
  it('asks for the publisher’s own server', () => {
    expect(namesOf('github official')).toEqual(['io.github.github/github-mcp-server']);
    expect(namesOf('official GitHub MCP server')).toEqual(['io.github.github/github-mcp-server']);
  });

  it('reads a word ending in a number at that seam: ros2 is the ros_2 a name writes, before a typo of ros', () => {
    expect(namesOf('ros2')).toEqual(['io.github.frank/ros_2-relay', 'io.github.gina/ros-bridge']);
  });

  it('finds nothing for a publisher with no server of its own', () => {
    expect(engine.search('dynatrace official', 20).total).toBe(0);
  });
});

describe('how a query is read', () => {
  it('names the content words', () => {
    expect(contentWords('Dynatrace MCP Server')).toEqual(['dynatrace']);
    expect(contentWords('mcp server')).toEqual(['mcp', 'server']);
    expect(contentWords('GitHub Official')).toEqual(['git', 'hub']);
  });

  it('reads a query as compounds with the same words, and without its optional words as a last resort', () => {
    const known = new Set(['github', 'filesystem']);
    expect(queryReadings('git hub mcp', (word) => known.has(word))).toEqual({
      sameWords: ['github mcp'],
      fewerWords: ['git hub', 'github'],
    });
    expect(queryReadings('file system server', (word) => known.has(word))).toEqual({
      sameWords: ['filesystem server'],
      fewerWords: ['file system', 'filesystem'],
    });
    expect(queryReadings('io.github mcp', () => true)).toEqual({ sameWords: [], fewerWords: [] });
  });

  it('joins a run of up to four neighbouring words, pairs first', () => {
    const known = new Set(['textarttools', 'arttools', 'abcd']);
    expect(queryReadings('TextArtTools', (word) => known.has(word)).sameWords).toEqual([
      'text arttools',
      'textarttools',
    ]);
    // Five words never join into one.
    expect(queryReadings('a b c d e', (word) => word === 'abcde').sameWords).toEqual([]);
    expect(queryReadings('a b c d e', (word) => known.has(word)).sameWords).toEqual(['abcd e']);
  });

  it('cuts a word ending in a number where its letters end, however short the parts', () => {
    const known = new Set(['ros', '2', 'web', '3', 's']);
    expect(queryReadings('ros2 bridge', (word) => known.has(word)).sameWords).toEqual(['ros 2 bridge']);
    expect(queryReadings('web3', (word) => known.has(word)).sameWords).toEqual(['web 3']);
    // A single letter is no word of its own, and a number inside a word is no seam.
    expect(queryReadings('s3', (word) => known.has(word)).sameWords).toEqual([]);
    expect(queryReadings('k8s', () => true).sameWords).toEqual([]);
  });

  it('files a server under its publisher: the owner, and a domain’s registrable name', () => {
    const keys = (namespace: string) => ownerKeys(namespace).map((key) => key.replace(NAMESPACE_MARK, ''));
    expect(keys('io.github.Dave-London')).toEqual(['davelondon']);
    expect(keys('io.github.github')).toEqual(['github']);
    expect(keys('com.microsoft')).toEqual(['microsoft']);
    expect(keys('com.figma.mcp')).toEqual(['figmamcp', 'figma']);
    expect(keys('uk.co.acme.mcp')).toEqual(['coacmemcp', 'acme']);
    // A host's or service's label is no publisher.
    expect(keys('aws.api.us-east-1.ecs-mcp')).toEqual(['apiuseast1ecsmcp']);
    expect(keys('com.www.example')).toEqual(['wwwexample']);
  });

  it('reads a publisher’s domain written as words as its namespace', () => {
    expect(domainReading('Norman Finance')).toEqual({ reading: 'finance.norman', publisher: 'norman' });
    expect(domainReading('norman finance mcp server')).toEqual({ reading: 'finance.norman', publisher: 'norman' });
    expect(domainReading('norman')).toBeUndefined();
    expect(domainReading('norman.finance')).toBeUndefined();
  });

  it('answers official only with other words', () => {
    expect(officialReading('GitHub Official')).toBe('git hub');
    expect(officialReading('official')).toBeUndefined();
    expect(officialReading('github mcp')).toBeUndefined();
  });
});
