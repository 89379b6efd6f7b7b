/** The probe source: a third party's probe of a remote, shown in the evidence and the verdict, never scored. */
import { sourceEvidence } from '../../src/model/evidence.js';
import { describe, expect, it } from 'vitest';
import { judge, PolicySchema } from '../../src/model/check.js';
import type { ProbeFile } from '../../src/model/probes.js';
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
