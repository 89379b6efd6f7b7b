/**
 * The one loose read of the upstream registry's entry (`src/registry/upstream.ts`), which the importer and the
 * pipeline share: it accepts every entry the strict served schema accepts, reads `null` as missing, keeps the
 * members it does not name, and refuses a member a reader uses when it has the wrong type.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RegistryEntrySchema } from '../../src/registry/schema.js';
import { UpstreamEntrySchema } from '../../src/registry/upstream.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const committed = JSON.parse(readFileSync(path.join(ROOT, 'data', 'registry', 'servers.json'), 'utf8')) as unknown[];

describe('the upstream registry entry, read loosely', () => {
  it('accepts every entry the served schema accepts (the committed feed)', () => {
    expect(committed.length).toBeGreaterThan(100);
    const strict = committed.filter((entry) => RegistryEntrySchema.safeParse(entry).success);
    expect(strict.length).toBe(committed.length);
    expect(strict.filter((entry) => !UpstreamEntrySchema.safeParse(entry).success)).toEqual([]);
  });

  it('reads null as missing, where the dumps write it, and keeps the members it does not name', () => {
    const entry = {
      server: {
        name: 'io.example/tool',
        version: null,
        description: null,
        repository: null,
        packages: [{ registryType: 'npm', identifier: 'tool', transport: null, runtimeHint: 'npx' }],
        remotes: null,
        title: 'Tool',
      },
      _meta: { [OFFICIAL]: { status: null, isLatest: null, publishedAt: null, serverId: 'x' }, other: 1 },
    };
    const parsed = UpstreamEntrySchema.parse(entry);
    expect(parsed).toEqual(entry);
    expect(UpstreamEntrySchema.parse({ server: { name: 'io.example/bare' } })).toEqual({
      server: { name: 'io.example/bare' },
    });
  });

  it('refuses an entry whose read members have the wrong type, or with no name', () => {
    const wrong = [
      { server: { name: '' } },
      { server: { name: 'io.example/a', version: 1 } },
      { server: { name: 'io.example/a', packages: [{ registryType: 7 }] } },
      { server: { name: 'io.example/a', packages: [{ environmentVariables: [{ isSecret: 'yes' }] }] } },
      { server: { name: 'io.example/a', remotes: {} } },
      { server: { name: 'io.example/a' }, _meta: { [OFFICIAL]: { isLatest: 'true' } } },
      { server: { name: 'io.example/a' }, _meta: { [OFFICIAL]: { status: 3 } } },
    ];
    expect(wrong.filter((entry) => UpstreamEntrySchema.safeParse(entry).success)).toEqual([]);
  });
});
