/**
 * A policy that fails closed: a deny flag no scored server has ever carried is refused (naming the closest
 * known flags) instead of matching nothing, and a check that sets no policy fails a server below 40 and an
 * unknown one. At the gateway (Request → Response, memory store, fixed clock) on a snapshot of its own.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closestFlags, editDistance, unknownFlagsProblem, VOCABULARY_FLAGS } from '../../src/model/flag-names.js';
import { loadSnapshot } from '../../src/query/open.js';
import { knownFlags } from '../../src/query/known-flags.js';
import type { QueryEngine } from '../../src/query/types.js';
import { errorOf, harness, type Harness } from '../gateway/harness.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

let dir: string;
let engine: QueryEngine;
let h: Harness;

beforeAll(async () => {
  dir = await buildTestSnapshot([
    makeRecord({ name: 'io.example/very-low', trust_score: 32, flags: ['LOCAL_ONLY_FLAG'] }),
    makeRecord({ name: 'io.example/low', trust_score: 40 }),
    makeRecord({ name: 'io.example/trusted', trust_score: 85, flags: ['NO_SOURCE'] }),
  ]);
  engine = await loadSnapshot(dir);
  h = await harness({ engine, config: { freeDailyLimit: 50 } });
}, 60_000);
afterAll(() => rm(path.dirname(dir), { recursive: true, force: true }));

function check(body: unknown): Promise<Response> {
  return h.gateway(
    new Request('http://localhost/v1/check', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': h.key },
      body: JSON.stringify(body),
    }),
  );
}

interface Results {
  data: { verdict: string; results: { server: string | null; verdict: string; reasons: string[] }[] };
}

describe('deny flags the snapshot has never seen', () => {
  it('refuses a misspelt flag with 400, naming the closest known flags, counted as one request', async () => {
    const response = await check({
      servers: ['io.example/trusted', 'io.example/low', 'io.example/very-low'],
      policy: { deny_flags: ['SENSITIVE_CRED'] },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('49');
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_body');
    expect(error.message).toMatch(
      /^Invalid body: policy\.deny_flags names a flag no scored server has ever carried: "SENSITIVE_CRED" \(did you mean SENSITIVE_CRED_REQUEST\?\)\. /,
    );
    expect(error.message).toContain('Known flags: DEAD_ENTRY, DEPRECATED, DESCRIPTION_DUPLICATE,');
  });

  it('names every unknown flag once, whatever its case was', async () => {
    const error = await errorOf(
      await check({ servers: ['io.example/low'], policy: { deny_flags: ['NO_SOURCES', 'DEAD'] } }),
    );
    expect(error.message).toMatch(/"NO_SOURCES" \(did you mean NO_SOURCE\?\); "DEAD" \(did you mean DEAD_ENTRY\?\)/);
  });

  it('accepts a flag that only this snapshot carries, and denies it', async () => {
    const response = await check({
      servers: ['io.example/very-low'],
      policy: { min_score: 0, deny_flags: ['LOCAL_ONLY_FLAG'] },
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as Results;
    expect(data.results[0]?.reasons).toEqual(['carries the flag LOCAL_ONLY_FLAG, which the policy denies']);
  });

  it('knows the vocabulary and the flags the statistics count', () => {
    const known = knownFlags(engine);
    for (const flag of VOCABULARY_FLAGS) expect(known.has(flag)).toBe(true);
    expect(known.has('LOCAL_ONLY_FLAG')).toBe(true);
    expect(known.has('SENSITIVE_CRED')).toBe(false);
  });
});

describe('the default policy', () => {
  it('fails a server scored 32 and warns on an unknown one when the body has no policy, and passes a 40', async () => {
    const response = await check({ servers: ['io.example/very-low', 'io.example/low', 'io.example/nobody'] });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as Results;
    expect(data.verdict).toBe('fail');
    expect(data.results.map((result) => result.verdict)).toEqual(['fail', 'pass', 'warn']);
    expect(data.results[0]?.reasons).toEqual(["trust score 32 (Very Low Trust) is below the policy's minimum of 40"]);
  });

  it('keeps the minimum of 40 for a policy that sets other members, and lets min_score 0 turn it off', async () => {
    const partial = (await (
      await check({ servers: ['io.example/very-low'], policy: { unknown: 'warn' } })
    ).json()) as Results;
    expect(partial.data.results[0]?.verdict).toBe('fail');
    const off = (await (await check({ servers: ['io.example/very-low'], policy: { min_score: 0 } })).json()) as Results;
    expect(off.data.results[0]?.verdict).toBe('pass');
  });
});

describe('the closest flags', () => {
  it('puts a flag that contains the name first, then the nearest by edits', () => {
    expect(editDistance('NO_SOURCES', 'NO_SOURCE')).toBe(1);
    expect(closestFlags('SENSITIVE_CRED', VOCABULARY_FLAGS)[0]).toBe('SENSITIVE_CRED_REQUEST');
    expect(closestFlags('dead_entyr', VOCABULARY_FLAGS)[0]).toBe('DEAD_ENTRY');
    expect(unknownFlagsProblem('x', ['no_source'], VOCABULARY_FLAGS)).toBeUndefined();
  });
});

describe('typo suggestions', () => {
  it('suggests only flags a typo away or containing the name, never unrelated ones', () => {
    expect(closestFlags('SENSITIVE_CRED', VOCABULARY_FLAGS)).toEqual(['SENSITIVE_CRED_REQUEST']);
    expect(closestFlags('NO_SOURCES', VOCABULARY_FLAGS)).toEqual(['NO_SOURCE']);
    expect(closestFlags('MALWARE', VOCABULARY_FLAGS)).toEqual([]);
    expect(closestFlags('TAKEDOWN', VOCABULARY_FLAGS)).toEqual(['REGISTRY_TAKEDOWN']);
    expect(closestFlags('SENSITIVE_CR', VOCABULARY_FLAGS)).toEqual(['SENSITIVE_CRED_REQUEST']);
    expect(closestFlags('TOOL', VOCABULARY_FLAGS)).toEqual(['TOOL_INSTRUCTIONS']);
  });

  it('does not take letters inside a word of a flag for a resemblance', () => {
    expect(closestFlags('OUR', VOCABULARY_FLAGS)).toEqual([]);
    expect(closestFlags('ACT', VOCABULARY_FLAGS)).toEqual([]);
    expect(closestFlags('EST', VOCABULARY_FLAGS)).toEqual([]);
    expect(closestFlags('ICIOUS', VOCABULARY_FLAGS)).toEqual([]);
    expect(unknownFlagsProblem('--deny-flags', ['MALWARE'], VOCABULARY_FLAGS)).toMatch(
      /^--deny-flags names a flag no scored server has ever carried: "MALWARE" \(no known flag is close\)\. Known flags: /,
    );
  });
});
