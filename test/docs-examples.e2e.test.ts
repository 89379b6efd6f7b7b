/**
 * The README and docs examples are real: every `curl` example of README.md and docs/*.md, read from the
 * Markdown (format: test/support/doc-examples.ts), is sent to `npm start`'s server on the committed dataset,
 * and its answer must be what the document shows (status line, the headers shown, the body), with only
 * what changes on every run compared by its form. The README's first-run output is `npm start`'s own, run
 * in a fresh directory holding only the dataset and the site. Editing an example without its output fails.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { DEFAULT_REGISTRY_DATA } from '../src/registry/files.js';
import { DEFAULT_CATALOG_DATA } from '../src/format/paths.js';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../src/snapshot-build/build.js';
import { REPO, type ServerProcess, startServer } from './e2e/process.js';
import { clockDelta, compareHeader, compareJson, steadyOutput, TRANSPORT_HEADERS } from './support/doc-compare.js';
import {
  curlCount,
  type Example,
  examplesOf,
  fences,
  nodeVersionClaims,
  nodeVersionPhrase,
  parseCurl,
  routeCountClaims,
} from './support/doc-examples.js';
import { ROUTES } from '../src/api/routes.js';

const FILES = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const TEXT = new Map(FILES.map((file) => [file, readFileSync(path.join(REPO, file), 'utf8')]));
const EXAMPLES = FILES.flatMap((file) => examplesOf(file, TEXT.get(file) ?? ''));
const KEY = 'docs-examples-key-0123456789abcdef';

interface Answer {
  status: number;
  reason: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(base: string, example: Example, key: string): Promise<Answer> {
  const request = parseCurl(example.command, { KEY: key, BASE: base });
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: url.hostname, port: url.port, path: request.path, method: request.method, headers: request.headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            reason: response.statusMessage ?? '',
            headers: response.headers,
            body,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** Every difference between what `example` shows and `answer`. */
function differences(example: Example, answer: Answer): string[] {
  const shown = example.shown;
  if (shown === undefined) return answer.status >= 200 && answer.status < 300 ? [] : [`status ${answer.status}`];
  const problems: string[] = [];
  const include = parseCurl(example.command, { BASE: 'http://localhost', KEY: '' }).include;
  if (shown.status !== undefined) {
    if (!include) problems.push('shows a status line, but the command has no -i');
    if (shown.status.code !== answer.status || shown.status.reason !== answer.reason)
      problems.push(`status ${answer.status} ${answer.reason}, shown ${shown.status.code} ${shown.status.reason}`);
    for (const [name, value] of shown.headers ?? []) {
      const actual = answer.headers[name];
      const text = Array.isArray(actual) ? actual.join(', ') : actual;
      problems.push(...compareHeader(name, value, text, clockDelta(shown.body, answer.body)));
    }
    const unshown = Object.keys(answer.headers).filter(
      (name) => !TRANSPORT_HEADERS.has(name) && !(shown.headers ?? []).some(([shownName]) => shownName === name),
    );
    if (unshown.length > 0) problems.push(`headers sent but not shown: ${unshown.join(', ')}`);
  } else if (include) problems.push('the command has -i, but no status line is shown');
  let shownJson: unknown;
  try {
    shownJson = JSON.parse(shown.body);
  } catch {
    if (shown.body !== answer.body.trim()) problems.push(`body ${answer.body}, shown ${shown.body}`);
    return problems;
  }
  if (shown.status === undefined) {
    const status = (shownJson as { error?: { status?: number } }).error?.status ?? 200;
    if (answer.status !== status) problems.push(`status ${answer.status}, the body shown implies ${status}`);
  }
  try {
    problems.push(...compareJson(shownJson, JSON.parse(answer.body)));
  } catch {
    problems.push(`the body is not JSON: ${answer.body.slice(0, 200)}`);
  }
  return problems;
}

/**
 * Documents written by this project (the specification and the given decisions are quoted verbatim and say
 * what they say) and the site's page: the texts whose facts about the service must be the service's.
 */
const OWN_TEXTS = [...FILES.filter((file) => !/docs\/(specification|decisions)\.md$/.test(file)), 'public/index.html'];

describe('the facts the documents state about the service', () => {
  const text = (file: string) => TEXT.get(file) ?? readFileSync(path.join(REPO, file), 'utf8');

  it('gives the number of routes as the route table does, wherever a count of routes is said', () => {
    const wrong = OWN_TEXTS.flatMap((file) =>
      routeCountClaims(text(file))
        .filter((claim) => claim.count !== ROUTES.length)
        .map((claim) => `${file}: "${claim.words}" (the route table has ${ROUTES.length})`),
    );
    expect(wrong).toEqual([]);
    expect(OWN_TEXTS.flatMap((file) => routeCountClaims(text(file))).length).toBeGreaterThan(0);
  });

  it("gives the Node version one way: package.json's engines range, in the same words everywhere", () => {
    const engines = (JSON.parse(text('package.json')) as { engines: { node: string } }).engines.node;
    const phrase = nodeVersionPhrase(engines);
    const claims = OWN_TEXTS.flatMap((file) => nodeVersionClaims(text(file)).map((claim) => ({ file, claim })));
    expect(claims.filter(({ claim }) => claim !== phrase).map(({ file, claim }) => `${file}: ${claim}`)).toEqual([]);
    for (const file of ['README.md', 'public/index.html']) expect(nodeVersionClaims(text(file))).toContain(phrase);
  });

  it('finds a stale count of routes and a second way of saying the Node version (the checks above can fail)', () => {
    expect(routeCountClaims('Five routes, all GET; the 17 endpoints; seventeen API paths; two answer POST')).toEqual([
      { count: 5, words: 'Five routes' },
      { count: 17, words: '17 endpoints' },
      { count: 17, words: 'seventeen API paths' },
    ]);
    expect(nodeVersionClaims('Node 20+, Node 20.19 or later, Node 20.19 to 22, measured on Node 20.20')).toEqual([
      'Node 20+',
      'Node 20.19 or later',
      'Node 20.19 to 22',
    ]);
    expect(nodeVersionPhrase('>=20.19 <23')).toBe('Node 20.19 to 22');
  });
});

describe('the comparison of a documented example with an answer (it can fail)', () => {
  it('reads a curl example and its answer from Markdown, with the server settings of its fence', () => {
    const markdown = [
      '```sh env=FREE_DAILY_LIMIT=1 nth=2',
      'curl -i $BASE/v1/stats',
      '```',
      '',
      '```',
      'HTTP/1.1 429 Too Many Requests',
      'retry-after: 5',
      '',
      '{"a": 1}',
      '```',
    ].join('\n');
    expect(examplesOf('x.md', markdown)).toEqual([
      {
        where: 'x.md:2',
        command: 'curl -i $BASE/v1/stats',
        env: { FREE_DAILY_LIMIT: '1' },
        nth: 2,
        shown: {
          status: { code: 429, reason: 'Too Many Requests' },
          headers: [['retry-after', '5']],
          body: '{"a": 1}',
        },
      },
    ]);
  });

  it('tells a changed value, a member not shown and a value of the wrong form', () => {
    expect(compareJson({ total: 44 }, { total: 45 })).toEqual(['$.total: got 45, shown 44']);
    expect(compareJson({ a: 1 }, { a: 1, b: 2 })).toEqual(['$: the answer also has b']);
    expect(compareJson({ a: 1, '...': '...' }, { a: 1, b: 2 })).toEqual([]);
    expect(compareJson({ snapshot_id: 'fc0c7acc761ac5d0bde2' }, { snapshot_id: '9ca9dea96f6849813863' })).toEqual([]);
    expect(compareJson({ snapshot_id: 'fc0c7acc761ac5d0bde2' }, { snapshot_id: 'x' })).toHaveLength(1);
    expect(compareHeader('etag', 'W/"OBNcUjpeAABnlzAodIZoDB"', 'W/"9ca9dea96f68-1wfown0"')).toHaveLength(1);
    expect(compareHeader('etag', 'W/"fc0c7acc761a-abc"', 'W/"9ca9dea96f68-1wfown0"')).toEqual([]);
    expect(compareHeader('content-length', '1942', '2096')).toHaveLength(1);
  });
});

describe('the examples of README.md and docs/*.md', { timeout: 60_000 }, () => {
  let work: string;
  let snapshotDir: string;
  let fresh: ServerProcess;
  let freshKey = '';
  const servers = new Map<string, Promise<ServerProcess>>();

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mts-docs-'));
    // A fresh clone as far as `npm start` can tell: the dataset and the site, nothing built, no key.
    const clone = path.join(work, 'clone');
    await mkdir(path.join(clone, 'data'), { recursive: true });
    for (const name of await readdir(path.join(REPO, 'data')))
      if (name.endsWith('.json')) await copyFile(path.join(REPO, 'data', name), path.join(clone, 'data', name));
    await mkdir(path.join(clone, 'data', 'registry'));
    await copyFile(path.join(REPO, DEFAULT_REGISTRY_DATA), path.join(clone, DEFAULT_REGISTRY_DATA));
    await mkdir(path.join(clone, 'data', 'catalog'));
    await copyFile(path.join(REPO, DEFAULT_CATALOG_DATA), path.join(clone, DEFAULT_CATALOG_DATA));
    await symlink(path.join(REPO, 'public'), path.join(clone, 'public'));
    snapshotDir = path.join(work, 'snapshot');
    [fresh] = await Promise.all([
      startServer({}, clone, 120_000),
      buildSnapshot({
        input: path.join(REPO, 'data', '*.json'),
        out: snapshotDir,
        registry: path.join(REPO, DEFAULT_REGISTRY_DATA),
        catalog: path.join(REPO, DEFAULT_CATALOG_DATA),
      }),
    ]);
    freshKey = /API key: (mts_\S+)/.exec(fresh.stdout())?.[1] ?? '';
  }, 180_000);

  afterAll(async () => {
    await fresh?.stop();
    for (const server of servers.values()) await (await server).stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** The server of a document and an environment: a fresh one for each, so each answer is its first. */
  function serverFor(example: Example): Promise<ServerProcess> {
    const id = `${example.where.split(':')[0]} ${JSON.stringify(example.env)}`;
    let server = servers.get(id);
    if (server === undefined) {
      server = startServer({
        SNAPSHOT_DIR: snapshotDir,
        KEYS_FILE: path.join(work, `keys-${servers.size}.json`),
        API_KEYS: KEY,
        ...example.env,
      });
      servers.set(id, server);
    }
    return server;
  }

  it('shows what `npm start` prints on its first run, line by line', () => {
    const block = fences(TEXT.get('README.md') ?? '').find((fence) => fence.text.includes('Listening on'));
    expect(block, 'README.md shows the output of npm start').toBeDefined();
    const printed = fresh.stdout().slice(0, fresh.stdout().indexOf('\n', fresh.stdout().indexOf('Listening on')));
    expect(steadyOutput(block?.text ?? '')).toBe(steadyOutput(printed));
  });

  it('finds every curl command of the documents as an example', () => {
    expect(EXAMPLES.length).toBe(FILES.reduce((sum, file) => sum + curlCount(TEXT.get(file) ?? ''), 0));
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(15);
  });

  for (const example of EXAMPLES) {
    it(`${example.where}: ${example.command.split('\n')[0]}`, async () => {
      // The README's examples use the key its first run printed; the docs' a configured key.
      const readme = example.where.startsWith('README.md');
      const server = readme && Object.keys(example.env).length === 0 ? fresh : await serverFor(example);
      let answer: Answer | undefined;
      for (let i = 0; i < example.nth; i++) answer = await send(server.base, example, readme ? freshKey : KEY);
      expect(differences(example, answer!).join('\n')).toBe('');
    });
  }
});
