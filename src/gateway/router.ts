/**
 * The matcher over the route table: a path → its route and the raw values of its `{name}` segments. Paths
 * without parameters are one map lookup; the others are compared segment by segment (a parameter matches
 * one non-empty segment, never a `/`).
 */
import type { Route } from '../api/route.js';

export interface RouteMatch {
  /** The first route of the path (the only one, but for paths that answer several methods). */
  route: Route;
  /** Every route of the path, one per method it answers (Webhooks: GET and POST on one path). */
  routes: readonly Route[];
  /** The methods the path answers, as `Allow` and the preflight list them (made once per path). */
  allowed: string;
  /** The `{name}` segments, still percent-encoded. */
  pathParams: Record<string, string>;
}

export interface Router {
  match(path: string): RouteMatch | undefined;
  /** The routes as the 404 lists them: `GET /v1/health, /v1/stats, ...`. */
  readonly listing: string;
}

/** One segment of a route's path: a literal, or a parameter with the literal suffix its segment ends with. */
type Segment = { literal: string } | { param: string; suffix: string };

export function createRouter(routes: readonly Route[]): Router {
  const fixed = new Map<string, RouteMatch>();
  // The parameterised routes by their number of segments, each segment read once here, not per request.
  const patterns = new Map<number, { route: Route; routes: Route[]; allowed: string; segments: Segment[] }[]>();
  const byPath = new Map<string, Route[]>();
  for (const route of routes) {
    const same = byPath.get(route.path);
    if (same === undefined) byPath.set(route.path, [route]);
    else same.push(route);
  }
  for (const [path, sameRoutes] of byPath) {
    const route = sameRoutes[0]!;
    const allowed = allowedMethods(sameRoutes);
    if (!path.includes('{')) {
      fixed.set(path, { route, routes: sameRoutes, allowed, pathParams: {} });
      continue;
    }
    const segments = route.path.split('/').map((segment): Segment => {
      if (!segment.startsWith('{')) return { literal: segment };
      // `{id}.svg`: the parameter, then a literal suffix the segment must end with.
      const close = segment.indexOf('}');
      return { param: segment.slice(1, close), suffix: segment.slice(close + 1) };
    });
    const sameLength = patterns.get(segments.length) ?? [];
    sameLength.push({ route, routes: sameRoutes, allowed, segments });
    patterns.set(segments.length, sameLength);
  }
  const listing = `GET ${routes.map((route) => route.listedAs ?? route.path).join(', ')}`;

  function matchPattern(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
    const values: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const expected = segments[i]!;
      const part = parts[i]!;
      if ('literal' in expected) {
        if (part !== expected.literal) return undefined;
        continue;
      }
      const { suffix } = expected;
      if (!part.endsWith(suffix) || part.length === suffix.length) return undefined;
      values[expected.param] = part.slice(0, part.length - suffix.length);
    }
    return values;
  }

  return {
    listing,
    match(path) {
      const found = fixed.get(path);
      if (found !== undefined) return found;
      const parts = path.split('/');
      for (const { route, routes: sameRoutes, allowed, segments } of patterns.get(parts.length) ?? []) {
        const pathParams = matchPattern(segments, parts);
        if (pathParams !== undefined) return { route, routes: sameRoutes, allowed, pathParams };
      }
      return undefined;
    },
  };
}

/** The methods the routes of one path answer, as `Allow` and the preflight list them. */
export function allowedMethods(routes: readonly Route[]): string {
  const methods = new Set(routes.map((route) => route.method ?? 'GET'));
  const order = ['GET', 'HEAD', 'POST', 'DELETE'] as const;
  const listed = order.filter((method) => methods.has(method === 'HEAD' ? 'GET' : method));
  return [...listed, 'OPTIONS'].join(', ');
}
