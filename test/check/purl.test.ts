/**
 * Package URLs (purl, ECMA-427) wherever a package is taken: parsed by packageurl-js and filed under the same
 * key as `<registry_type>:<identifier>`, so each ecosystem's rules hold (PyPI normalised, npm scopes decoded,
 * OCI by repository_url, NuGet in any case); a malformed one is a 400 that says what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { parsePackageRef } from '../../src/model/identifiers.js';
import { purlKey, purlOf } from '../../src/model/purl.js';
import { envelopeOf, errorOf, harness } from '../gateway/harness.js';

describe('a package URL as a lookup key', () => {
  it.each([
    ['pkg:npm/%40acme/postgres-mcp@1.0.0', 'npm:@acme/postgres-mcp'],
    ['pkg:npm/@acme/postgres-mcp', 'npm:@acme/postgres-mcp'],
    ['pkg:NPM/left-pad', 'npm:left-pad'],
    ['pkg:pypi/Slack_Bot.MCP@0.3.0', 'pypi:slack-bot-mcp'],
    ['pkg:pypi/slack-bot-mcp', 'pypi:slack-bot-mcp'],
    [
      'pkg:oci/postgres-mcp@sha256%3Aabc?repository_url=ghcr.io/acme/postgres-mcp&tag=1.0',
      'oci:ghcr.io/acme/postgres-mcp',
    ],
    ['pkg:oci/github?repository_url=docker.io/mcp/github', 'oci:docker.io/mcp/github'],
    ['pkg:oci/debian', 'oci:docker.io/library/debian'],
    ['pkg:docker/mcp/github@1.0', 'oci:docker.io/mcp/github'],
    ['pkg:nuget/Microsoft.Azure.Mcp@1.0', 'nuget:microsoft.azure.mcp'],
  ])('%s → %s', (purl, key) => {
    expect(purlKey(purl)).toBe(key);
  });

  it.each([
    ['npm:left-pad', /missing required "pkg" scheme component/],
    ['pkg:npm/', /"name" is a required component/],
    ['pkg:/left-pad', /purl is not a valid package URL/],
    ['pkg:github/acme/tool', /purl type "github" is not one of npm, pypi, oci, docker, nuget, cargo/],
    [
      'pkg:oci/other?repository_url=ghcr.io/acme/postgres-mcp',
      /repository_url "ghcr.io\/acme\/postgres-mcp" must end with its name "other"/,
    ],
  ])('refuses %s, naming what is wrong', (purl, message) => {
    expect(() => purlKey(purl)).toThrow(message);
  });

  it('writes the purl of a package a configuration runs, which files under the same key', () => {
    const cases: [string, string][] = [
      ['npm:@scope/pkg@1.2', 'pkg:npm/%40scope/pkg@1.2'],
      ['npm:left-pad', 'pkg:npm/left-pad'],
      ['pypi:mcp-server-git==1.0', 'pkg:pypi/mcp-server-git@1.0'],
      ['oci:mcp/github:1.0', 'pkg:oci/github?repository_url=docker.io%2Fmcp%2Fgithub'],
      ['nuget:Microsoft.Azure.Mcp', 'pkg:nuget/Microsoft.Azure.Mcp'],
      ['cargo:mcp-server@0.3.1', 'pkg:cargo/mcp-server@0.3.1'],
    ];
    for (const [ref, purl] of cases) {
      expect(purlOf(ref)).toBe(purl);
      expect(purlKey(purl)).toBe(parsePackageRef(ref));
    }
    expect(purlOf('mcpb:https://example.com/x.mcpb')).toBeUndefined();
  });
});

describe('package URLs at the API', () => {
  it('looks a server up by ?purl=, in either spelling of an npm scope', async () => {
    const h = await harness();
    const get = (query: string) =>
      h.gateway(new Request(`http://localhost/v1/lookup?${query}`, { headers: { 'x-api-key': h.key } }));
    for (const query of ['purl=pkg:pypi/slack_bot.mcp', `purl=${encodeURIComponent('pkg:pypi/Slack-Bot-MCP@1')}`]) {
      const { data } = await envelopeOf<{ name: string }[]>(await get(query));
      expect(data.map((record) => record.name)).toEqual(['io.github.acme/Slack-Bot']);
    }
    for (const purl of ['pkg:npm/%40acme/postgres-mcp', 'pkg:npm/@acme/postgres-mcp@9']) {
      const { data } = await envelopeOf<{ name: string }[]>(await get(`purl=${encodeURIComponent(purl)}`));
      expect(data.map((record) => record.name)).toEqual(['io.github.acme/postgres-mcp', 'dev.tools/github-helper']);
    }
    const malformed = await get('purl=pkg:npm/');
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toMatch(
      /^Invalid query: purl is not a valid package URL \("name" is a required component\)/,
    );
    const both = await get('purl=pkg:npm/x&package=npm:x');
    expect((await errorOf(both)).message).toMatch(/give exactly one of package .*, purl .*, url .* or repo/);
  });

  it('judges {"purl": ...} items in POST /v1/check, and refuses a malformed one with 400', async () => {
    const h = await harness();
    const post = (body: unknown) =>
      h.gateway(
        new Request('http://localhost/v1/check', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': h.key },
          body: JSON.stringify(body),
        }),
      );
    const response = await post({
      servers: [{ purl: 'pkg:oci/postgres-mcp?repository_url=ghcr.io/acme/postgres-mcp' }, { purl: 'pkg:pypi/nobody' }],
    });
    const { data } = await envelopeOf<{ results: { input: unknown; server: string | null; reasons: string[] }[] }>(
      response,
    );
    expect(data.results.map((result) => result.server)).toEqual(['io.github.acme/postgres-mcp', null]);
    expect(data.results[1]?.reasons[0]).toMatch(/^No scored server matches purl pkg:pypi\/nobody;/);
    const malformed = await post({ servers: [{ purl: 'pkg:github/a/b' }] });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toMatch(/purl type "github" is not one of/);
  });
});
