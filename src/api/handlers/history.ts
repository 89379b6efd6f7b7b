/**
 * Score history of one server, and what changed across the ecosystem since a snapshot: both read the
 * history the build carries forward (`src/history/history.ts`).
 */
import type { ServerRecord } from '../../model/schema.js';
import { ApiError, quote } from '../errors.js';
import { parseChangesParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';
import { serverNotFound, serverPath } from './servers.js';

export function serverHistory({ engine, query, pathParams }: HandlerContext): Answer {
  const { name, id } = serverPath(query, pathParams);
  return {
    kind: 'cached',
    key: `history\n${name.toLowerCase()}`,
    compute: () => {
      const text = engine.historyJson(name);
      return text === undefined ? undefined : { data: { kind: 'json', text }, meta: {} };
    },
    missing: serverNotFound(name, id),
  };
}

/**
 * How the server's scores are made from its signals (`src/scoring/explain.ts`); never an invented breakdown.
 * The method's code (every source's scoring and the schemas of its evidence) is loaded on the first ask, not at
 * start: a server's first answer should not wait for it.
 */
export async function serverExplanation({ engine, query, pathParams }: HandlerContext): Promise<Answer> {
  const { name, id } = serverPath(query, pathParams);
  const { EXPLAIN_METHOD_VERSION, explainRecord } = await import('../../scoring/explain.js');
  return {
    kind: 'cached',
    key: `explain\n${name.toLowerCase()}`,
    compute: () => {
      const json = engine.getJson(name);
      if (json === undefined) return undefined;
      const record = JSON.parse(json) as ServerRecord;
      const explanation = explainRecord(record) ?? {
        name: record.name,
        method: EXPLAIN_METHOD_VERSION,
        reproduced: false,
        trust_score: { computed: null, stored: record.trust_score },
        subscores: [],
        summary: `${record.name} carries no signals, so its scores cannot be explained; the stored trust score is ${record.trust_score}.`,
      };
      return { data: { kind: 'value', value: explanation }, meta: {} };
    },
    missing: serverNotFound(name, id),
  };
}

export async function changes({ engine, query }: HandlerContext): Promise<Answer> {
  const params = parseChangesParams(query);
  await engine.prepareChanges(params.since);
  const answer = engine.changesJson(params.since, params.limit, params.offset);
  if ('unknown' in answer) {
    throw new ApiError(
      'invalid_parameter',
      `Invalid query: since ${quote(params.since, 64)} is not a snapshot this service keeps the history of ` +
        `(${answer.count} kept); the oldest kept is ${answer.oldest.snapshot_id} (${answer.oldest.generated_at})`,
    );
  }
  return {
    kind: 'cached',
    key: `changes\n${JSON.stringify([params.since, params.limit, params.offset])}`,
    compute: () => ({
      data: { kind: 'json', text: answer.json },
      meta: { total: answer.total, limit: params.limit, offset: params.offset, since: params.since },
    }),
  };
}
