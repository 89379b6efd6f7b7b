/**
 * Issue 43: the search tool's description promises what its example queries find; each example, asked
 * through the MCP tool in process against the committed dataset's snapshot, finds it. A change to the
 * description that drops an example, or to search that breaks one, fails here.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchServers } from '../../src/mcp/tools.js';
import { connectToCommittedData } from '../support/mcp-in-process.js';

let client: Client;

beforeAll(async () => {
  client = await connectToCommittedData();
}, 60_000);

afterAll(() => client.close());

async function namesFound(query: string, where?: string): Promise<string[]> {
  const result = await client.callTool({
    name: 'search_servers',
    arguments: where === undefined ? { query } : { query, in: where },
  });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { items: { name: string }[] }).items.map((item) => item.name);
}

const idOf = (name: string) => name.slice(name.indexOf('/') + 1).toLowerCase();

describe('the search tool’s examples find what its description promises', () => {
  it('names each example it is tested on', () => {
    for (const example of ['"postgres"', '"slack"', '"github mcp"', '"postg" finds postgres', '"file system"']) {
      expect(searchServers.description).toContain(example);
    }
    expect(searchServers.description).toContain('"send email"');
    expect(searchServers.description).toContain('"github" gives io.github.github/github-mcp-server first');
    expect(searchServers.description).toContain('"dynatrace mcp server" finds dynatrace servers');
    expect(searchServers.description).toContain('"github official"');
  });

  it('dynatrace mcp server finds dynatrace servers; github official, GitHub’s own server', async () => {
    const dynatrace = await namesFound('dynatrace mcp server');
    expect(dynatrace.length).toBeGreaterThan(0);
    expect(dynatrace.every((name) => name.toLowerCase().includes('dynatrace'))).toBe(true);
    expect(await namesFound('github official')).toEqual(['io.github.github/github-mcp-server']);
  });

  it('postgres, slack and postg find servers named so, first', async () => {
    for (const [query, word] of [
      ['postgres', 'postgres'],
      ['slack', 'slack'],
      ['postg', 'postgres'],
    ] as const) {
      const found = await namesFound(query);
      expect(found.length, query).toBeGreaterThan(2);
      expect(
        found.slice(0, 3).every((name) => idOf(name).includes(word)),
        query,
      ).toBe(true);
    }
  });

  it('github mcp and github put GitHub’s own server first', async () => {
    expect((await namesFound('github mcp'))[0]).toBe('io.github.github/github-mcp-server');
    expect((await namesFound('github'))[0]).toBe('io.github.github/github-mcp-server');
  });

  it('file system and send email, with in name,description, find servers that do that first', async () => {
    const files = await namesFound('file system', 'name,description');
    expect(files.slice(0, 3).every((name) => idOf(name).includes('filesystem'))).toBe(true);
    const mail = await namesFound('send email', 'name,description');
    expect(mail.slice(0, 3).every((name) => idOf(name).includes('email'))).toBe(true);
  });
});
