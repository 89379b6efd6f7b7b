/**
 * History and changes across three snapshots built in sequence with `--previous` (scores, labels and flags
 * changing between them), served through the gateway.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelForScore, type ServerRecord } from '../../src/model/schema.js';
import { loadSnapshot } from '../../src/query/open.js';
import { buildSnapshotWithDiff } from '../../src/snapshot-build/build.js';
import { harness, type Harness } from '../gateway/harness.js';
import { makeRecord } from '../support/records.js';

let work: string;
const ids: string[] = [];

const server = (name: string, score: number, flags: string[] = []): ServerRecord =>
  makeRecord({ name, trust_score: score, trust_label: labelForScore(score), flags });

const NIGHTS: ServerRecord[][] = [
  [server('io.a/one', 50), server('io.b/two', 60), server('io.c/three', 40)],
  [server('io.a/one', 70), server('io.b/two', 60, ['NO_SOURCE']), server('io.d/four', 45)],
  [server('io.a/one', 70), server('io.b/two', 60), server('io.d/four', 30)],
];

async function night(index: number, historyLength?: number): Promise<string> {
  const input = path.join(work, `night-${index}-${historyLength ?? 'default'}.json`);
  await writeFile(input, JSON.stringify(NIGHTS[index]));
  const out = path.join(work, `snapshot-${index}-${historyLength ?? 'default'}`);
  const previous = index === 0 ? undefined : path.join(work, `snapshot-${index - 1}-${historyLength ?? 'default'}`);
  const { manifest } = await buildSnapshotWithDiff({
    input,
    out,
    previous,
    force: true,
    // The nights set their scores by hand: the history of exactly those scores is what is tested.
    method: 'msc-7bc729d',
    historyLength,
    now: new Date(Date.UTC(2026, 2, 1 + index)),
  });
  return manifest.snapshot_id;
}

let h: Harness;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mts-history-'));
  for (let index = 0; index < NIGHTS.length; index++) ids.push(await night(index));
  h = await harness({ engine: await loadSnapshot(path.join(work, 'snapshot-2-default')) });
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

const json = async <T>(response: Response) => (await response.json()) as T;
type Point = { snapshot_id: string; trust_score?: number; flags?: string[]; removed?: true };

describe('score history', () => {
  it('holds the points where something changed, newest first', async () => {
    const one = await json<{ data: Point[] }>(await h.call('/v1/servers/io.a/one/history'));
    expect(one.data.map((point) => [point.snapshot_id, point.trust_score])).toEqual([
      [ids[1], 70],
      [ids[0], 50],
    ]);
    const two = await json<{ data: Point[] }>(await h.call('/v1/servers/IO.B/TWO/history'));
    expect(two.data.map((point) => point.flags)).toEqual([[], ['NO_SOURCE'], []]);
  });

  it('answers 404 as Get Server for a server that is not served any more', async () => {
    expect((await h.call('/v1/servers/io.c/three/history')).status).toBe(404);
  });
});

describe('changes', () => {
  type Change = {
    name: string;
    added: boolean;
    removed: boolean;
    trust_score: unknown;
    trust_label: unknown;
    flags_raised: string[];
    flags_cleared: string[];
    tools_changed: { from: string; to: string } | null;
    advisories_added: string[];
  };

  it('answers what changed since the first snapshot: added, removed, score and label, net flags', async () => {
    const body = await json<{ data: Change[]; meta: { total: number; since: string } }>(
      await h.call(`/v1/changes?since=${ids[0]}`),
    );
    expect(body.meta).toMatchObject({ total: 3, since: ids[0] });
    expect(body.data).toEqual([
      {
        name: 'io.a/one',
        added: false,
        removed: false,
        trust_score: { from: 50, to: 70 },
        trust_label: { from: 'Low Trust', to: 'Moderate Trust' },
        flags_raised: [],
        flags_cleared: [],
        tools_changed: null,
        advisories_added: [],
      },
      {
        name: 'io.c/three',
        added: false,
        removed: true,
        trust_score: null,
        trust_label: null,
        flags_raised: [],
        flags_cleared: [],
        tools_changed: null,
        advisories_added: [],
      },
      {
        name: 'io.d/four',
        added: true,
        removed: false,
        trust_score: null,
        trust_label: null,
        flags_raised: [],
        flags_cleared: [],
        tools_changed: null,
        advisories_added: [],
      },
    ]);
  });

  it('answers what changed since the second: a flag cleared and a score moved, paged', async () => {
    const body = await json<{ data: Change[]; meta: { total: number } }>(
      await h.call(`/v1/changes?since=${ids[1]}&limit=1&offset=1`),
    );
    expect(body.meta.total).toBe(2);
    expect(body.data).toEqual([
      expect.objectContaining({
        name: 'io.d/four',
        trust_score: { from: 45, to: 30 },
        trust_label: { from: 'Low Trust', to: 'Very Low Trust' },
      }),
    ]);
    const first = await json<{ data: Change[] }>(await h.call(`/v1/changes?since=${ids[1]}&limit=1`));
    expect(first.data[0]).toMatchObject({ name: 'io.b/two', flags_cleared: ['NO_SOURCE'], flags_raised: [] });
  });

  it('refuses an unknown or too old since with a 400 that names the oldest snapshot kept', async () => {
    const response = await h.call('/v1/changes?since=00000000000000000000');
    expect(response.status).toBe(400);
    expect((await json<{ error: { message: string } }>(response)).error.message).toContain(
      `the oldest kept is ${ids[0]}`,
    );
    expect((await h.call('/v1/changes')).status).toBe(400);
  });

  it('keeps only the last N snapshots, with each server\u2019s state from before the window', async () => {
    await night(0, 2);
    await night(1, 2);
    await night(2, 2);
    const short = await harness({ engine: await loadSnapshot(path.join(work, 'snapshot-2-2')) });
    const refused = await short.call(`/v1/changes?since=${ids[0]}`);
    expect(refused.status).toBe(400);
    expect((await json<{ error: { message: string } }>(refused)).error.message).toContain(
      `the oldest kept is ${ids[1]}`,
    );
    const one = await json<{ data: Point[] }>(await short.call('/v1/servers/io.a/one/history'));
    expect(one.data.map((point) => point.trust_score)).toEqual([70, 50]);
  });
});

/**
 * Parse a feed with Python's XML parser and check the Atom rules RFC 4287 sets (section 4.1): the feed and
 * every entry have an id (an absolute IRI, unique), a title and an updated date-time; the feed an author and
 * a self link; every entry an alternate link. Returns the entries' titles and links.
 */
function atom(text: string): { titles: string[]; links: string[]; feedTitle: string } {
  const script = `
import json, re, sys, xml.etree.ElementTree as ET
A = '{http://www.w3.org/2005/Atom}'
feed = ET.fromstring(sys.stdin.read().encode())
assert feed.tag == A + 'feed', feed.tag
date = re.compile(r'^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$')
def check(node, what):
    for tag in ('id', 'title', 'updated'):
        assert node.find(A + tag) is not None and node.find(A + tag).text, what + ' lacks ' + tag
    assert re.match(r'^[a-z][a-z0-9+.-]*:', node.find(A + 'id').text), what + ' id is not an absolute IRI'
    assert date.match(node.find(A + 'updated').text), what + ' updated is not a date-time'
check(feed, 'feed')
assert feed.find(A + 'author/' + A + 'name') is not None, 'feed lacks an author'
assert any(l.get('rel') == 'self' for l in feed.findall(A + 'link')), 'feed lacks a self link'
ids, titles, links = set(), [], []
for entry in feed.findall(A + 'entry'):
    check(entry, 'entry')
    ident = entry.find(A + 'id').text
    assert ident not in ids, 'duplicate id ' + ident
    ids.add(ident)
    alternate = [l.get('href') for l in entry.findall(A + 'link') if l.get('rel') == 'alternate']
    assert alternate, 'entry lacks an alternate link'
    titles.append(entry.find(A + 'title').text)
    links.append(alternate[0])
print(json.dumps({'titles': titles, 'links': links, 'feedTitle': feed.find(A + 'title').text}))
`;
  const result = spawnSync('python3', ['-c', script], { input: text, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { titles: string[]; links: string[]; feedTitle: string };
}

describe('Atom feeds', () => {
  it('gives one entry per republished snapshot, summarising its changes, linking the servers', async () => {
    const response = await h.call('/feeds/changes.atom', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=3600');
    const text = await response.text();
    const feed = atom(text);
    expect(feed.titles).toEqual([
      `Snapshot ${ids[2]!.slice(0, 12)}: 2 servers changed`,
      `Snapshot ${ids[1]!.slice(0, 12)}: 4 servers changed`,
    ]);
    expect(feed.links).toEqual([`/v1/changes?since=${ids[1]}`, `/v1/changes?since=${ids[0]}`]);
    expect(text).toContain('&#60;a href=&#34;/#server=io.d%2Ffour&#34;&#62;io.d/four&#60;/a&#62;: score 45 → 30');
  });

  it('gives one entry per change of a server, linking to its page on the site', async () => {
    const feed = atom(await (await h.call('/feeds/servers/io.a/one.atom', { key: null })).text());
    expect(feed.feedTitle).toBe('MCP trust score of io.a/one');
    expect(feed.titles).toEqual(['io.a/one: 70 · Moderate Trust', 'io.a/one: 50 · Low Trust']);
    expect(new Set(feed.links)).toEqual(new Set(['/#server=io.a%2Fone']));
  });

  it('is never counted, and escapes what it quotes', async () => {
    const counted = await harness({
      engine: await loadSnapshot(path.join(work, 'snapshot-2-default')),
      config: { freeDailyLimit: 3 },
    });
    for (let i = 0; i < 5; i++) {
      expect((await counted.call('/feeds/changes.atom')).headers.get('x-ratelimit-remaining')).toBe('3');
    }
    expect((await h.call('/feeds/servers/io.nobody/x.atom', { key: null })).status).toBe(404);
  });
});
