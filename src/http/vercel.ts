/**
 * What every file in `api/` shares: a Node `(req, res)` handler that answers through the process's one
 * service context (created on the first request of a warm instance) and the one Node adapter.
 *
 * URLs on Vercel: `vercel.json` rewrites `/v1/...` to the functions in `api/v1/...`. A rewritten request
 * keeps the path the client asked for, and the platform appends the parameters the rewrite matched (and
 * a dynamic file's segments) to the query string: `/v1/servers/a/b` reaches `api/v1/servers/[namespace]/[id]`
 * as `/v1/servers/a/b?namespace=a&id=b`. The gateway refuses unknown parameters, so `routeUrl` removes
 * those appended parameters before the gateway sees the URL. If the platform ever hands over the
 * destination path (`/api/v1/...`) instead, it is mapped back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathParamNames, ROUTE_PATHS, type RouteId } from '../api/paths.js';
import { getServiceContext } from '../service/runtime.js';
import { createNodeHandler } from './node-adapter.js';

/**
 * `url` as the client sent it: without the parameters the platform appended for the route's dynamic
 * segments, and with an `/api/v1` path prefix mapped to `/v1`.
 *
 * `segments` names the route's dynamic segments, which are the last segments of its path, in order
 * (`['namespace', 'id']` for `/v1/servers/:namespace/:id`). A query parameter is removed when its name is
 * one of them and its value is that segment's value; whether the platform appends them once or twice,
 * nothing a client sent is lost (Get Server takes no query parameters, and a client repeating the path
 * in the query would be refused anyway).
 */
export function routeUrl(url: string, segments: readonly string[]): string {
  const question = url.indexOf('?');
  let path = question === -1 ? url : url.slice(0, question);
  const query = question === -1 ? '' : url.slice(question + 1);
  if (path === '/api/v1' || path.startsWith('/api/v1/')) path = path.slice('/api'.length);
  if (query === '' || segments.length === 0) return query === '' ? path : `${path}?${query}`;
  const parts = path.split('/');
  // A path segment is percent-decoded only: `+` in a path is a plus sign, not a space (that is the query's rule).
  const expected = new Map(
    segments.map((name, index) => [name, decodePathSegment(parts[parts.length - segments.length + index] ?? '')]),
  );
  const kept = query.split('&').filter((pair) => {
    const equals = pair.indexOf('=');
    const name = safeDecode(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : safeDecode(pair.slice(equals + 1));
    return !(expected.has(name) && expected.get(name) === value);
  });
  return kept.length === 0 ? path : `${path}?${kept.join('&')}`;
}

/** Path-segment decoding; text that is not valid percent-encoding is kept as is. */
function decodePathSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Query-string decoding (`+` is a space); text that is not valid percent-encoding is kept as is. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The handler of one `api/` file: route `route`'s (none for the JSON 404). The route's path parameters are
 * the segments Vercel also appends to the query string (see `routeUrl`).
 */
export function vercelHandler(route?: RouteId): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const segments = route === undefined ? [] : pathParamNames(ROUTE_PATHS[route]);
  return createNodeHandler(
    { handle: async (request) => (await getServiceContext()).gateway.handle(request) },
    { url: (request) => routeUrl(request.url ?? '/', segments) },
  );
}

/** The platform cron's handler (`api/cron/notify.ts`): webhook deliveries, see `src/http/cron.ts`. */
export { notifyCronHandler } from './cron.js';
