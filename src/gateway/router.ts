/**
 * The matcher over the route table: a path → its route and the raw values of its `{name}` segments. Paths
 * without parameters are one map lookup; the others are compared segment by segment (a parameter matches
 * one non-empty segment, never a `/`).
 */
import type { Route } from '../api/route.js';

export interface RouteMatch {
  route: Route;
  /** The `{name}` segments, still percent-encoded. */
  pathParams: Record<string, string>;
}

export interface Router {
  match(path: string): RouteMatch | undefined;
  /** The routes as the 404 lists them: `GET /v1/health, /v1/stats, ...`. */
  readonly listing: string;
}

export function createRouter(routes: readonly Route[]): Router {
  const fixed = new Map<string, RouteMatch>();
  const patterns: { route: Route; segments: string[] }[] = [];
  for (const route of routes) {
    if (route.path.includes('{')) patterns.push({ route, segments: route.path.split('/') });
    else fixed.set(route.path, { route, pathParams: {} });
  }
  const listing = `GET ${routes.map((route) => route.listedAs ?? route.path).join(', ')}`;

  function matchPattern(segments: readonly string[], path: string): Record<string, string> | undefined {
    const parts = path.split('/');
    if (parts.length !== segments.length) return undefined;
    const values: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const expected = segments[i] ?? '';
      const part = parts[i] ?? '';
      if (expected.startsWith('{')) {
        // `{id}.svg`: the parameter, then a literal suffix the segment must end with.
        const close = expected.indexOf('}');
        const suffix = expected.slice(close + 1);
        if (!part.endsWith(suffix) || part.length === suffix.length) return undefined;
        values[expected.slice(1, close)] = part.slice(0, part.length - suffix.length);
      } else if (part !== expected) {
        return undefined;
      }
    }
    return values;
  }

  return {
    listing,
    match(path) {
      const found = fixed.get(path);
      if (found !== undefined) return found;
      for (const { route, segments } of patterns) {
        const pathParams = matchPattern(segments, path);
        if (pathParams !== undefined) return { route, pathParams };
      }
      return undefined;
    },
  };
}
