/**
 * Which servers a subscription watches: its names as written, and the servers its packages and URLs resolve
 * to. A package or URL resolves against a snapshot; a server removed by the next snapshot is no longer there
 * to resolve to, so what the items resolved to last (at the last fan-out, or when the subscription was made)
 * is kept in the store: a `server.removed` is matched against it, the snapshot the server was last seen in.
 */
import * as z from 'zod';
import { itemQuery } from '../model/check.js';
import type { QueryEngine } from '../query/types.js';
import type { NotifyStore } from '../stores/types.js';
import type { SubscriptionRecord } from './subscription-schema.js';

/** Subscription id → `{ snapshot_id, names }`: what its packages and URLs resolved to in that snapshot. */
export const RESOLVED_NAMES = 'webhook-resolved-names';

const ResolvedSchema = z.strictObject({
  snapshot_id: z.string(),
  names: z.array(z.string()).max(100_000),
  /** What they resolved to before `snapshot_id` (so a fan-out run again after a crash still has it). */
  earlier: z.array(z.string()).max(100_000),
});
type Resolved = z.infer<typeof ResolvedSchema>;

/** Whether any item of `servers` is a package or a URL (resolved against a snapshot). */
export const resolvesItems = (servers: SubscriptionRecord['servers']) =>
  servers?.some((item) => typeof item !== 'string') ?? false;

/** The lower-cased names of the servers `servers` name or resolve to in `engine`'s snapshot. */
export function namesIn(engine: QueryEngine, servers: NonNullable<SubscriptionRecord['servers']>): Set<string> {
  const names = new Set<string>();
  for (const item of servers) {
    const query = itemQuery(item);
    if (query.kind === 'name') {
      names.add(query.name.toLowerCase());
      continue;
    }
    for (const record of JSON.parse(engine.lookupJson(query).json) as { name: string }[])
      names.add(record.name.toLowerCase());
  }
  return names;
}

/**
 * What the subscription's items resolved to in the last snapshot before `snapshotId` they were resolved in
 * (empty when never), and keeps `names` as their resolution in `snapshotId`.
 */
export async function resolvedBefore(
  store: NotifyStore,
  subscriptionId: string,
  snapshotId: string,
  names: Set<string>,
): Promise<Set<string>> {
  const json = await store.recordGet(RESOLVED_NAMES, subscriptionId);
  const parsed = json === undefined ? undefined : ResolvedSchema.safeParse(JSON.parse(json));
  const kept = parsed?.success === true ? parsed.data : undefined;
  const earlier = kept === undefined ? [] : kept.snapshot_id === snapshotId ? kept.earlier : kept.names;
  if (kept?.snapshot_id !== snapshotId || kept.names.length !== names.size) {
    const value: Resolved = { snapshot_id: snapshotId, names: [...names], earlier };
    await store.recordPut(RESOLVED_NAMES, subscriptionId, JSON.stringify(value));
  }
  return new Set(earlier);
}
