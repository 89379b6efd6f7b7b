/**
 * End to end: the real API server (`node dist/serve.mjs`, as `npm start` runs it) on a free port with a known key, and the MCP wrapper
 * started through its `bin` launcher as a child process, spoken to over stdio by the SDK's own `Client`.
 * Every tool's answer is compared with the API's own answer to the same question, fetched directly.
 */
import { flagDefinition } from '../../src/model/vocabulary.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, type ServerRecord } from '../../src/model/schema.js';
import { buildTestSnapshot, makeRecord, SIGNALS } from '../support/records.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WRAPPER_BIN = path.join(REPO_ROOT, 'bin', 'mcp-trust-score.js');
const KEY = 'mcp-e2e-key-7f3a9c';
const START_TIMEOUT_MS = 30_000;

const RECORDS: ServerRecord[] = [
  makeRecord({
    name: 'io.github.acme/postgres-mcp',
    trust_score: 86,
    scores: { provenance: 90, maintenance: 80, popularity: 70, permissions: 95 },
    badges: [{ id: 'license', label: 'License', evidence: 'A licence the scoring pipeline recognises' }],
    verified_publisher: true,
    targets: ['PostgreSQL'],
    install: {
      repo_url: 'https://github.com/acme/postgres-mcp',
      version: '1.4.2',
      package_types: ['npm'],
      transport_types: ['stdio'],
    },
    signals: SIGNALS,
    packages: [{ registry_type: 'npm', identifier: '@acme/postgres-mcp', version: '1.4.2' }],
    remotes: [],
  }),
  makeRecord({
    name: 'io.github.acme/postgres-admin',
    trust_score: 47,
    targets: ['PostgreSQL'],
    // Publishes the same package: a lookup by package finds both, the more trusted first.
    packages: [{ registry_type: 'npm', identifier: '@acme/postgres-mcp', version: '1.0.0' }],
    remotes: [{ type: 'streamable-http', url: 'https://pg-admin.acme.example/mcp' }],
  }),
  makeRecord({
    name: 'com.example/slack-bridge',
    trust_score: 63,
    flags: ['SENSITIVE_CRED_REQUEST'],
    targets: ['Slack'],
  }),
  makeRecord({
    name: 'dev.shady/wallet-helper',
    trust_score: 9,
    flags: ['NO_SOURCE', 'DEAD_ENTRY', 'SENSITIVE_CRED_REQUEST'],
  }),
  makeRecord({ name: 'org.sample/weather', trust_score: 31, flags: ['NO_SOURCE'] }),
  makeRecord({ name: 'org.sample/calendar', trust_score: 55, description: 'Book meetings and find free time' }),
  makeRecord({ name: 'com.microsoft/azure-tools', trust_score: 81, verified_publisher: true }),
];

/** A running child process we started, and how to stop it. */
interface Started {
  child: ChildProcess;
  output: () => string;
}

const started: ChildProcess[] = [];

/** A TCP port nothing listens on right now (bound, then released). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `npm start`'s entry point, `node dist/serve.mjs` (compiled by the e2e project's global setup), with `env`, on a
 * system-chosen port; resolves with its base URL once it listens.
 */
async function startApi(env: Record<string, string>): Promise<Started & { base: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist', 'serve.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the API did not start:\n${output}`)), START_TIMEOUT_MS);
    const check = () => {
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited with ${code} before listening:\n${output}`));
    });
  });
  return { child, output: () => output, base };
}

/** The wrapper, through its `bin` launcher, from a directory other than the repository's. */
async function connectWrapper(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [WRAPPER_BIN],
    env,
    cwd: tmpdir(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-e2e-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

const clients: Client[] = [];

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

function textOf(result: ToolResult): string {
  const content = result.content as { type: string; text?: string }[];
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('\n');
}

describe('the MCP wrapper against the real API', () => {
  let dir: string;
  let api: Started & { base: string };
  let apiUrl: string;
  let client: Client;
  let wrapperStderr: () => string;

  /** The API's own answer, fetched directly with the same key. */
  async function raw(pathAndQuery: string): Promise<{ data: unknown; meta: Record<string, unknown> }> {
    const response = await fetch(`${apiUrl}${pathAndQuery}`, { headers: { 'X-API-Key': KEY } });
    expect(response.status).toBe(200);
    return (await response.json()) as { data: unknown; meta: Record<string, unknown> };
  }

  /** The API's answer as the tools pass it on: every record without its publisher's description. */
  async function direct(pathAndQuery: string): Promise<{ data: unknown; meta: Record<string, unknown> }> {
    const answer = await raw(pathAndQuery);
    const strip = (record: object) =>
      Object.fromEntries(Object.entries(record).filter(([name]) => name !== 'description'));
    const data = Array.isArray(answer.data)
      ? (answer.data as object[]).map(strip)
      : answer.data !== null && typeof answer.data === 'object' && 'name' in answer.data
        ? strip(answer.data)
        : answer.data;
    return { ...answer, data };
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mts-mcp-e2e-'));
    api = await startApi({
      SNAPSHOT_DIR: await buildTestSnapshot(RECORDS),
      KEYS_FILE: path.join(dir, 'keys.json'),
      API_KEYS: KEY,
      FREE_DAILY_LIMIT: '1000',
    });
    apiUrl = `${api.base}/v1`;
    const wrapper = await connectWrapper({ TRUST_API_KEY: KEY, TRUST_API_URL: apiUrl });
    client = wrapper.client;
    wrapperStderr = wrapper.stderr;
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((each) => each.close()));
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(
      started.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
          }),
      ),
    );
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists the four tools, with the API’s own bounds in their input schemas and an output schema each', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['check_server_trust', 'get_ecosystem_stats', 'list_servers', 'search_servers'].sort(),
    );
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    type Props = Record<
      string,
      { minimum?: number; maximum?: number; minLength?: number; enum?: string[]; description?: string }
    >;
    const list = byName.get('list_servers')?.inputSchema.properties as Props;
    expect(list.limit).toMatchObject({ minimum: LIMITS.list.min, maximum: LIMITS.list.max });
    expect(list.limit?.maximum).toBe(200);
    expect(list.min_score).toMatchObject({ minimum: 0, maximum: 100 });
    expect(list.sort?.enum).toContain('scored_at');
    expect(Object.keys(list).sort()).toEqual(
      ['flags', 'limit', 'min_score', 'namespace', 'offset', 'order', 'sort', 'target'].sort(),
    );
    const search = byName.get('search_servers')?.inputSchema;
    expect(search?.required).toEqual(['query']);
    expect((search?.properties as Props).query?.minLength).toBe(LIMITS.minQuery);
    expect((search?.properties as Props).limit).toMatchObject({ minimum: 1, maximum: 200 });

    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      for (const [name, property] of Object.entries((tool.inputSchema.properties ?? {}) as Props)) {
        expect(property.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
    expect(byName.get('check_server_trust')?.description).toMatch(/High Trust 80-100.*Unknown\/Suspicious 0-19/);
    expect(byName.get('check_server_trust')?.description).toMatch(/NO_SOURCE.*DEAD_ENTRY.*SENSITIVE_CRED_REQUEST/);
    expect(byName.get('check_server_trust')?.annotations?.readOnlyHint).toBe(true);
  });

  it('check_server_trust returns the API’s record as structured content and a readable summary', async () => {
    const result = await client.callTool({
      name: 'check_server_trust',
      arguments: { name: 'IO.GITHUB.ACME/Postgres-MCP' },
    });
    const expected = (await direct('/servers/io.github.acme/postgres-mcp')).data as ServerRecord;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(expected);
    expect(expected.signals).toEqual(SIGNALS);
    const text = textOf(result);
    expect(text).toContain(
      `io.github.acme/postgres-mcp: trust score 86/100, High Trust, scored on ${expected.scored_at.slice(0, 10)}.`,
    );
    expect(text).toContain('provenance 90, maintenance 80, popularity 70, permissions 95');
    expect(text).toContain('https://github.com/acme/postgres-mcp');
    expect(text).toContain('Verified publisher: yes');
  });

  it('check_server_trust finds a server by package or URL and says what the identifier resolved to', async () => {
    const byPackage = await client.callTool({
      name: 'check_server_trust',
      arguments: { package: 'npm:@acme/postgres-mcp@2.0.0' },
    });
    expect(byPackage.isError).toBeFalsy();
    expect((byPackage.structuredContent as { name: string }).name).toBe('io.github.acme/postgres-mcp');
    // The record has signals: the text says why its score is what it is.
    expect(textOf(byPackage)).toMatch(/\nWhy: .*(Trust score|could not be reproduced)/);
    expect(textOf(byPackage).split('\n')[0]).toBe(
      'package npm:@acme/postgres-mcp@2.0.0 resolves to io.github.acme/postgres-mcp (also published by: io.github.acme/postgres-admin).',
    );
    const byUrl = await client.callTool({
      name: 'check_server_trust',
      arguments: { url: 'https://PG-ADMIN.acme.example/mcp/' },
    });
    expect((byUrl.structuredContent as { name: string }).name).toBe('io.github.acme/postgres-admin');

    const unknown = await client.callTool({
      name: 'check_server_trust',
      arguments: { package: 'pypi:nobody-has-this' },
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(
      /No scored server is known by package pypi:nobody-has-this\. .*call search_servers/,
    );

    const both = await client.callTool({
      name: 'check_server_trust',
      arguments: { name: 'io.github.acme/postgres-mcp', package: 'npm:x' },
    });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toMatch(/exactly one of name, package, purl, url or repo/);
  });

  it('check_server_trust takes a package URL, compared by its ecosystem, and names what is wrong in a bad one', async () => {
    const byPurl = await client.callTool({
      name: 'check_server_trust',
      arguments: { purl: 'pkg:npm/%40acme/postgres-mcp@2.0.0' },
    });
    expect(byPurl.isError, textOf(byPurl)).toBeFalsy();
    expect((byPurl.structuredContent as { name: string }).name).toBe('io.github.acme/postgres-mcp');
    expect(textOf(byPurl).split('\n')[0]).toMatch(
      /^purl pkg:npm\/%40acme\/postgres-mcp@2\.0\.0 resolves to io\.github\.acme\/postgres-mcp/,
    );
    const malformed = await client.callTool({ name: 'check_server_trust', arguments: { purl: 'pkg:npm/' } });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).toMatch(/purl is not a valid package URL \("name" is a required component\)/);
  });

  it('check_server_trust explains the flags of a flagged server in words', async () => {
    const result = await client.callTool({
      name: 'check_server_trust',
      arguments: { name: 'dev.shady/wallet-helper' },
    });
    expect(result.structuredContent).toEqual((await direct('/servers/dev.shady/wallet-helper')).data);
    const text = textOf(result);
    expect(text).toContain('Unknown/Suspicious');
    // In the words of the one flag table, which the site and the OpenAPI document also use.
    for (const flag of ['NO_SOURCE', 'DEAD_ENTRY', 'SENSITIVE_CRED_REQUEST']) {
      expect(text).toContain(`${flag} (${flagDefinition(flag)?.meaning ?? 'unknown flag'})`);
    }
    expect(text).toMatch(/SENSITIVE_CRED_REQUEST \(asks for high-risk credentials/);
    // Empty install lists mean unknown (decisions, section 2), and the text must not claim "none".
    expect(text).toContain('Install: repository unknown, version unknown, packages unknown, transports unknown.');
  });

  it('search_servers returns the API’s search page', async () => {
    const result = await client.callTool({ name: 'search_servers', arguments: { query: 'postgres', limit: 5 } });
    const expected = await direct('/search?q=postgres&limit=5');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      items: expected.data,
      total: expected.meta.total,
      limit: expected.meta.limit,
      offset: expected.meta.offset,
    });
    const items = expected.data as ServerRecord[];
    expect(items.map((item) => item.name)).toEqual(['io.github.acme/postgres-mcp', 'io.github.acme/postgres-admin']);
    const text = textOf(result);
    expect(text).toContain('Search results: 2 servers match; showing 1-2.');
    expect(text).toContain(
      `- io.github.acme/postgres-admin: 47/100 Low Trust, scored on ${items[1]!.scored_at.slice(0, 10)}`,
    );
  });

  it('search_servers finds servers by what they do with in, and says so when no name matches', async () => {
    const byName = await client.callTool({ name: 'search_servers', arguments: { query: 'meetings' } });
    expect(byName.isError).toBeFalsy();
    expect(byName.structuredContent).toMatchObject({ items: [], total: 0 });
    expect(textOf(byName)).toContain(
      'No server name matches "meetings". To find servers by what they do, call search_servers again with ' +
        '{"query": "meetings", "in": "name,description"}.',
    );
    const described = await client.callTool({
      name: 'search_servers',
      arguments: { query: 'meetings', in: 'name,description', offset: 0 },
    });
    const expected = await direct('/search?q=meetings&in=name,description');
    expect(described.structuredContent).toMatchObject({ items: expected.data, total: 1, offset: 0 });
    expect((expected.data as ServerRecord[]).map((item) => item.name)).toEqual(['org.sample/calendar']);
  });

  it('never passes a publisher’s free-text description to the model', async () => {
    // The API has it; the tool results (structured or text) do not, so publisher text is never taken as ours.
    const answer = await raw('/search?q=meetings&in=name,description');
    const description = (answer.data as ServerRecord[])[0]?.description;
    expect(description).toBe('Book meetings and find free time');
    const found = await client.callTool({
      name: 'search_servers',
      arguments: { query: 'meetings', in: 'description' },
    });
    const record = await client.callTool({ name: 'check_server_trust', arguments: { name: 'org.sample/calendar' } });
    for (const result of [found, record]) {
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).not.toContain(description);
      expect(JSON.stringify(result.structuredContent)).not.toContain('"description"');
      expect(textOf(result)).not.toContain(description);
    }
    expect(JSON.stringify(found.structuredContent)).toContain('org.sample/calendar');
  });

  it('search_servers pages with offset', async () => {
    const first = await direct('/search?q=sample&limit=1&offset=1');
    const result = await client.callTool({
      name: 'search_servers',
      arguments: { query: 'sample', limit: 1, offset: 1 },
    });
    expect(result.structuredContent).toMatchObject({ items: first.data, offset: 1, total: first.meta.total });
  });

  it('search_servers applies the API’s default limit when none is given', async () => {
    const result = await client.callTool({ name: 'search_servers', arguments: { query: 'sample' } });
    const expected = await direct('/search?q=sample');
    expect(result.structuredContent).toMatchObject({ items: expected.data, limit: LIMITS.search.default });
  });

  it('list_servers passes every filter, sort and page parameter through to List Servers', async () => {
    const args = { limit: 2, offset: 1, sort: 'name', order: 'asc', min_score: 30 } as const;
    const result = await client.callTool({ name: 'list_servers', arguments: args });
    const expected = await direct('/servers?limit=2&offset=1&sort=name&order=asc&min_score=30');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      items: expected.data,
      total: expected.meta.total,
      limit: 2,
      offset: 1,
    });
    expect(expected.meta.total).toBe(6);
    const text = textOf(result);
    expect(text).toContain('Servers: 6 servers match; showing 2-3.');
    expect(text).toContain('offset 3');

    const flagged = await client.callTool({
      name: 'list_servers',
      arguments: { flags: 'sensitive_cred_request', target: 'slack', namespace: 'COM.EXAMPLE' },
    });
    const expectedFlagged = await direct('/servers?flags=sensitive_cred_request&target=slack&namespace=COM.EXAMPLE');
    expect((flagged.structuredContent as { items: unknown }).items).toEqual(expectedFlagged.data);
    expect((expectedFlagged.data as ServerRecord[]).map((item) => item.name)).toEqual(['com.example/slack-bridge']);
  });

  it('list_servers names the known values when a flag or a target matches nothing', async () => {
    const result = await client.callTool({ name: 'list_servers', arguments: { target: 'postgres', flags: 'NOPE' } });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^No server carries the flag "NOPE"; flags in use: .*SENSITIVE_CRED_REQUEST/);
    expect(text).toMatch(/No server has the target "postgres"; targets are named as platforms, e\.g\. .*PostgreSQL/);
    expect(text).toContain('no servers match');
    // A known target in another letter case is no unknown value: no hint, only the (empty) answer.
    const known = await client.callTool({ name: 'list_servers', arguments: { target: 'postgresql', min_score: 99 } });
    expect(textOf(known)).not.toContain('No server has the target');
  });

  it('list_servers with no arguments is the API’s default page', async () => {
    const result = await client.callTool({ name: 'list_servers', arguments: {} });
    const expected = await direct('/servers');
    expect(result.structuredContent).toEqual({
      items: expected.data,
      total: RECORDS.length,
      limit: LIMITS.list.default,
      offset: 0,
    });
  });

  it('get_ecosystem_stats returns the API’s statistics', async () => {
    const result = await client.callTool({ name: 'get_ecosystem_stats', arguments: {} });
    const expected = await direct('/stats');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(expected.data);
    const text = textOf(result);
    expect(text).toContain(`${RECORDS.length} scored servers`);
    expect(text).toContain('High Trust 2');
    expect(text).toContain('SENSITIVE_CRED_REQUEST 2');
  });

  it('answers an unknown server with an error that points to search_servers', async () => {
    const result = await client.callTool({
      name: 'check_server_trust',
      arguments: { name: 'io.github.acme/postgress-mcp' },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = textOf(result);
    expect(text).toContain('search_servers');
    expect(text).toContain('{"query": "postgress-mcp"}');
  });

  it('rejects a query shorter than 2 characters through the input schema, before any request', async () => {
    const result = await client.callTool({ name: 'search_servers', arguments: { query: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error.*query/s);
  });

  it('rejects a limit above the API’s 200 and a name without a namespace through the input schemas', async () => {
    const tooMany = await client.callTool({ name: 'list_servers', arguments: { limit: 201 } });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toContain('limit must be an integer from 1 to 200');
    const allowed = await client.callTool({ name: 'list_servers', arguments: { limit: 200 } });
    expect(allowed.isError).toBeFalsy();
    const noSlash = await client.callTool({ name: 'check_server_trust', arguments: { name: 'postgres-mcp' } });
    expect(noSlash.isError).toBe(true);
    expect(textOf(noSlash)).toContain('<namespace>/<id>');
    expect(textOf(noSlash)).toContain('call search_servers');
    // Errors name the tool's parameters, not the API's (`query`, never `q`).
    const short = await client.callTool({ name: 'search_servers', arguments: { query: 'p' } });
    expect(short.isError).toBe(true);
    expect(textOf(short)).toContain('query must be at least 2 characters');
    expect(textOf(short)).not.toMatch(/\bq must/);
  });

  it('never writes the API key to its log', () => {
    expect(wrapperStderr()).toContain('ready on stdio');
    expect(wrapperStderr()).not.toContain(KEY);
  });

  it('answers a wrong key with an error that says how to set TRUST_API_KEY', async () => {
    const wrong = await connectWrapper({ TRUST_API_KEY: 'not-a-valid-key', TRUST_API_URL: apiUrl });
    const result = await wrong.client.callTool({ name: 'get_ecosystem_stats', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('TRUST_API_KEY');
    expect(textOf(result)).toContain('Invalid API key');
  });

  it('answers with the URL it tried when nothing listens there', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    const offline = await connectWrapper({ TRUST_API_KEY: KEY, TRUST_API_URL: url });
    const result = await offline.client.callTool({ name: 'get_ecosystem_stats', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`${url}/stats`);
    expect(textOf(result)).toContain('may not be running');
  });

  it('says when the daily limit resets once it is used up', async () => {
    const limited = await startApi({
      SNAPSHOT_DIR: await buildTestSnapshot(RECORDS),
      KEYS_FILE: path.join(dir, 'keys-limited.json'),
      API_KEYS: KEY,
      FREE_DAILY_LIMIT: '1',
    });
    const wrapper = await connectWrapper({ TRUST_API_KEY: KEY, TRUST_API_URL: `${limited.base}/v1` });
    const first = await wrapper.client.callTool({ name: 'get_ecosystem_stats', arguments: {} });
    expect(first.isError).toBeFalsy();
    const second = await wrapper.client.callTool({ name: 'get_ecosystem_stats', arguments: {} });
    expect(second.isError).toBe(true);
    const nextMidnight = new Date(Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000).toISOString();
    expect(textOf(second)).toContain(`resets at ${nextMidnight}`);
    expect(textOf(second)).toContain('Do not retry before then');
  });

  it('exits non-zero with one clear message when TRUST_API_KEY is missing', async () => {
    const env: Record<string, string | undefined> = { ...process.env, TRUST_API_URL: apiUrl };
    delete env.TRUST_API_KEY;
    const child = spawn(process.execPath, [WRAPPER_BIN], { cwd: tmpdir(), env, stdio: ['pipe', 'pipe', 'pipe'] });
    started.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).not.toBe(0);
    expect(stderr).toContain('TRUST_API_KEY is not set');
    expect(stderr).not.toContain('    at '); // a message, not a stack trace
    expect(stdout).toBe(''); // stdout is the protocol channel
  });
});
