/**
 * The embedded trust source: the snapshot shipped inside the package, opened in process and asked through
 * the service's own answer path (`src/api/answer.ts`: the route's handler and the query engine, to the typed
 * data and meta the gateway serialises), so an offline answer is the answer the API gives for the same
 * snapshot, read as values rather than parsed back from the gateway's text. What the gateway adds around a
 * handler (keys, counting, the response cache, the envelope) has no meaning here; the check's body goes
 * through the API's own body reader (`src/api/request-body.ts`), so a bad request is refused with the API's
 * words. Failures are `TrustApiError`s as the live client throws.
 */
import { answerValues, type RouteValues } from '../api/answer.js';
import { ApiError } from '../api/errors.js';
import type { AnswerMeta, HandlerContext } from '../api/route.js';
import { routeById } from '../api/routes.js';
import { readJsonBody } from '../api/request-body.js';
import { splitName, type ServerRecord } from '../model/schema.js';
import { openSnapshot } from '../query/open.js';
import type { QueryEngine } from '../query/types.js';
import { queryOf as urlQuery, TrustApiError } from './client.js';
import type { RecordPage, SourceOrigin, TrustSource } from './trust-source.js';

/** How messages name where an offline answer came from. */
export const EMBEDDED_SOURCE_NAME = 'the offline snapshot';

/** What a handler may not do offline: issue keys or probe a counter store (no route asked here does). */
const OFFLINE_SERVICES: Pick<HandlerContext, 'issueKey' | 'store'> = {
  issueKey: () => Promise.reject(new Error('keys are issued by a deployment of the API, not offline')),
  store: { kind: 'memory', state: () => Promise.resolve('ok') },
};

/** The query string a handler reads: the live client's, without its `?`. */
const queryOf = (params: Record<string, string | number | undefined>) => urlQuery(params).replace(/^\?/, '');

/**
 * A source over an opened engine (tests give one of their own; `openEmbeddedSource` opens the shipped one).
 * Its scores are as old as the newest `scored_at` among its records, which the origin carries.
 */
export async function createEmbeddedSource(
  engine: QueryEngine,
  about: Pick<Extract<SourceOrigin, { kind: 'embedded' }>, 'held' | 'note'> = {},
): Promise<TrustSource> {
  async function ask<Id extends keyof RouteValues>(
    id: Id,
    request: { query?: string; path?: Record<string, string>; body?: unknown },
  ) {
    const route = routeById(id);
    try {
      let body: unknown;
      if (route.body !== undefined) {
        const text = JSON.stringify(request.body);
        // Headers of its own rather than the global `Headers`, whose first use loads Node's fetch (undici):
        // a sizeable part of an offline check's start.
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'content-length': `${Buffer.byteLength(text)}`,
        };
        const outcome = await readJsonBody(
          { headers: { get: (name) => headers[name.toLowerCase()] }, readBody: () => Promise.resolve(text) },
          route.body,
        );
        if (!outcome.ok) throw outcome.error;
        body = outcome.body;
      }
      return await answerValues(id, {
        engine,
        query: request.query ?? '',
        pathParams: request.path ?? {},
        nowMs: Date.now(),
        ...(body === undefined ? {} : { body }),
        ...OFFLINE_SERVICES,
      });
    } catch (error) {
      if (error instanceof ApiError) {
        throw new TrustApiError('http', error.message, {
          url: EMBEDDED_SOURCE_NAME,
          status: error.status,
          code: error.code,
        });
      }
      throw error;
    }
  }

  const page = ({ data: items, meta }: { data: ServerRecord[]; meta: AnswerMeta }): RecordPage => ({
    items,
    total: meta.total ?? items.length,
    limit: meta.limit ?? items.length,
    offset: meta.offset ?? 0,
  });

  const newest = page(await ask('list', { query: 'sort=scored_at&order=desc&limit=1' })).items[0];
  return {
    origin: {
      kind: 'embedded',
      scoredAt: newest?.scored_at ?? engine.snapshot.generatedAt,
      snapshotId: engine.snapshot.id,
      ...about,
    },
    async getServer(name) {
      if (name.indexOf('/') <= 0) throw new RangeError('a server name is <namespace>/<id>');
      const { namespace, id } = splitName(name);
      const path = { namespace: encodeURIComponent(namespace), id: encodeURIComponent(id) };
      return (await ask('get', { path })).data;
    },
    async tools(name) {
      if (name.indexOf('/') <= 0) throw new RangeError('a server name is <namespace>/<id>');
      const { namespace, id } = splitName(name);
      const path = { namespace: encodeURIComponent(namespace), id: encodeURIComponent(id) };
      return (await ask('tools', { path })).data;
    },
    async search(params) {
      const query = queryOf({
        q: params.q,
        limit: params.limit,
        offset: params.offset === 0 ? undefined : params.offset,
        in: params.in === 'name' ? undefined : params.in,
      });
      return page(await ask('search', { query }));
    },
    async list(params) {
      return page(await ask('list', { query: queryOf({ ...params }) }));
    },
    async stats() {
      return (await ask('stats', {})).data;
    },
    async lookup(by) {
      const { data: items, meta } = await ask('lookup', { query: queryOf({ ...by }) });
      return { items, total: meta.total ?? items.length, limit: items.length, offset: 0 };
    },
    async check(request) {
      return (await ask('check', { body: request })).data;
    },
    close: () => engine.close(),
  };
}

/** Open the snapshot in `dir` (packed or cached) as a source; the loader checks its hashes. */
export async function openEmbeddedSource(
  dir: string,
  about: Parameters<typeof createEmbeddedSource>[1] = {},
): Promise<TrustSource> {
  const engine = await openSnapshot(dir);
  try {
    return await createEmbeddedSource(engine, about);
  } catch (error) {
    engine.close();
    throw error;
  }
}
