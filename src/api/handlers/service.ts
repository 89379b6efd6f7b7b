/** The handlers of the service routes: Health Check (live, never cached) and Ecosystem Statistics. */
import { DEFAULT_STALE_AFTER_DAYS, freshnessOf } from '../freshness.js';
import { assertNoParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';

/** Why health is degraded when the store answers but lost its data (docs/keys-and-stores.md says what Redis needs). */
export const DATA_LOST_REASON =
  'The store answers but no longer holds the marker this service wrote there: it lost its data (restarted ' +
  'without persistence, or evicted keys), so daily counts started again and issued keys are gone. Give it ' +
  'persistence and maxmemory-policy noeviction';

/** `degraded` (still 200) when the counter store does not answer or lost its data, or the data is older than the bound. */
export async function health({ engine, query, nowMs, store, staleAfterDays }: HandlerContext): Promise<Answer> {
  assertNoParams(query);
  const state = await store.state();
  const freshness = freshnessOf(engine.snapshot, nowMs, staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS);
  const data = {
    status: state === 'ok' && freshness.status === 'fresh' ? 'ok' : 'degraded',
    timestamp: new Date(nowMs).toISOString(),
    snapshot: {
      id: engine.snapshot.id,
      generated_at: engine.snapshot.generatedAt,
      record_count: engine.snapshot.recordCount,
    },
    store: { kind: store.kind, status: state, ...(state === 'data_lost' ? { reason: DATA_LOST_REASON } : {}) },
    freshness,
  };
  return { kind: 'live', value: data };
}

export function stats({ engine, query }: HandlerContext): Answer {
  assertNoParams(query);
  return {
    kind: 'cached',
    key: 'stats',
    compute: () => ({ data: { kind: 'json', text: engine.statsJson() }, meta: {} }),
  };
}
