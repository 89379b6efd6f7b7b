/**
 * Health says how old the data is (issue 29, point 6): the newest `scored_at`, when the snapshot was
 * published, the age in days, and `degraded` (still 200) once the newest score is older than
 * `STALE_AFTER_DAYS` days. A real snapshot, the real gateway, a fixed clock.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthDataSchema } from '../../src/api/envelope.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';
import { envelopeOf, harness } from './harness.js';

const NEWEST = '2026-05-10T06:00:00.000Z';
const DAY_MS = 86_400_000;
let dir: string;
let engine: QueryEngine;

beforeAll(async () => {
  dir = await buildTestSnapshot([
    makeRecord({ name: 'org.example/older', scored_at: '2026-05-01T00:00:00.000Z' }),
    makeRecord({ name: 'org.example/newest', scored_at: NEWEST }),
    makeRecord({ name: 'org.example/oldest', scored_at: '2026-02-21T22:49:33.106Z' }),
  ]);
  engine = await loadSnapshot(dir);
});

afterAll(async () => {
  engine?.close();
  await rm(path.dirname(dir), { recursive: true, force: true });
});

async function healthAt(nowMs: number, staleAfterDays?: number) {
  const h = await harness({ engine, config: { staleAfterDays } });
  h.clock.now = nowMs;
  const response = await h.call('/v1/health', { key: null });
  expect(response.status).toBe(200);
  return HealthDataSchema.parse((await envelopeOf(response)).data);
}

describe('health freshness', () => {
  it('names the newest scored_at, when the snapshot was published, and the age in days', async () => {
    const data = await healthAt(Date.parse(NEWEST) + 1.5 * DAY_MS, 3);
    expect(data.freshness).toEqual({
      scored_at: NEWEST,
      published_at: '2026-03-01T00:00:00.000Z',
      age_days: 1.5,
      stale_after_days: 3,
      status: 'fresh',
    });
    expect(data.status).toBe('ok');
  });

  it('reports degraded, still 200, once the newest score is older than the bound, and names the store ok', async () => {
    const data = await healthAt(Date.parse(NEWEST) + 3 * DAY_MS + 1000, 3);
    expect(data.status).toBe('degraded');
    expect(data.freshness).toMatchObject({ status: 'stale', age_days: 3 });
    expect(data.store.status).toBe('ok');
  });

  it('is ok at exactly the bound, and the bound is the setting', async () => {
    expect((await healthAt(Date.parse(NEWEST) + 3 * DAY_MS, 3)).status).toBe('ok');
    const later = Date.parse(NEWEST) + 10 * DAY_MS;
    expect((await healthAt(later, 3)).status).toBe('degraded');
    expect((await healthAt(later, 14)).freshness).toMatchObject({
      status: 'fresh',
      stale_after_days: 14,
      age_days: 10,
    });
  });

  it('calls the data stale after 3 days when no bound is set', async () => {
    const data = await healthAt(Date.parse(NEWEST) + 4 * DAY_MS);
    expect(data.freshness).toMatchObject({ stale_after_days: 3, status: 'stale' });
    expect(data.status).toBe('degraded');
  });

  it('never reports a negative age when the clock is behind the scores', async () => {
    const data = await healthAt(Date.parse(NEWEST) - DAY_MS, 3);
    expect(data.freshness).toMatchObject({ age_days: 0, status: 'fresh' });
  });

  it('has no age for a snapshot without records, and is not stale for that', async () => {
    const emptyDir = await buildTestSnapshot([]);
    const empty = await loadSnapshot(emptyDir);
    try {
      const h = await harness({ engine: empty, config: { staleAfterDays: 1 } });
      const data = HealthDataSchema.parse((await envelopeOf(await h.call('/v1/health', { key: null }))).data);
      expect(data.freshness).toMatchObject({ scored_at: null, age_days: null, status: 'fresh' });
      expect(data.status).toBe('ok');
    } finally {
      empty.close();
      await rm(path.dirname(emptyDir), { recursive: true, force: true });
    }
  });
});
