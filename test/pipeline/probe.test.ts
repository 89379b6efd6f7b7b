/**
 * The prober against real MCP servers made with the SDK on 127.0.0.1 (test/support/mcp-standins.ts): what it
 * tells of each kind of remote, that it never sends a credential, and that a hanging, flooding or redirecting
 * remote is cut by its bound (the deadline, the byte budget, the address filter) and recorded as such.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverAgents, type ReceiverAgents } from '../../src/notify/address-filter.js';
import { probeRemote, type ProbeSetup } from '../../src/pipeline/probe/probe-remote.js';
import { MAX_TOOL_DESCRIPTION, toolsHash } from '../../src/model/tools.js';
import { startMcpStandIns, type McpStandIns } from '../support/mcp-standins.js';

let standIns: McpStandIns;
let agents: ReceiverAgents;
let setup: ProbeSetup;
beforeAll(async () => {
  standIns = await startMcpStandIns();
  agents = receiverAgents(true, { keepAlive: false, refuseMetadata: true });
  setup = { agents, allowHttp: true, timeoutMs: 3_000, maxBytes: 2 * 1024 * 1024, maxToolPages: 10 };
});
afterAll(async () => {
  agents.destroy();
  await standIns.close();
});

describe('probing one remote', () => {
  it('lists an open server’s tools over its pages, with annotations, protocol version and server info', async () => {
    const seen = await probeRemote(standIns.at('/open/mcp'), setup);
    expect(seen).toMatchObject({
      reachable: true,
      auth: 'open',
      failure: null,
      transport: 'streamable-http',
      server_info: { name: 'standin', version: '1.0.0' },
    });
    expect(seen.protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(seen.tools?.tools.map((tool) => tool.name)).toEqual(['read_file', 'write_file', 'add']);
    expect(seen.tools?.tools[0]?.annotations).toEqual({ read_only: true, open_world: false });
    expect(seen.tools?.tools[1]?.annotations).toEqual({ destructive: true, idempotent: true });
    expect(seen.tools).toMatchObject({ truncated: false, count: 3 });
    expect(standIns.credentialsSeen).toBe(0);
  });

  it('tells OAuth with protected-resource metadata from a bare 401, and lists nothing of either', async () => {
    const oauth = await probeRemote(standIns.at('/oauth/mcp'), setup);
    const bare = await probeRemote(standIns.at('/bare/mcp'), setup);
    expect(oauth).toMatchObject({ reachable: true, auth: 'oauth', tools: null, failure: null });
    expect(bare).toMatchObject({ reachable: true, auth: 'bare-401', tools: null, failure: null });
    expect(standIns.credentialsSeen).toBe(0);
  });

  it('falls back to SSE when the Streamable HTTP request gets a 4xx, and says it spoke SSE', async () => {
    const seen = await probeRemote(standIns.at('/sse'), setup);
    expect(seen).toMatchObject({ reachable: true, auth: 'open', transport: 'sse', failure: null });
    expect(seen.tools?.tools).toHaveLength(3);
  });

  it('pins a hash that moves when the tools change', async () => {
    standIns.night = 1;
    const first = await probeRemote(standIns.at('/changing/mcp'), setup);
    standIns.night = 2;
    const second = await probeRemote(standIns.at('/changing/mcp'), setup);
    standIns.night = 1;
    expect(toolsHash(first.tools!.tools)).not.toBe(toolsHash(second.tools!.tools));
  });

  it('cuts a remote that never answers at the probe’s deadline and records a timeout', async () => {
    const seen = await probeRemote(standIns.at('/hang/mcp'), { ...setup, timeoutMs: 300 });
    expect(seen).toMatchObject({ reachable: false, failure: 'timeout', tools: null });
  });

  it('cuts 10 MB of tools at the byte budget and records too-large, the server still reachable and open', async () => {
    const seen = await probeRemote(standIns.at('/huge/mcp'), setup);
    expect(seen).toMatchObject({ reachable: true, auth: 'open', failure: 'too-large', tools: null });
  });

  it('keeps descriptions within the pinned bounds when the budget allows a large answer', async () => {
    const seen = await probeRemote(standIns.at('/huge/mcp'), { ...setup, maxBytes: 16 * 1024 * 1024 });
    expect(seen.tools).toMatchObject({ truncated: true, count: 2_500 });
    expect(seen.tools!.tools.length).toBe(500);
    expect(seen.tools!.tools.every((tool) => (tool.description ?? '').length <= MAX_TOOL_DESCRIPTION)).toBe(true);
  });

  it('re-checks a redirect’s address: one to the cloud metadata service is refused', async () => {
    const seen = await probeRemote(standIns.at('/redirect/mcp'), setup);
    expect(seen).toMatchObject({ reachable: false, failure: 'address' });
  });

  it('refuses loopback and http unless allowed, before any request', async () => {
    const strict = receiverAgents(false, { keepAlive: false });
    try {
      const before = standIns.requests.get('/open/mcp') ?? 0;
      const loopback = await probeRemote(standIns.at('/open/mcp'), { ...setup, agents: strict });
      const http = await probeRemote(standIns.at('/open/mcp'), { ...setup, allowHttp: false });
      expect(loopback).toMatchObject({ reachable: false, failure: 'address' });
      expect(http).toMatchObject({ reachable: false, failure: 'url' });
      expect(standIns.requests.get('/open/mcp') ?? 0).toBe(before);
    } finally {
      strict.destroy();
    }
  });

  it('records a refused connection, a template URL and a 404', async () => {
    const closed = await startMcpStandIns();
    const gone = closed.at('/open/mcp');
    await closed.close();
    expect(await probeRemote(gone, setup)).toMatchObject({ reachable: false, failure: 'refused' });
    expect(await probeRemote(standIns.at('/{tenant}/mcp'), setup)).toMatchObject({ failure: 'url' });
    expect(await probeRemote(standIns.at('/nothing'), setup)).toMatchObject({
      reachable: false,
      failure: 'http-status',
      http_status: 404,
    });
  });
});
