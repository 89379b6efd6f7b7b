/**
 * Files made from the route table and the schemas (`public/openapi.json`, `vercel.json`'s rewrites, the
 * function files in `api/`, the route count and index in `docs/`) are committed exactly as `scripts/generated-files.ts` makes them, and cover
 * exactly the table's routes: adding a route is a row in the table and a run of that script.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_PATHS } from '../src/api/paths.js';
import { ROUTES } from '../src/api/routes.js';
import { functionFileOf, NOT_FOUND_SOURCES } from '../src/deploy/vercel-files.js';
import { generatedFiles, strayFunctionFiles } from '../scripts/generated-files.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the generated files', () => {
  it('are each up to date (run: npx tsx scripts/generated-files.ts)', async () => {
    const files = await generatedFiles();
    expect(files.size).toBeGreaterThan(ROUTES.length);
    for (const [file, content] of files) expect(await readFile(path.join(ROOT, file), 'utf8'), file).toBe(content);
  });

  it('leaves no function file in api/ that belongs to no route', async () => {
    expect(await strayFunctionFiles(new Set((await generatedFiles()).keys()))).toEqual([]);
  });

  it("rewrites exactly the table's routes, in its order, then every other path of the API's families and /api to the 404", async () => {
    const config = JSON.parse(await readFile(path.join(ROOT, 'vercel.json'), 'utf8')) as {
      rewrites: { source: string }[];
    };
    const sources = config.rewrites.map((rewrite) => rewrite.source);
    expect(sources).toEqual([
      ...[...new Set(ROUTES.map((route) => route.path))].map((path) => path.replace(/\{(\w+)\}/g, ':$1')),
      ...NOT_FOUND_SOURCES,
    ]);
  });

  it('gives every path its own function file (the methods of one path share it), and every path of ROUTE_PATHS a row', () => {
    const files = ROUTES.map((route) => functionFileOf(route, ROUTES));
    expect(new Set(files).size).toBe(new Set(ROUTES.map((route) => route.path)).size);
    for (const [index, route] of ROUTES.entries()) {
      for (const [other, file] of files.entries()) {
        if (file === files[index]) expect(ROUTES[other]!.path).toBe(route.path);
      }
    }
    expect(ROUTES.map((route) => route.id).sort()).toEqual(Object.keys(ROUTE_PATHS).sort());
    for (const route of ROUTES) expect(route.path).toBe(ROUTE_PATHS[route.id]);
  });
});
