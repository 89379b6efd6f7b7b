/**
 * What the Vercel deployment needs from the route table: `vercel.json`'s rewrites (one per route, then the
 * JSON 404 for every other `/v1` path) and one function file in `api/` per route. Generated, never edited:
 * `scripts/generated-files.ts` writes them and a test keeps the committed ones equal to what this makes.
 */
import type { Route } from '../api/route.js';

/** The rewrite that sends every other `/v1` path to the JSON 404, and its function. */
export const NOT_FOUND_SOURCE = '/v1/:path*';
export const NOT_FOUND_FILE = 'api/v1/not-found.ts';
/** Every other `/v0.1` path (the registry API's): the same function. */
export const REGISTRY_NOT_FOUND_SOURCE = '/v0.1/:path*';

export interface Rewrite {
  source: string;
  destination: string;
}

/** `/v1/servers/{namespace}/{id}` → `/v1/servers/:namespace/:id`, Vercel's path syntax. */
const vercelPath = (template: string) => template.replace(/\{([A-Za-z_]+)\}/g, ':$1');

/**
 * A path whose parameter carries a suffix (`{id}.svg`) cannot name a file segment by segment; such a route
 * gets one static function named after it, in the folder of its static prefix (`api/badges/badge.ts`).
 */
const hasSuffixParameter = (route: Route) => (route.path.split('/').at(-1) ?? '').includes('.');
const staticPrefix = (route: Route) =>
  route.path.includes('/{')
    ? route.path.slice(0, route.path.indexOf('/{'))
    : route.path.slice(0, route.path.lastIndexOf('/'));

/** One route per path: the rows of a path that answers several methods share its rewrite and its file. */
const onePerPath = (routes: readonly Route[]) =>
  routes.filter((route, index) => routes.findIndex((other) => other.path === route.path) === index);

/** The methods the rows of `route`'s path answer, as a function file's header names them. */
function methodsOf(route: Route, routes: readonly Route[]): string {
  const methods = new Set(routes.filter((other) => other.path === route.path).map((other) => other.method ?? 'GET'));
  const order = ['GET', 'HEAD', 'POST', 'DELETE'] as const;
  return [...order.filter((method) => methods.has(method === 'HEAD' ? 'GET' : method)), 'OPTIONS'].join('|');
}

export function rewritesFor(routes: readonly Route[]): Rewrite[] {
  return [
    ...onePerPath(routes).map((route) => ({
      source: vercelPath(route.path),
      destination: hasSuffixParameter(route)
        ? `/api${staticPrefix(route)}/${route.id}`
        : `/api${vercelPath(route.path)}`,
    })),
    // A trailing slash matches no route: the JSON 404 too, as locally (the catch-all below misses `/v1/`).
    { source: '/v1/', destination: '/api/v1/not-found' },
    { source: '/v1/:path+/', destination: '/api/v1/not-found' },
    // The registry API's other paths: the same 404, in the registry document's error shape.
    { source: REGISTRY_NOT_FOUND_SOURCE, destination: '/api/v1/not-found' },
    { source: NOT_FOUND_SOURCE, destination: '/api/v1/not-found' },
  ];
}

/**
 * The file of `route` under `api/`: its path with `[name]` for each parameter, or `index.ts` in a folder
 * when another route's path continues below it (`/v1/servers` beside `/v1/servers/{namespace}/{id}`).
 */
export function functionFileOf(route: Route, routes: readonly Route[]): string {
  if (hasSuffixParameter(route)) return `api${staticPrefix(route)}/${route.id}.ts`;
  const base = `api${route.path.replace(/\{([A-Za-z_]+)\}/g, '[$1]')}`;
  const hasChildren = routes.some((other) => other.path.startsWith(`${route.path}/`));
  return hasChildren ? `${base}/index.ts` : `${base}.ts`;
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
          `Route: every other path under /v1 (vercel.json's rewrite of ${NOT_FOUND_SOURCE}), so an unknown route gets`,
          "the API's JSON 404 (`route_not_found`) instead of the platform's HTML page. Auth: none.",
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

/** Every function file: path → source. */
export function functionFiles(routes: readonly Route[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const route of onePerPath(routes)) {
    const file = functionFileOf(route, routes);
    files.set(file, functionSource(file, route, routes));
  }
  files.set(NOT_FOUND_FILE, functionSource(NOT_FOUND_FILE, undefined));
  files.set(CRON_FILE, cronSource());
  return files;
}
