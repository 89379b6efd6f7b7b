/**
 * What every file in `api/` shares: a Node `(req, res)` handler that answers through the process's one
 * service context (created on the first request of a warm instance) and the one Node adapter.
 *
 * URLs on Vercel: `vercel.json` rewrites each route's public path to its function (`/v1/servers/a/b/history`
 * to `api/history`). A rewritten request keeps the path the client asked for, and the platform appends the
 * parameters the rewrite named to the query string: `/v1/servers/a/b/history?namespace=a&id=b`. The gateway
 * refuses unknown parameters, so `routeUrl` removes those, judging by the path: the gateway then sees what
 * the client sent and reads every path parameter from the path, never from the appended query.
 *
 * A path outside the API (`/api/...` asked directly, which reaches a function without a rewrite) gets the
 * site's 404, as `npm start` answers it. The client address is the one the platform names (`x-real-ip`,
 * as `@vercel/functions` reads it), and the snapshot's remaining parts load under the platform's `waitUntil`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { waitUntil } from '@vercel/functions';
import { ipAddress } from '@vercel/functions/headers';
import { isGatewayTarget, ROUTE_PATHS, type RouteId } from '../api/paths.js';
import { getServiceContext } from '../service/runtime.js';
import { createNodeHandler } from './node-adapter.js';
import { answerSiteNotFound } from './static-files.js';

/**
 * `url` as the client sent it: without the parameters the platform appended for the route's path template
 * `template` (`/v1/servers/{namespace}/{id}/history`). A query pair is the platform's when its name is one of
 * the template's parameters and its value, read as the platform may have written it (percent-encoded or raw,
 * `+` as a plus sign or as a space), is that parameter's segment of the path. Whether the platform appends
 * them once or twice, nothing else the client sent is lost (a client repeating a path parameter in the
 * query with the same value loses only that repetition).
 */
export function routeUrl(url: string, template: string | undefined): string {
  const question = url.indexOf('?');
  if (question === -1 || template === undefined) return url;
  const path = url.slice(0, question);
  const values = templateValues(template, path);
  if (values === undefined) return url;
  const kept = url
    .slice(question + 1)
    .split('&')
    .filter((pair) => !isAppended(pair, values));
  return kept.length === 0 ? path : `${path}?${kept.join('&')}`;
}

/** The decoded value of each `{name}` of `template` in `path`, or undefined when `path` is not of it. */
function templateValues(template: string, path: string): Map<string, string> | undefined {
  const expected = template.split('/');
  const parts = path.split('/');
  if (expected.length !== parts.length) return undefined;
  const values = new Map<string, string>();
  for (const [index, segment] of expected.entries()) {
    const part = parts[index]!;
    if (!segment.startsWith('{')) {
      if (segment.toLowerCase() !== part.toLowerCase()) return undefined;
      continue;
    }
    const close = segment.indexOf('}');
    const suffix = segment.slice(close + 1);
    if (!part.toLowerCase().endsWith(suffix.toLowerCase()) || part.length === suffix.length) return undefined;
    // A path segment is percent-decoded only: `+` in a path is a plus sign, not a space.
    values.set(segment.slice(1, close), percentDecoded(part.slice(0, part.length - suffix.length)));
  }
  return values;
}

function isAppended(pair: string, values: ReadonlyMap<string, string>): boolean {
  const equals = pair.indexOf('=');
  const name = percentDecoded((equals === -1 ? pair : pair.slice(0, equals)).replace(/\+/g, ' '));
  const expected = values.get(name);
  if (expected === undefined) return false;
  const raw = equals === -1 ? '' : pair.slice(equals + 1);
  return percentDecoded(raw) === expected || percentDecoded(raw.replace(/\+/g, ' ')) === expected;
}

/** Percent-decoding; text that is not valid percent-encoding is kept as is. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The client's address as the platform names it (`x-real-ip`), when it is an IP address; otherwise the
 * connection's. The platform sets the header itself on every request, whatever the client sent.
 */
export function platformClientAddress(request: IncomingMessage): string | undefined {
  const named = ipAddress({
    get: (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : null;
    },
  });
  return named !== undefined && isIP(named) !== 0 ? named : request.socket.remoteAddress;
}

/**
 * The handler of one `api/` file: route `route`'s, or (none) the JSON 404 of every other path of the API's
 * families and the site's 404 of every other `/api` path.
 */
export function vercelHandler(route?: RouteId): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const template = route === undefined ? undefined : ROUTE_PATHS[route];
  const answer = createNodeHandler(
    // Work after the answer (the rest of the snapshot) is handed to the platform's `waitUntil`, so an
    // instance is not frozen half-loaded once it has answered.
    { handle: async (request) => (await getServiceContext({ afterAnswer: waitUntil })).gateway.handle(request) },
    { url: (request) => routeUrl(request.url ?? '/', template), address: platformClientAddress },
  );
  return async (request, response) => {
    if (isGatewayTarget(request.url ?? '/')) await answer(request, response);
    else answerSiteNotFound(request, response);
  };
}

/** The platform cron's handler (`api/cron/notify.ts`): webhook deliveries, see `src/http/cron.ts`. */
export { notifyCronHandler } from './cron.js';
