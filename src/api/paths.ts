/**
 * The path of every route, as an OpenAPI path template, and the one way to fill a template in. The route
 * table (`routes.ts`) binds each path to its handler; the MCP client and the generated Vercel files use the
 * paths alone, without pulling in the handlers and the engine behind them.
 */

export const ROUTE_PATHS = {
  health: '/v1/health',
  stats: '/v1/stats',
  list: '/v1/servers',
  get: '/v1/servers/{namespace}/{id}',
  search: '/v1/search',
  lookup: '/v1/lookup',
  check: '/v1/check',
  keys: '/v1/keys',
  history: '/v1/servers/{namespace}/{id}/history',
  explain: '/v1/servers/{namespace}/{id}/explain',
  tools: '/v1/servers/{namespace}/{id}/tools',
  changes: '/v1/changes',
  badge: '/badges/{namespace}/{id}.svg',
  feedChanges: '/feeds/changes.atom',
  feedServer: '/feeds/servers/{namespace}/{id}.atom',
  webhookCreate: '/v1/webhooks',
  webhookList: '/v1/webhooks',
  webhookGet: '/v1/webhooks/{id}',
  webhookDelete: '/v1/webhooks/{id}',
  webhookTest: '/v1/webhooks/{id}/test',
  registryList: '/v0.1/servers',
  registryVersions: '/v0.1/servers/{serverName}/versions',
  registryVersion: '/v0.1/servers/{serverName}/versions/{version}',
} as const;

/** The path prefixes the gateway answers (everything else is the site's). */
export const GATEWAY_PREFIXES = ['/v1', '/badges/', '/feeds/', '/v0.1/'] as const;

/** The prefix of the MCP registry API (`/v0.1`), whose errors take the registry document's shape. */
export const REGISTRY_PREFIX = '/v0.1';

/** Whether `path` (a request target, or an absolute URL) is under the registry API, in any letter case. */
export function isRegistryTarget(path: string): boolean {
  const lower = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').slice(0, 6).toLowerCase();
  return lower === REGISTRY_PREFIX || lower === `${REGISTRY_PREFIX}/` || lower === `${REGISTRY_PREFIX}?`;
}

/** Whether `url` (a request target) is the gateway's, in any letter case. */
export function isGatewayTarget(url: string): boolean {
  const lower = url.slice(0, 8).toLowerCase();
  return (
    lower === '/v1' ||
    lower.startsWith('/v1/') ||
    lower.startsWith('/v1?') ||
    lower.startsWith('/badges/') ||
    lower.startsWith('/feeds/') ||
    lower === '/v0.1' ||
    lower.startsWith('/v0.1/') ||
    lower.startsWith('/v0.1?')
  );
}

export type RouteId = keyof typeof ROUTE_PATHS;

/** The names of a template's `{name}` segments, in order. */
export function pathParamNames(template: string): string[] {
  return template
    .split('/')
    .filter((segment) => segment.startsWith('{'))
    .map((segment) => segment.slice(1, segment.indexOf('}')));
}

/**
 * Whether `value`, once percent-encoded, is a dot segment: `.` or `..` (encodeURIComponent leaves dots as they
 * are, and `%2e%2e` written in a value becomes `%252e%252e`, no longer one).
 */
export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/**
 * `template` with each `{name}` replaced by its value, percent-encoded (so `/` in a value stays one segment);
 * a value that would be a dot segment is refused.
 */
export function fillPath(template: string, values: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    // A URL parser resolves `.` and `..` (encoded as `%2e` too, so encoding cannot save them), and `servers/../stats` would ask for another route with the caller's key (issue 38, L7).
    if (isDotSegment(value)) throw new RangeError(`path parameter ${name} may not be "." or ".."`);
    return encodeURIComponent(value);
  });
}
