/** The handlers of the service routes: Health Check (live, never cached) and Ecosystem Statistics. */
import { assertNoParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';

/** Why health is degraded when the store answers but lost its data (docs/keys-and-stores.md says what Redis needs). */
export const DATA_LOST_REASON =
  'The store answers but no longer holds the marker this service wrote there: it lost its data (restarted ' +
  'without persistence, or evicted keys), so daily counts started again and issued keys are gone. Give it ' +
  'persistence and maxmemory-policy noeviction';

export async function health({ engine, query, nowMs, store }: HandlerContext): Promise<Answer> {
  assertNoParams(query);
  const state = await store.state();
  const data = {
    status: state === 'ok' ? 'ok' : 'degraded',
    timestamp: new Date(nowMs).toISOString(),
    snapshot: {
      id: engine.snapshot.id,
      generated_at: engine.snapshot.generatedAt,
      record_count: engine.snapshot.recordCount,
    },
    store: { kind: store.kind, status: state, ...(state === 'data_lost' ? { reason: DATA_LOST_REASON } : {}) },
  };
  return { kind: 'live', data: JSON.stringify(data) };
}

export function stats({ engine, query }: HandlerContext): Answer {
  assertNoParams(query);
  return { kind: 'cached', key: 'stats', compute: () => ({ data: engine.statsJson(), metaTail: '' }) };
}
