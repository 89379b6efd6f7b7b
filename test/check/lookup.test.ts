/** GET /v1/lookup: reverse lookup by package or remote URL, at the gateway (Request → Response). */
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRepositoryUrl } from '../../src/model/identifiers.js';
import { loadSnapshot } from '../../src/query/open.js';
import { type Harness, harness } from '../gateway/harness.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

interface LookupBody {
  data: { name: string }[];
  meta: { total: number; cached: boolean };
}

let h: Harness;
beforeEach(async () => {
  h = await harness();
});

const names = async (response: Response) => ((await response.json()) as LookupBody).data.map((record) => record.name);

describe('reverse lookup', () => {
  it('finds the servers of a source repository in any usual spelling of its URL', async () => {
    const dir = await buildTestSnapshot([
      makeRecord({
        name: 'io.github.acme/one',
        trust_score: 40,
        install: { repo_url: 'https://github.com/Acme/Tools', version: null, package_types: [], transport_types: [] },
      }),
      makeRecord({
        name: 'io.github.acme/two',
        trust_score: 80,
        install: {
          repo_url: 'https://github.com/acme/tools.git',
          version: null,
          package_types: [],
          transport_types: [],
        },
      }),
      makeRecord({ name: 'io.github.acme/none' }),
    ]);
    const engine = await loadSnapshot(dir);
    for (const url of [
      'https://github.com/acme/tools',
      'http://www.GitHub.com/ACME/tools/',
      'git@github.com:acme/tools.git',
    ]) {
      const page = engine.lookupJson({ kind: 'repository', key: parseRepositoryUrl(url) });
      expect(page.total, url).toBe(2);
      expect(
        (JSON.parse(page.json) as { name: string }[]).map((r) => r.name),
        url,
      ).toEqual(['io.github.acme/two', 'io.github.acme/one']);
    }
  });

  it('finds every server a package belongs to, most trusted first, with meta.total', async () => {
    const response = await h.call(`/v1/lookup?package=${encodeURIComponent('npm:@acme/postgres-mcp')}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as LookupBody;
    expect(body.data.map((record) => record.name)).toEqual(['io.github.acme/postgres-mcp', 'dev.tools/github-helper']);
    expect(body.meta.total).toBe(2);
  });

  it('compares identifiers as their ecosystems do: PyPI normalised, OCI defaults explicit, a version ignored', async () => {
    expect(await names(await h.call('/v1/lookup?package=pypi:slack-bot-mcp'))).toEqual(['io.github.acme/Slack-Bot']);
    expect(await names(await h.call('/v1/lookup?package=oci:docker.io/mcp/github:latest'))).toEqual([
      'dev.tools/github-helper',
    ]);
    expect(
      await names(await h.call(`/v1/lookup?package=${encodeURIComponent('npm:@acme/postgres-mcp@1.0.0')}`)),
    ).toHaveLength(2);
  });

  it('finds a remote by URL whatever the case of scheme and host, with or without a trailing slash', async () => {
    for (const url of ['https://example.com/mcp', 'https://EXAMPLE.com/mcp/']) {
      expect(await names(await h.call(`/v1/lookup?url=${encodeURIComponent(url)}`)), url).toEqual(['com.example/mcp']);
    }
  });

  it('answers 200 with an empty list when nothing matches', async () => {
    const response = await h.call('/v1/lookup?package=npm:nobody-published-this');
    expect(response.status).toBe(200);
    expect((await response.json()) as LookupBody).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('answers 400 naming the rule unless exactly one of package, purl, url or repo is given', async () => {
    for (const query of ['', '?package=npm:a&url=https://a.example/mcp', '?url=https://a.example/mcp&repo=x']) {
      const response = await h.call(`/v1/lookup${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /exactly one of package .* url .* or repo/,
      );
    }
    const bad = await h.call('/v1/lookup?package=gem:tool');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/registry_type one of npm/);
    expect((await h.call('/v1/lookup?url=ftp://a.example/x')).status).toBe(400);
    for (const repo of ['https://example.com/owner/name', 'not a url', `https://github.com/o/${'a'.repeat(600)}`])
      expect((await h.call(`/v1/lookup?repo=${encodeURIComponent(repo)}`)).status, repo).toBe(400);
  });

  it('is keyed and counted like every /v1 route', async () => {
    expect((await h.call('/v1/lookup?package=npm:x', { key: null })).status).toBe(401);
    const first = await h.call('/v1/lookup?package=npm:x');
    const second = await h.call('/v1/lookup?package=npm:x');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
    expect(((await second.json()) as LookupBody).meta.cached).toBe(true);
  });
});
