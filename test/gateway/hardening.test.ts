/**
 * Smaller holes found by the outside attack (issue 32, point 8), each closed at the gateway: labels,
 * who may mint keys from a browser, request targets in absolute form, and registry website URLs.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import type { RegistryArtifact } from '../../src/registry/artifact.js';
import { createRegistryFeed } from '../../src/registry/feed.js';
import { OPEN_POLICY } from '../../src/registry/policy.js';
import { loadConfig } from '../../src/service/config.js';
import type { RegistryEntry } from '../../src/registry/schema.js';
import { harness } from './harness.js';

function issue(h: Awaited<ReturnType<typeof harness>>, label: string) {
  return h.gateway(
    new Request('http://localhost/v1/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label }),
    }),
  );
}

describe('Get Access labels', () => {
  it('refuses a label with a C1 control or a bidirectional formatting character', async () => {
    const h = await harness();
    for (const label of ['laptop\u0085', 'x\u009b2J', 'gpj.\u202eexe', 'a\u2066b', 'rtl\u200f']) {
      const response = await issue(h, label);
      expect(response.status, JSON.stringify(label)).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_body');
      expect(error.message).toContain('label must not contain control characters or bidirectional');
    }
    expect((await issue(h, 'café, 東京')).status).toBe(201);
  });
});

describe('the registry feed (/v0.1)', () => {
  it('passes a websiteUrl only when it is http or https', async () => {
    const entries = JSON.parse(await readFile('data/registry/servers.json', 'utf8')) as RegistryEntry[];
    const records = JSON.parse(await readFile('data/servers.json', 'utf8')) as ServerRecord[];
    const byName = new Map(records.map((record) => [record.name, record]));
    const scored = entries.filter((entry) => byName.has(entry.server.name)).slice(0, 4);
    const urls = [
      'javascript:alert(document.domain)',
      'data:text/html,<script>1</script>',
      'https://ok.example/',
      'HTTP://ok.example/x',
    ];
    const artifact = {
      servers: scored.map((entry, index) => ({ ...entry, server: { ...entry.server, websiteUrl: urls[index] } })),
    } as RegistryArtifact;
    const feed = createRegistryFeed(artifact, (name) => byName.get(name), 'snapshot');
    const served = scored.map(
      (entry) =>
        (JSON.parse(feed.get(entry.server.name, OPEN_POLICY)!.json) as { server: { websiteUrl?: string } }).server,
    );
    expect(served.map((server) => server.websiteUrl)).toEqual([undefined, undefined, urls[2], urls[3]]);
  });
});

describe('Get Access from a browser on another origin', () => {
  const preflight = (h: Awaited<ReturnType<typeof harness>>, path: string, origin: string) =>
    h.gateway(
      new Request(`http://localhost${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      }),
    );

  it('allows no other origin to mint keys unless it is SITE_ORIGIN, and leaves the read routes open to all', async () => {
    const closed = await harness();
    const refused = await preflight(closed, '/v1/keys', 'https://evil.example');
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-methods')).toBeNull();
    expect(
      (await preflight(closed, '/v1/stats', 'https://evil.example')).headers.get('access-control-allow-origin'),
    ).toBe('*');

    const site = await harness({ config: { siteOrigin: 'https://site.example' } });
    const allowed = await preflight(site, '/v1/keys', 'https://site.example');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(allowed.headers.get('vary')).toBe('Origin');
    expect(
      (await preflight(site, '/v1/keys', 'https://evil.example')).headers.get('access-control-allow-origin'),
    ).toBeNull();
    const issued = await site.gateway(
      new Request('http://localhost/v1/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: '{}',
      }),
    );
    expect(issued.status).toBe(201);
    expect(issued.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('reads SITE_ORIGIN as an origin, one line for anything else', () => {
    expect(loadConfig({ SITE_ORIGIN: 'https://site.example' }).siteOrigin).toBe('https://site.example');
    expect(loadConfig({}).siteOrigin).toBeUndefined();
    for (const bad of ['https://site.example/', 'site.example', 'javascript:alert(1)', 'https://site.example/path']) {
      expect(() => loadConfig({ SITE_ORIGIN: bad }), bad).toThrow(
        /^Invalid configuration: SITE_ORIGIN: SITE_ORIGIN must be an origin/,
      );
    }
  });
});
