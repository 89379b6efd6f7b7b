/**
 * The ground truth of the name-query sets (`scripts/lib/curated-answers.ts`): a curator's entry is answered by
 * the registry servers of the repository it links, and a link into a folder of a repository of many servers
 * by that folder's servers only.
 */
import { describe, expect, it } from 'vitest';
import { answerEntries, linkedFolder, mergeSameNames, type RegistryServer } from '../../scripts/lib/curated-answers.js';
import { repositoryKey } from '../../src/model/identifiers.js';

const server = (name: string, repoUrl?: string, subfolder?: string): RegistryServer => ({ name, repoUrl, subfolder });

const entry = (catalog: string, project: string) => ({ catalog, typed: [catalog], project });

const SERVERS = [
  server('com.microsoft/azure', 'https://github.com/microsoft/mcp', 'servers/Azure.Mcp.Server'),
  server('com.microsoft/microsoft-fabric', 'https://github.com/microsoft/mcp', 'servers/Fabric.Mcp.Server'),
  server('ai.klavis/strata', 'https://github.com/Klavis-AI/klavis'),
  server('io.github.netdata/mcp-server', 'https://github.com/netdata/netdata.git'),
  server('io.github.brave/brave-search-mcp-server', 'https://github.com/brave/brave-search-mcp-server'),
  server('ai.smithery/brave', 'https://github.com/brave/brave-search-mcp-server/'),
  server('io.github.nobody/no-repository'),
];

const answersOf = (...entries: ReturnType<typeof entry>[]) =>
  answerEntries(mergeSameNames(entries), SERVERS).map(({ listed, repository, expected }) => ({
    name: listed.catalog,
    repository,
    expected,
  }));

describe('curated answers', () => {
  it('reads a link as its repository and the folder inside it', () => {
    expect(repositoryKey('https://www.github.com/Brave/Brave-Search-MCP-Server.git')).toBe(
      'https://github.com/brave/brave-search-mcp-server',
    );
    expect(linkedFolder('https://github.com/microsoft/mcp/tree/main/servers/Azure.Mcp.Server/')).toBe(
      'servers/azure.mcp.server',
    );
    expect(linkedFolder('https://github.com/nrwl/nx-console/blob/master/apps/nx-mcp')).toBe('apps/nx-mcp');
    expect(linkedFolder('https://github.com/brave/brave-search-mcp-server')).toBeUndefined();
    expect(repositoryKey('https://brave.com')).toBeUndefined();
  });

  it('answers a repository link with every server of the repository', () => {
    expect(answersOf(entry('Brave Search', 'https://github.com/brave/brave-search-mcp-server'))).toEqual([
      {
        name: 'Brave Search',
        repository: 'https://github.com/brave/brave-search-mcp-server',
        expected: ['ai.smithery/brave', 'io.github.brave/brave-search-mcp-server'],
      },
    ]);
  });

  it('answers a folder link with the servers of that folder', () => {
    expect(answersOf(entry('Azure', 'https://github.com/microsoft/mcp/tree/main/servers/Azure.Mcp.Server'))).toEqual([
      { name: 'Azure', repository: 'https://github.com/microsoft/mcp', expected: ['com.microsoft/azure'] },
    ]);
  });

  it('leaves out folder links of a repository listed under several names that no server’s folder matches', () => {
    const klavis = (name: string, folder: string) =>
      entry(name, `https://github.com/Klavis-AI/klavis/tree/main/mcp_servers/${folder}`);
    expect(answersOf(klavis('Discord', 'discord'), klavis('YouTube', 'youtube'))).toEqual([]);
    // Listed under one name, the repository's servers are that entry's, folder or not (the registry often
    // gives no subfolder).
    expect(answersOf(entry('Netdata', 'https://github.com/netdata/netdata/tree/master/src/web/mcp'))).toEqual([
      { name: 'Netdata', repository: 'https://github.com/netdata/netdata', expected: ['io.github.netdata/mcp-server'] },
    ]);
  });

  it('answers a name listed twice by the servers of either link, and leaves out what nothing answers', () => {
    expect(
      answersOf(
        entry('Search', 'https://brave.com'),
        entry('Search', 'https://github.com/brave/brave-search-mcp-server'),
        entry('Nothing', 'https://github.com/nobody/nothing'),
      ),
    ).toEqual([
      {
        name: 'Search',
        repository: 'https://github.com/brave/brave-search-mcp-server',
        expected: ['ai.smithery/brave', 'io.github.brave/brave-search-mcp-server'],
      },
    ]);
  });
});
