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
/** One route per path: the rows of a path that answers several methods share its rewrite and its file. */
const onePerPath = (routes: readonly Route[]) =>
  routes.filter((route, index) => routes.findIndex((other) => other.path === route.path) === index);

/** The first row of `route`'s path: the one its rewrite and its function file are named after. */
const firstOfPath = (route: Route, routes: readonly Route[]) =>
  routes.find((other) => other.path === route.path) ?? route;

/** The methods the rows of `route`'s path answer, as a function file's header names them. */
function methodsOf(route: Route, routes: readonly Route[]): string {
  const methods = new Set(routes.filter((other) => other.path === route.path).map((other) => other.method ?? 'GET'));
  const order = ['GET', 'HEAD', 'POST', 'DELETE'] as const;
  return [...order.filter((method) => methods.has(method === 'HEAD' ? 'GET' : method)), 'OPTIONS'].join('|');
}

export function rewritesFor(routes: readonly Route[]): Rewrite[] {
  return [
    ...onePerPath(routes).map((route) => ({ source: vercelPath(route.path), destination: `/api/${route.id}` })),
    ...NOT_FOUND_SOURCES.map((source) => ({ source, destination: NOT_FOUND_DESTINATION })),
  ];
}

/**
 * The file of `route` under `api/`: named after the first route of its path (`api/history.ts`), never a dynamic
 * `[name]` file; the routes of one path (one per method) share it, and the gateway picks by the method.
 */
export function functionFileOf(route: Route, routes: readonly Route[] = [route]): string {
  return `api/${firstOfPath(route, routes).id}.ts`;
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
export function functionSource(
  file: string,
  route: Route | undefined,
  routes: readonly Route[] = route ? [route] : [],
): string {
  const what =
    route === undefined
      ? [
          `Route: every other path of the API's families and of /api (vercel.json's rewrites of ${NOT_FOUND_SOURCES.join(', ')}):`,
          "the API's JSON 404 (`route_not_found`), or the site's HTML 404 for /api, as `npm start` answers them. Auth: none.",
        ]
      : [
          `Route: ${methodsOf(route, routes)} ${route.path} (${routes
            .filter((other) => other.path === route.path)
            .map((other) => other.doc.summary)
            .join(', ')}; vercel.json rewrites it here).`,
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

/** The platform cron's function (webhook deliveries; `vercel.json`'s `crons` calls it). */
export const CRON_FILE = 'api/cron/notify.ts';
export const CRON_PATH = '/api/cron/notify';

function cronSource(): string {
  return [
    '/**',
    ` * Route: GET ${CRON_PATH}, called by the platform's cron (vercel.json \`crons\`) with \`Authorization: Bearer $CRON_SECRET\`:`,
    ' * one webhook dispatcher run (src/http/cron.ts). Not an API route: no key, never counted.',
    ' * Generated by scripts/generated-files.ts: do not edit.',
    ' */',
    `import { notifyCronHandler } from '${handlerImport(CRON_FILE)}';`,
    '',
    'export default notifyCronHandler();',
    '',
  ].join('\n');
}

/**
 * `api/tsconfig.json`. `@vercel/node` compiles each function with the `tsconfig.json` nearest to it, and type
 * checks it in a program of every file that configuration includes, made again for each function: with the
 * project's own, that is every test and script, once per function, most of a `vercel build`. This one has the
 * project's settings and only the function files, so a function is checked against what it imports and no more.
 */
export const FUNCTIONS_TSCONFIG = [
  '// The settings of ../tsconfig.json for the function files alone (src/deploy/vercel-files.ts says why).',
  '// Generated by scripts/generated-files.ts: do not edit.',
  JSON.stringify({ extends: '../tsconfig.json', include: ['**/*.ts'] }, null, 2),
  '',
].join('\n');

/** Every function file: path → source, and the functions' `api/tsconfig.json`. */
export function functionFiles(routes: readonly Route[]): Map<string, string> {
  const files = new Map<string, string>([['api/tsconfig.json', FUNCTIONS_TSCONFIG]]);
  for (const route of onePerPath(routes)) {
    const file = functionFileOf(route, routes);
    files.set(file, functionSource(file, route, routes));
  }
  files.set(NOT_FOUND_FILE, functionSource(NOT_FOUND_FILE, undefined));
  files.set(CRON_FILE, cronSource());
  return files;
}
