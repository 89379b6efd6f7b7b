/**
 * Issue 43: searches as an agent makes them, on the committed dataset (`data/servers.json`) built into a
 * snapshot as `npm run build` builds it. A namespace is not a name, a publisher's own server comes first, and
 * compounds match their parts both ways.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { buildTestSnapshot } from '../support/records.js';

let engine: QueryEngine;
let names: string[];

beforeAll(async () => {
  const records = JSON.parse(await readFile('data/servers.json', 'utf8')) as { name: string }[];
  names = records.map((record) => record.name);
  engine = await openSnapshot(await buildTestSnapshot(records));
  await engine.ready('search');
  await engine.ready('descriptions');
}, 60_000);

afterAll(() => engine.close());

function search(q: string, fields: ('name' | 'description')[] = ['name'], limit = 20) {
  const page = engine.searchJson(q, limit, { in: fields });
  return { names: (JSON.parse(page.json) as { name: string }[]).map((record) => record.name), total: page.total };
}

describe('searches an agent makes, on the committed data', () => {
  it('github finds the servers whose id or publisher says github, GitHub’s own first', () => {
    const found = search('github', ['name'], 200);
    expect(found.names[0]).toBe('io.github.github/github-mcp-server');
    // Counted independently: a word of the id, or the owner after `io.github.` / the domain, begins with github.
    const saysGithub = names.filter((name) => {
      const [namespace, id] = name.split('/') as [string, string];
      const segments = namespace.split('.');
      const owner = segments.slice(segments[1] === 'github' && segments.length > 2 ? 2 : 1);
      return /github/i.test(id) || owner.some((segment) => /^github/i.test(segment.replace(/[^A-Za-z0-9]/g, '')));
    });
    expect(found.total).toBe(saysGithub.length);
    expect(found.total).toBeLessThan(20);
    expect(new Set(found.names)).toEqual(new Set(saysGithub));
  });

  it('a query that writes the namespace still reaches every server under it', () => {
    expect(search('io.github').total).toBe(names.filter((name) => name.startsWith('io.github.')).length);
    expect(search('io.github.github/github-mcp-server').names[0]).toBe('io.github.github/github-mcp-server');
  });

  it('a publisher on a domain of more labels is its registrable name’s: figma puts com.figma.mcp/mcp first', () => {
    expect(search('figma').names[0]).toBe('com.figma.mcp/mcp');
    // A label that names a host, not a publisher, gets no key of its own: `aws.api.…` is not api's own.
    expect(search('api', ['name'], 3).names[0]).not.toMatch(/^aws\.api\./);
  });

  it('a publisher’s domain written as words finds its servers, and only when nothing else matches', () => {
    expect(search('Norman Finance').names).toEqual(['finance.norman/mcp-server']);
    expect(search('norman.finance').names).toEqual(['finance.norman/mcp-server']);
    // The top-level domain alone is still no name.
    expect(search('finance').names).not.toContain('finance.norman/mcp-server');
  });

  it('a publisher’s name puts its own servers first', () => {
    const found = search('microsoft', ['name'], 200);
    const own = names.filter((name) => name.toLowerCase().startsWith('com.microsoft/'));
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(found.names.slice(0, own.length))).toEqual(new Set(own));
  });
});

describe('compounds and their parts, both ways', () => {
  const filesystemServers = () => names.filter((name) => /file-?_?system/i.test(name.split('/')[1]!));

  it('file system, in names and descriptions, has filesystem servers in its first three', () => {
    const found = search('file system', ['name', 'description']);
    expect(found.names.slice(0, 3).every((name) => filesystemServers().includes(name))).toBe(true);
    expect(found.names).toEqual(expect.arrayContaining(filesystemServers()));
  });

  it('file system and filesystem find the same servers by name', () => {
    expect(search('file system').names).toEqual(search('filesystem').names);
    expect(search('filesystem').total).toBe(filesystemServers().length);
  });

  it('a name written in words of its own case finds the name run together: TextArtTools', () => {
    const found = search('TextArtTools');
    expect(found.names.length).toBeGreaterThan(0);
    expect(found.names.every((name) => /textarttools/i.test(name))).toBe(true);
    expect(found.names).toEqual(expect.arrayContaining(names.filter((name) => /textarttools/i.test(name))));
  });

  it('github is not read as git hub', () => {
    expect(search('github').names.every((name) => /github/i.test(name.replace(/^io\.github\./i, '')))).toBe(true);
  });
});

describe('several words mean all of them (decisions §4)', () => {
  it('a word no server has finds nothing, however well the other words match', () => {
    expect(search('postgres').total).toBeGreaterThan(0);
    expect(search('postgres', ['name', 'description']).total).toBeGreaterThan(0);
    expect(search('postgres zzzzqq').total).toBe(0);
    expect(search('postgres zzzzqq', ['name', 'description']).total).toBe(0);
    expect(search('postgres mcp server zzzzqq').total).toBe(0);
  });
});
