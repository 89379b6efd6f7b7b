/**
 * Reverse lookup and the policy check against the real server process (`npm start`'s entry point) on the
 * committed dataset: real servers found by the package and the URL their registry entries give, and a POST
 * body read through the Node adapter, refused past its bound.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange } from '../support/raw-http.js';
import { type ServerProcess, startServer } from '../e2e/process.js';

const KEY = 'check-e2e-key-0123456789';
let dir: string;
let server: ServerProcess;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-check-'));
  server = await startServer({ API_KEYS: KEY, KEYS_FILE: path.join(dir, 'keys.json'), FREE_DAILY_LIMIT: '1000' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const get = (target: string) => fetch(`${server.base}${target}`, { headers: { 'X-API-Key': KEY } });
const names = async (response: Response) =>
  ((await response.json()) as { data: { name: string }[] }).data.map((record) => record.name);

describe('reverse lookup on the committed dataset', () => {
  it("finds GitHub's server by its OCI image, tag or none, and by its remote URL", async () => {
    for (const image of ['ghcr.io/github/github-mcp-server', 'ghcr.io/github/github-mcp-server:0.31.0']) {
      expect(await names(await get(`/v1/lookup?package=${encodeURIComponent(`oci:${image}`)}`))).toEqual([
        'io.github.github/github-mcp-server',
      ]);
    }
    const url = encodeURIComponent('https://api.githubcopilot.com/mcp');
    expect(await names(await get(`/v1/lookup?url=${url}`))).toContain('io.github.github/github-mcp-server');
  });

  it('finds a PyPI package in any spelling PEP 503 makes equal, and an npm package shared by two servers', async () => {
    expect(await names(await get('/v1/lookup?package=pypi:MCPCap'))).toEqual(['ai.mcpcap/mcpcap']);
    const shared = await names(await get(`/v1/lookup?package=${encodeURIComponent('npm:@perplexity-ai/mcp-server')}`));
    expect(shared.sort()).toEqual(['ai.perplexity/mcp-server', 'io.github.perplexityai/mcp-server']);
  });
});

describe('the policy check through the Node server', () => {
  it('reads the body and answers the verdict', async () => {
    const response = await fetch(`${server.base}/v1/check`, {
      method: 'POST',
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        servers: ['io.github.github/github-mcp-server', { package: 'pypi:mcpcap' }],
        // GitHub's server scores 89, ai.mcpcap/mcpcap 78 (mts-2).
        policy: { min_score: 80 },
      }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { verdict: string; results: { verdict: string }[] } };
    expect(data.results.map((result) => result.verdict)).toEqual(['pass', 'fail']);
    expect(data.verdict).toBe('fail');
  });

  it('refuses a body past 64 KB with 400 and closes the connection instead of reading the rest', async () => {
    const body = JSON.stringify({ servers: ['a.b/c'], pad: 'x'.repeat(200_000) });
    const port = Number(new URL(server.base).port);
    const request =
      `POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${KEY}\r\nContent-Type: application/json\r\n` +
      `Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const answer = await exchange(port, Buffer.from(request, 'latin1'), { boundMs: 10_000 });
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toMatch(/larger than 64 KB/);
  });
});
