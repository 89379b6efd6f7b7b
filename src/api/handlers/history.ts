/**
 * Score history of one server, and what changed across the ecosystem since a snapshot: both read the
 * history the build carries forward (`src/snapshot/history.ts`).
 */
import { ServerPathSchema } from '../../model/schema.js';
import { ApiError, quote } from '../errors.js';
import { assertNoParams, parseChangesParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';
import { decodeSegment } from './servers.js';

export function serverHistory({ engine, query, pathParams }: HandlerContext): Answer {
  const namespace = decodeSegment('namespace', pathParams.namespace ?? '');
  const id = decodeSegment('id', pathParams.id ?? '');
  assertNoParams(query);
  const path = ServerPathSchema.safeParse({ namespace, id });
  if (!path.success) {
    const problems = path.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
    throw new ApiError('invalid_parameter', `Invalid path: ${problems.join('; ')}`);
  }
  const name = `${namespace}/${id}`;
  return {
    kind: 'cached',
    key: `history\n${name.toLowerCase()}`,
    compute: () => {
      const data = engine.historyJson(name);
      return data === undefined ? undefined : { data, metaTail: '' };
    },
    missing: () =>
      new ApiError(
        'server_not_found',
        `Server ${quote(name, 100)} was not found. Names are <namespace>/<id>; to find a server, search: ` +
          `GET /v1/search?q=${encodeURIComponent(id.slice(0, 40))}`,
      ),
  };
}

export function changes({ engine, query }: HandlerContext): Answer {
  const params = parseChangesParams(query);
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
      data: answer.json,
      metaTail:
        `,"total":${answer.total},"limit":${params.limit},"offset":${params.offset}` +
        `,"since":${JSON.stringify(params.since)}`,
    }),
  };
}
