/** The handlers of the service routes: Health Check (live, never cached) and Ecosystem Statistics. */
import { DEFAULT_STALE_AFTER_DAYS, freshnessOf } from '../freshness.js';
import { assertNoParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';

/** `degraded` (still 200) when the counter store does not answer or the data is older than the bound. */
export async function health({ engine, query, nowMs, store, staleAfterDays }: HandlerContext): Promise<Answer> {
  assertNoParams(query);
  const storeOk = await store.answers();
  const freshness = freshnessOf(engine.snapshot, nowMs, staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS);
  const data = {
    status: storeOk && freshness.status === 'fresh' ? 'ok' : 'degraded',
    timestamp: new Date(nowMs).toISOString(),
    snapshot: {
      id: engine.snapshot.id,
      generated_at: engine.snapshot.generatedAt,
      record_count: engine.snapshot.recordCount,
    },
    store: { kind: store.kind, status: storeOk ? 'ok' : 'unavailable' },
    freshness,
  };
  return { kind: 'live', data: JSON.stringify(data) };
}

export function stats({ engine, query }: HandlerContext): Answer {
  assertNoParams(query);
  return { kind: 'cached', key: 'stats', compute: () => ({ data: engine.statsJson(), metaTail: '' }) };
}
