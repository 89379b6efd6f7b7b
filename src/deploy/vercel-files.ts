/**
 * What the Vercel deployment needs from the route table: `vercel.json`'s rewrites (one per route, then the
 * JSON 404 for every other `/v1` path) and one function file in `api/` per route. Generated, never edited:
 * `scripts/generated-files.ts` writes them and a test keeps the committed ones equal to what this makes.
 */
import type { Route } from '../api/route.js';

/** The function of every other path of the API's families (the JSON 404) and of `/api` (the site's 404). */
export const NOT_FOUND_FILE = 'api/not-found.ts';
const NOT_FOUND_DESTINATION = '/api/not-found';

/**
 * The paths `npm start` hands to the gateway that no route matches (`isGatewayTarget` in src/api/paths.ts),
 * and `/api` itself: each to the not-found function, after every route. The patterns are unnamed groups, so the
 * platform appends nothing to the query; `/badges/(.*)` matches `/badges/` and below but not `/badges`,
 * which is the site's, as locally.
 */
export const NOT_FOUND_SOURCES = [
  '/v1',
  '/v1/(.*)',
  '/v0.1',
  '/v0.1/(.*)',
  '/badges/(.*)',
  '/feeds/(.*)',
  '/api',
  '/api/(.*)',
] as const;

export interface Rewrite {
  source: string;
  destination: string;
}

/** `/v1/servers/{namespace}/{id}` → `/v1/servers/:namespace/:id`, Vercel's path syntax. */
const vercelPath = (template: string) => template.replace(/\{([A-Za-z_]+)\}/g, ':$1');

/**
 * One rewrite per route, to its function, then the 404s. Every function has a static name (`api/history.ts`):
 * the platform makes no routes of its own for a static file, and the parameters a rewrite names reach the
 * function appended to the query, where `routeUrl` (src/http/vercel.ts) takes them off again.
 */
export function rewritesFor(routes: readonly Route[]): Rewrite[] {
  return [
    ...routes.map((route) => ({ source: vercelPath(route.path), destination: `/api/${route.id}` })),
    ...NOT_FOUND_SOURCES.map((source) => ({ source, destination: NOT_FOUND_DESTINATION })),
  ];
}

/** The file of `route` under `api/`: named after the route (`api/history.ts`), never a dynamic `[name]` file. */
export function functionFileOf(route: Route): string {
  return `api/${route.id}.ts`;
}

/**
 * The import path of `dist/vercel/vercel.mjs` (`src/http/vercel.ts` compiled by `npm run compile`, which `npm ci`
 * runs through `prepare`) from a file under `api/`. The platform compiles each function file on its own and
 * ships the files it imports as they are: through the compiled bundle a cold instance loads a few minified
 * files instead of every source module and zod's hundreds, which is most of a cold start (docs/performance.md).
 */
function handlerImport(file: string): string {
  const depth = file.split('/').length - 1;
  return `${'../'.repeat(depth)}dist/vercel/vercel.mjs`;
}

/** The source of the function file of `route` (or of the JSON 404 when `route` is undefined). */
export function functionSource(file: string, route: Route | undefined): string {
  const what =
    route === undefined
      ? [
          `Route: every other path of the API's families and of /api (vercel.json's rewrites of ${NOT_FOUND_SOURCES.join(', ')}):`,
          "the API's JSON 404 (`route_not_found`), or the site's HTML 404 for /api, as `npm start` answers them. Auth: none.",
        ]
      : [
          `Route: ${route.method === 'POST' ? 'POST|OPTIONS' : 'GET|HEAD|OPTIONS'} ${route.path} (${route.doc.summary}; vercel.json rewrites it here).`,
          route.keyed
            ? 'Auth: `X-API-Key`; every request with a valid key counts against its daily limit.'
            : 'Auth: none; never counted.',
        ];
  const argument = route === undefined ? '' : `'${route.id}'`;
  return [
    '/**',
    ...what.map((line) => ` * ${line}`),
    ' * Generated from the route table (src/api/routes.ts) by scripts/generated-files.ts: do not edit.',
    ' */',
    `import { vercelHandler } from '${handlerImport(file)}';`,
    '',
    `export default vercelHandler(${argument});`,
    '',
  ].join('\n');
}

/** Every function file: path → source. */
export function functionFiles(routes: readonly Route[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const route of routes) {
    const file = functionFileOf(route);
    files.set(file, functionSource(file, route));
  }
  files.set(NOT_FOUND_FILE, functionSource(NOT_FOUND_FILE, undefined));
  return files;
}
