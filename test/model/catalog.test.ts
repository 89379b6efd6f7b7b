import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogFileSchema, CatalogServerSchema, REGISTRY_NAME_PATTERN } from '../../src/model/catalog.js';

const file = CatalogFileSchema.parse(JSON.parse(readFileSync('data/catalog/servers.json', 'utf8')));

describe('the committed catalog dataset', () => {
  it('holds both curated lists, each server once by name (case folded)', () => {
    const names = file.servers.map((s) => s.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    expect(file.servers.filter((s) => s.source === 'docker-mcp-catalog').length).toBeGreaterThan(300);
    expect(file.servers.filter((s) => s.source === 'mcp-reference-servers').length).toBe(7);
  });

  it('gives every server a way a configuration names it: an image, a remote URL or a package', () => {
    const unnamed = file.servers.filter((s) => !s.image && !s.remoteUrl && !s.package).map((s) => s.name);
    expect(unnamed).toEqual([]);
  });

  it('never uses a name the registry could give a server', () => {
    for (const server of file.servers) expect(REGISTRY_NAME_PATTERN.test(server.name)).toBe(false);
    const registryLike = { ...file.servers[0]!, name: 'docker/airtable-mcp-server' };
    expect(CatalogServerSchema.safeParse(registryLike).success).toBe(false);
  });
});
