/** The handlers of the service routes: Health Check (live, never cached) and Ecosystem Statistics. */
import { assertNoParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';

export async function health({ engine, query, nowMs, store }: HandlerContext): Promise<Answer> {
  assertNoParams(query);
  const storeOk = await store.answers();
  const data = {
    status: storeOk ? 'ok' : 'degraded',
    timestamp: new Date(nowMs).toISOString(),
    snapshot: {
      id: engine.snapshot.id,
      generated_at: engine.snapshot.generatedAt,
      record_count: engine.snapshot.recordCount,
    },
    store: { kind: store.kind, status: storeOk ? 'ok' : 'unavailable' },
  };
  return { kind: 'live', data: JSON.stringify(data) };
}

export function stats({ engine, query }: HandlerContext): Answer {
  assertNoParams(query);
  return { kind: 'cached', key: 'stats', compute: () => ({ data: engine.statsJson(), metaTail: '' }) };
}
