/**
 * The embedded trust source: the snapshot shipped inside the package, opened in process and asked through
 * the service's own route handlers (`src/api/routes.ts`) and query engine, so an offline answer is the answer
 * the API gives for the same snapshot. What the gateway adds around a handler (keys, counting, the response
 * cache, the envelope) has no meaning here; the check's body goes through the API's own body reader (`src/api/request-body.ts`), so
 * a bad request is refused with the API's words. Failures are `TrustApiError`s as the live client throws.
 */
import { ApiError } from '../api/errors.js';
import type { Answer, HandlerContext } from '../api/route.js';
import { routeById } from '../api/routes.js';
import type { RouteId } from '../api/paths.js';
import { readJsonBody } from '../api/request-body.js';
import type { CheckAnswer } from '../model/check.js';
import { splitName, type ServerRecord, type Stats } from '../model/schema.js';
import { openSnapshot } from '../query/open.js';
import type { QueryEngine } from '../query/types.js';
import { queryOf as urlQuery, TrustApiError } from './client.js';
import type { RecordPage, ServerToolsData, SourceOrigin, TrustSource } from './trust-source.js';

/** How messages name where an offline answer came from. */
export const EMBEDDED_SOURCE_NAME = 'the offline snapshot';

/** What a handler may not do offline: issue keys or probe a counter store (no route asked here does). */
const OFFLINE_SERVICES: Pick<HandlerContext, 'issueKey' | 'store'> = {
  issueKey: () => Promise.reject(new Error('keys are issued by a deployment of the API, not offline')),
  store: { kind: 'memory', state: () => Promise.resolve('ok') },
};

/** The query string a handler reads: the live client's, without its `?`. */
const queryOf = (params: Record<string, string | number | undefined>) => urlQuery(params).replace(/^\?/, '');

/** An answer's `data` and the members of its `meta` the clients read (total, limit, offset). */
interface Answered {
  data: unknown;
  meta: Record<string, number>;
}

/**
 * A source over an opened engine (tests give one of their own; `openEmbeddedSource` opens the shipped one).
 * Its scores are as old as the newest `scored_at` among its records, which the origin carries.
 */
export async function createEmbeddedSource(
  engine: QueryEngine,
  about: Pick<Extract<SourceOrigin, { kind: 'embedded' }>, 'held' | 'note'> = {},
): Promise<TrustSource> {
  async function ask(id: RouteId, request: { query?: string; path?: Record<string, string>; body?: unknown }) {
    const route = routeById(id);
    try {
      if (route.needs !== undefined) await engine.ready(route.needs);
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
      const answer = await route.handler({
        engine,
        query: request.query ?? '',
        pathParams: request.path ?? {},
        nowMs: Date.now(),
        ...(body === undefined ? {} : { body }),
        ...OFFLINE_SERVICES,
      });
      return answered(engine, answer);
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

  const page = ({ data, meta }: Answered): RecordPage => {
    const items = data as ServerRecord[];
    return { items, total: meta.total ?? items.length, limit: meta.limit ?? items.length, offset: meta.offset ?? 0 };
  };

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
      return (await ask('get', { path })).data as ServerRecord;
    },
    async tools(name) {
      if (name.indexOf('/') <= 0) throw new RangeError('a server name is <namespace>/<id>');
      const { namespace, id } = splitName(name);
      const path = { namespace: encodeURIComponent(namespace), id: encodeURIComponent(id) };
      return (await ask('tools', { path })).data as ServerToolsData;
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
      return (await ask('stats', {})).data as Stats;
    },
    async lookup(by) {
      const answer = await ask('lookup', { query: queryOf({ ...by }) });
      const items = answer.data as ServerRecord[];
      return { items, total: answer.meta.total ?? items.length, limit: items.length, offset: 0 };
    },
    async check(request) {
      return (await ask('check', { body: request })).data as CheckAnswer;
    },
    close: () => engine.close(),
  };
}

/** A handler's answer as the `data` and `meta` the API would send: its records' text made as the gateway makes it. */
function answered(engine: QueryEngine, given: Answer): Answered {
  if (given.kind === 'live') return { data: JSON.parse(given.data) as unknown, meta: {} };
  if (given.kind !== 'cached') throw new Error(`a ${given.kind} answer is not one the offline source reads`);
  const computed = given.compute();
  if (computed === undefined) throw given.missing?.() ?? new ApiError('server_not_found', 'Not found');
  const meta = JSON.parse(`{${computed.metaTail.replace(/^,/, '')}}`) as Record<string, number>;
  if ('data' in computed) return { data: JSON.parse(computed.data) as unknown, meta };
  const text =
    typeof computed.records === 'number' ? engine.recordJson(computed.records) : engine.pageJson(computed.records);
  return { data: JSON.parse(text) as unknown, meta };
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
