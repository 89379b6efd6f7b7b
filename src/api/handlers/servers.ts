/**
 * The handlers of the server routes: List Servers, Get Server and Search. Each validates its request with
 * the schemas of `src/model/schema.ts` and names a cached answer by its normalised request, so two URLs that
 * mean the same thing share one cache entry and one ETag.
 */
import { type ListParams, SEARCH_IN, ServerPathSchema } from '../../model/schema.js';
import type { SearchField } from '../../query/types.js';
import { ApiError, quote } from '../errors.js';
import { assertNoParams, parseListParams, parseSearchParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';

export function listServers({ engine, query }: HandlerContext): Answer {
  const params = parseListParams(query);
  return {
    kind: 'cached',
    key: `list\n${listKey(params)}`,
    compute: () => {
      const page = engine.listIds(params);
      const meta = { total: page.total, limit: params.limit, offset: params.offset };
      return { data: { kind: 'records', ids: page.ids }, meta };
    },
  };
}

/**
 * The server a `/v1/servers/{namespace}/{id}[/...]` path names, checked as the decisions ask (each segment
 * percent-decoded, no `/` in either, the name's rules); the route takes no query parameters. Shared by Get
 * Server, its history and its explanation, so the three refuse a path with the same words.
 */
export function serverPath(query: string, pathParams: Readonly<Record<string, string>>): { name: string; id: string } {
  const namespace = decodeSegment('namespace', pathParams.namespace ?? '');
  const id = decodeSegment('id', pathParams.id ?? '');
  assertNoParams(query);
  const path = ServerPathSchema.safeParse({ namespace, id });
  if (!path.success) {
    const problems = path.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
    throw new ApiError('invalid_parameter', `Invalid path: ${problems.join('; ')}`);
  }
  return { name: `${namespace}/${id}`, id };
}

/** The 404 of a name the snapshot does not hold, with the search that may find it. */
export const serverNotFound = (name: string, id: string) => () =>
  new ApiError(
    'server_not_found',
    `Server ${quote(name, 100)} was not found. Names are <namespace>/<id>; to find a server, search: ` +
      `GET /v1/search?q=${encodeURIComponent(id.slice(0, 40))}`,
  );

export function getServer({ engine, query, pathParams }: HandlerContext): Answer {
  const { name, id } = serverPath(query, pathParams);
  return {
    kind: 'cached',
    key: `get\n${name.toLowerCase()}`,
    compute: () => {
      const id = engine.getId(name);
      return id === undefined ? undefined : { data: { kind: 'records', ids: id }, meta: {} };
    },
    missing: serverNotFound(name, id),
  };
}

export async function searchServers({ engine, query }: HandlerContext): Promise<Answer> {
  const params = parseSearchParams(query);
  const fields = searchFields(params.in);
  // The description index loads in the background after the name index; a search of descriptions that
  // comes first waits for it (the route's own part, names, is ready by now).
  if (fields.includes('description')) await engine.ready('descriptions');
  return {
    kind: 'cached',
    key: `search\n${JSON.stringify([params.q, params.limit, params.offset, fields])}`,
    compute: () => {
      const page = engine.searchIds(params.q, params.limit, { offset: params.offset, in: fields });
      const meta = { total: page.total, limit: params.limit, offset: params.offset };
      return { data: { kind: 'records', ids: page.ids }, meta };
    },
  };
}

/** `in` as a list without repeats, in a fixed order (`description,name` and `name,description` are one search). */
function searchFields(text: string): SearchField[] {
  const given = new Set(text.split(','));
  return SEARCH_IN.filter((field) => given.has(field));
}

/** One path segment of a server name, percent-decoded; never a `/` (a name has exactly one). */
export function decodeSegment(name: 'namespace' | 'id', segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new ApiError('invalid_parameter', `Invalid path: ${name} is not valid percent-encoding`);
  }
  // A name has exactly one "/", the one between namespace and id; an encoded one would make a second.
  if (decoded.includes('/')) {
    throw new ApiError(
      'invalid_parameter',
      `Invalid path: ${name} may not contain "/" (%2F); a server name is <namespace>/<id> with exactly one "/"`,
    );
  }
  return decoded;
}

/** List parameters as a cache key. Filters match case-insensitively, so their case does not split entries. */
function listKey(params: ListParams): string {
  return JSON.stringify([
    params.limit,
    params.offset,
    params.sort,
    params.order,
    params.min_score ?? null,
    params.flags?.toLowerCase() ?? null,
    params.target?.toLowerCase() ?? null,
    params.namespace?.toLowerCase() ?? null,
  ]);
}
