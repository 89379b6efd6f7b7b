/**
 * The night's probe step over stand-in MCP servers, night after night: which remote of a server is probed,
 * what a night continues from the one before (failures in a row, the last pinned tools, a change of tools at
 * the same version kept until the version changes), and what is never counted as the remote's failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeNight, type ProbeNight, remoteToProbe } from '../../src/pipeline/probe/probe-night.js';
import { startMcpStandIns, type McpStandIns } from '../support/mcp-standins.js';

let mcp: McpStandIns;
beforeAll(async () => {
  mcp = await startMcpStandIns();
});
afterAll(async () => {
  await mcp.close();
});

const NIGHTS = ['2026-11-26T02:00:00Z', '2026-11-27T02:00:00Z', '2026-11-28T02:00:00Z'];

async function nightOf(
  targets: Parameters<typeof probeNight>[0],
  probedAt: string,
  previous?: ProbeNight,
  allowHttp = true,
): Promise<ProbeNight> {
  return probeNight(targets, {
    concurrency: 4,
    allowPrivate: true,
    allowHttp,
    timeoutMs: 1_500,
    probedAt,
    ...(previous ? { previous: { probes: previous.probes, tools: previous.tools } } : {}),
  });
}

describe('choosing the remote to probe', () => {
  it('prefers Streamable HTTP, falls back to SSE, and never probes a template URL', () => {
    expect(
      remoteToProbe([
        { type: 'sse', url: 'https://a.example/sse' },
        { type: 'streamable-http', url: 'https://a.example/mcp' },
      ]),
    ).toEqual({ type: 'streamable-http', url: 'https://a.example/mcp' });
    expect(remoteToProbe([{ type: 'sse', url: 'https://a.example/sse' }])).toEqual({
      type: 'sse',
      url: 'https://a.example/sse',
    });
    expect(remoteToProbe([{ type: 'streamable-http', url: 'https://{tenant}.example/mcp' }])).toBeUndefined();
    expect(remoteToProbe([{ type: 'stdio', url: 'x' }])).toBeUndefined();
  });
});

describe('night after night', () => {
  it('keeps the last pinned tools through a failed night, and dates a change until the version moves', async () => {
    const changing = (version: string) => ({
      name: 'com.example/changing',
      version,
      remotes: [{ type: 'streamable-http', url: mcp.at('/changing/mcp') }],
    });
    mcp.night = 1;
    const first = await nightOf([changing('1.0.0')], NIGHTS[0]!);
    const pinnedFirst = first.tools.servers[0]!;
    expect(first.probes.observations[0]).toMatchObject({ tools_hash: pinnedFirst.hash, tools_changed_at: null });

    // The remote is gone for a night: the pinned tools stay, and the failure is counted.
    const gone = [{ ...changing('1.0.0'), remotes: [{ type: 'streamable-http', url: mcp.at('/hang/mcp') }] }];
    const second = await nightOf(gone, NIGHTS[1]!, first);
    expect(second.probes.observations[0]).toMatchObject({
      reachable: false,
      consecutive_failures: 1,
      tools_hash: null,
    });
    expect(second.tools.servers).toEqual([pinnedFirst]);

    // Back with other tools at the same version: compared with the last pinned, the change is dated.
    mcp.night = 2;
    const third = await nightOf([changing('1.0.0')], NIGHTS[2]!, second);
    expect(third.counts.toolsChanged).toBe(1);
    expect(third.probes.observations[0]).toMatchObject({ consecutive_failures: 0, tools_changed_at: NIGHTS[2] });

    // The same tools the next night: the change stays dated while the version is the same.
    const fourth = await nightOf([changing('1.0.0')], '2026-11-29T02:00:00Z', third);
    expect(fourth.counts.toolsChanged).toBe(0);
    expect(fourth.probes.observations[0]?.tools_changed_at).toBe(NIGHTS[2]);

    // A new version clears it.
    const fifth = await nightOf([changing('1.1.0')], '2026-11-30T02:00:00Z', fourth);
    expect(fifth.probes.observations[0]?.tools_changed_at).toBeNull();
    mcp.night = 1;
  });

  it('never counts a URL the prober may not ask as a failure of the remote, and skips a server with no remote', async () => {
    const targets = [
      { name: 'com.example/open', version: '1.0.0', remotes: [{ type: 'streamable-http', url: mcp.at('/open/mcp') }] },
      { name: 'com.example/local', version: '1.0.0', remotes: [] },
    ];
    const first = await nightOf(targets, NIGHTS[0]!, undefined, false);
    const second = await nightOf(targets, NIGHTS[1]!, first, false);
    expect(second.probes.observations).toHaveLength(1);
    expect(second.probes.observations[0]).toMatchObject({ reachable: false, failure: 'url', consecutive_failures: 0 });
  });
});
