/**
 * The bulk policy verdict: each item of the body resolved to the scored servers it names (by name, package
 * or remote URL), judged by the policy (`src/model/check.ts`), in the order given. Answered live, never from
 * the cache: the policy is part of the request and the answer belongs to the key that asked. The answer
 * begins with the policy in words, as every report of the check does.
 */
import { type CheckRequest, describePolicy, itemQuery, judge, overallVerdict, todayUtc } from '../../model/check.js';
import type { ServerRecord } from '../../model/schema.js';
import { unknownIdentifierOf } from '../../model/unknown-identifier.js';
import type { QueryEngine } from '../../query/types.js';
import type { Answer, HandlerContext } from '../route.js';

/** The records an item names, most trusted first; empty when none is scored. */
function resolve(engine: QueryEngine, item: CheckRequest['servers'][number]): ServerRecord[] {
  const query = itemQuery(item);
  if (query.kind === 'name') {
    const json = engine.getJson(query.name);
    return json === undefined ? [] : [JSON.parse(json) as ServerRecord];
  }
  return JSON.parse(engine.lookupJson(query).json) as ServerRecord[];
}

export function checkServers({ engine, body }: HandlerContext): Answer {
  const request = body as CheckRequest;
  // One day for every exception of the request, in the verdicts and in the policy's words alike.
  const today = todayUtc();
  const unknown: string[] = [];
  const results = request.servers.map((item) => {
    const matches = resolve(engine, item);
    const query = itemQuery(item);
    if (matches.length === 0 && query.kind !== 'name') {
      const identifier = unknownIdentifierOf(query);
      if (identifier !== undefined) unknown.push(identifier);
    }
    // A package no record holds is still judged by the advisories the snapshot was scored with.
    const advisories =
      matches.length === 0 && query.kind === 'package' ? (engine.advisories().get(query.key) ?? []) : [];
    return judge(item, matches, request.policy, today, advisories);
  });
  const policy = describePolicy(request.policy, today);
  return { kind: 'live', value: { policy, verdict: overallVerdict(results), results }, unknown };
}
