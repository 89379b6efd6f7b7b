/** The probe source: a third party's probe of a remote, shown in the evidence and the verdict, never scored. */
import { sourceEvidence } from '../../src/model/evidence.js';
import { describe, expect, it } from 'vitest';
import { judge, PolicySchema } from '../../src/model/check.js';
import type { ProbeFile, ProbeObservation } from '../../src/model/probes.js';
import type { ToolsFile } from '../../src/model/tools.js';
import { PROBES_BY } from '../../src/pipeline/probe/probe-night.js';
import { POISONED_ADD_DESCRIPTION } from '../support/mcp-standins.js';
import { probeSourceOf } from '../../src/scoring/sources/probe.js';
import { makeRecord } from '../support/records.js';

const FILE: ProbeFile = {
  by: 'A prober (test), July 2026',
  third_party: true,
  observations: [
    {
      name: 'com.example/down',
      reachable: false,
      auth: null,
      tool_count: null,
      transport: 'streamable-http',
      probed_at: '2026-07-24T19:46:10.788Z',
    },
    {
      name: 'com.example/open',
      reachable: true,
      auth: 'open',
      tool_count: 7,
      transport: 'streamable-http',
      probed_at: '2026-07-25T10:00:00.000Z',
    },
  ],
};
const source = probeSourceOf(FILE);
const remote = (name: string) =>
  makeRecord({
    name,
    trust_score: 70,
    trust_label: 'Moderate Trust',
    remotes: [{ type: 'streamable-http', url: `https://${name.split('/')[1]}.example.com/mcp` }],
  });

describe('the probe source', () => {
  it('keeps what the probe saw, when and by whom, as a third party’s observation', () => {
    const reading = source.read({ record: remote('com.example/open') });
    expect(reading.state).toEqual({
      measured: true,
      at: '2026-07-25T10:00:00.000Z',
      by: 'A prober (test), July 2026',
      third_party: true,
      missing: null,
    });
    expect(reading.detail).toEqual({
      reachable: true,
      auth: 'open',
      tool_count: 7,
      transport: 'streamable-http',
      probed_at: '2026-07-25T10:00:00.000Z',
      tools_hash: null,
    });
    expect(reading.findings).toEqual([]);
  });

  it('says why a server was not probed: no remote, or a remote the probe did not cover', () => {
    const local = makeRecord({
      name: 'com.example/local',
      trust_score: 70,
      trust_label: 'Moderate Trust',
      remotes: [],
    });
    expect(source.read({ record: local }).state.missing).toMatch(/^no remote to probe/);
    expect(source.read({ record: remote('com.example/other') }).state.missing).toBe(
      'the remote was not probed for this snapshot',
    );
  });

  it('makes the verdict say that the remote did not answer, without changing it on one observation', () => {
    const down = remote('com.example/down');
    const reading = source.read({ record: down });
    const state = { measured: true, at: '2026-02-21T00:00:00Z', by: 'test', third_party: true, signals: {} } as const;
    const record = {
      ...down,
      evidence: {
        method: 'mts-2',
        confidence: 80,
        sources: {
          registry: state,
          repository: state,
          packages: state,
          probe: sourceEvidence(reading.state, reading.signals),
          advisories: state,
        },
        probe: reading.detail,
      },
    };
    const result = judge('com.example/down', [record], PolicySchema.parse({}), '2026-11-28');
    expect(result.verdict).toBe('pass');
    expect(result.reasons).toEqual([
      'its remote did not answer when probed on 2026-07-24 (A prober (test), July 2026); one observation, so no flag yet',
    ]);
  });
});

describe('the findings of this project’s own probes', () => {
  const at = '2026-11-28T02:00:00Z';
  const observation = (name: string, extra: Partial<ProbeObservation>): ProbeObservation => ({
    name,
    reachable: true,
    auth: 'open',
    tool_count: 1,
    transport: 'streamable-http',
    probed_at: at,
    version: '1.0.0',
    consecutive_failures: 0,
    ...extra,
  });
  const own: ProbeFile = {
    by: PROBES_BY,
    third_party: false,
    observations: [
      observation('com.example/once', { reachable: false, auth: null, failure: 'timeout', consecutive_failures: 1 }),
      observation('com.example/twice', { reachable: false, auth: null, failure: 'dns', consecutive_failures: 2 }),
      observation('com.example/sse', { transport: 'sse' }),
      observation('com.example/changed', { tools_changed_at: at }),
      observation('com.example/poisoned', {}),
      observation('com.example/plain', {}),
    ],
  };
  const pinned = (name: string, description: string) => ({
    name,
    version: '1.0.0',
    probed_at: at,
    hash: `sha256:${'0'.repeat(64)}`,
    truncated: false,
    tools: [{ name: 'add', description, input_schema: {}, annotations: {} }],
  });
  const tools: ToolsFile = {
    by: PROBES_BY,
    third_party: false,
    servers: [
      pinned('com.example/poisoned', POISONED_ADD_DESCRIPTION),
      pinned('com.example/plain', 'Adds two numbers.'),
    ],
  };
  const flagsOf = (file: ProbeFile, name: string) =>
    probeSourceOf(file, tools)
      .read({ record: remote(name) })
      .findings.map((finding) => finding.flag);

  it('raise each flag where its rule holds and nowhere else', () => {
    expect(flagsOf(own, 'com.example/once')).toEqual([]);
    expect(flagsOf(own, 'com.example/twice')).toEqual(['REMOTE_UNREACHABLE']);
    expect(flagsOf(own, 'com.example/sse')).toEqual(['SSE_ONLY']);
    expect(flagsOf(own, 'com.example/changed')).toEqual(['TOOLS_CHANGED']);
    expect(flagsOf(own, 'com.example/poisoned')).toEqual(['TOOL_INSTRUCTIONS']);
    expect(flagsOf(own, 'com.example/plain')).toEqual([]);
  });

  it('never come from a third party’s observations, however many failures they count', () => {
    const theirs = { ...own, third_party: true };
    for (const name of ['com.example/twice', 'com.example/sse', 'com.example/changed', 'com.example/poisoned']) {
      expect(flagsOf(theirs, name), name).toEqual([]);
    }
  });

  it('make the default policy warn of a remote down two nights in a row, and say so', () => {
    const down = remote('com.example/twice');
    const reading = probeSourceOf(own, tools).read({ record: down });
    const state = { measured: true, at, by: 'test', third_party: true, signals: {} } as const;
    const record = {
      ...down,
      flags: reading.findings.map((finding) => finding.flag),
      evidence: {
        method: 'mts-2',
        confidence: 80,
        sources: {
          registry: state,
          repository: state,
          packages: state,
          probe: sourceEvidence(reading.state, reading.signals),
          advisories: state,
        },
        probe: reading.detail,
      },
    };
    const result = judge('com.example/twice', [record], PolicySchema.parse({}), '2026-11-28');
    expect(result.verdict).toBe('warn');
    expect(result.reasons).toContain(
      `its remote did not answer when probed on 2026-11-28 (${PROBES_BY}), 2 nights in a row`,
    );
    expect(result.reasons.some((reason) => reason.startsWith('carries the flag REMOTE_UNREACHABLE'))).toBe(true);
  });

  it('keep the tools’ hash and count in the evidence detail', () => {
    const reading = probeSourceOf(own, tools).read({ record: remote('com.example/plain') });
    expect(reading.detail).toMatchObject({ tools_hash: null, tool_count: 1 });
  });
});
