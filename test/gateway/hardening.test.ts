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
