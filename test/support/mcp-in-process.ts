/**
 * The MCP server in process, as the tests talk to it: a real SDK `Client` linked to `createTrustMcpServer` by
 * the SDK's in-memory transport, answering from a trust source (the committed data's snapshot, or one a test
 * makes).
 */
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openEmbeddedSource } from '../../src/client/embedded.js';
import type { TrustSource } from '../../src/client/trust-source.js';
import { createTrustMcpServer } from '../../src/mcp/server.js';
import { buildTestSnapshot } from './records.js';

/** A client connected to the MCP server answering from `source`. */
export async function connectInProcess(source: TrustSource, name = 'test'): Promise<Client> {
  const server = createTrustMcpServer(source);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A client connected to the MCP server answering from the committed data (`data/servers.json`), built. */
export async function connectToCommittedData(name = 'test'): Promise<Client> {
  const records = JSON.parse(await readFile('data/servers.json', 'utf8')) as unknown[];
  return connectInProcess(await openEmbeddedSource(await buildTestSnapshot(records)), name);
}
