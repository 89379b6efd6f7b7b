/**
 * `npx tsx scripts/generated-files.ts [--check]`: write every file made from the route table, the schemas
 * and the vocabulary: `public/openapi.json`, `public/vocabulary.js`, `public/404.html`, `vercel.json`'s rewrites, the
 * function files in `api/`, and what the documents say about the routes (`scripts/lib/route-docs.ts`). `--check`
 * only says which are out of date (a test does the same).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { format, resolveConfig } from 'prettier';
import { openApiJson } from '../src/api/openapi.js';
import { ROUTES } from '../src/api/routes.js';
import { functionFiles, rewritesFor } from '../src/deploy/vercel-files.js';
import { vocabularyModule } from '../src/model/vocabulary.js';
import { SITE_NOT_FOUND_PAGE } from '../src/http/site-not-found.js';
import { replaceGenerated, routeDocParts } from './lib/route-docs.js';
import { runMain } from './lib/main.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every generated file: repository-relative path → content. `vercel.json` keeps what is not generated. */
export async function generatedFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set('public/openapi.json', await openApiJson());
  files.set('public/vocabulary.js', vocabularyModule());
  // The platform serves it for a path it has no file for: the same page `npm start` answers with.
  files.set('public/404.html', SITE_NOT_FOUND_PAGE);
  const vercel = JSON.parse(await readFile(path.join(ROOT, 'vercel.json'), 'utf8')) as Record<string, unknown>;
  vercel.rewrites = rewritesFor(ROUTES);
  files.set('vercel.json', `${JSON.stringify(vercel, null, 2)}\n`);
  for (const [file, source] of functionFiles(ROUTES)) files.set(file, source);
  files.set('public/js/config-check.js', await configCheckModule());
  for (const [file, parts] of Object.entries(routeDocParts(ROUTES))) files.set(file, await documentWith(file, parts));
  files.set('public/js/jsonc-parser.js', await jsoncParserModule());
  return files;
}

/** A document with its generated parts made again, formatted as `npm run format` would leave it. */
async function documentWith(file: string, parts: Record<string, string>): Promise<string> {
  const full = path.join(ROOT, file);
  let text = await readFile(full, 'utf8');
  for (const [name, content] of Object.entries(parts)) text = replaceGenerated(text, name, content, file);
  return format(text, { ...(await resolveConfig(full)), filepath: full });
}

/**
 * The CLI's configuration parsing and entry mapping, bundled as one ES module for the site; the JSON parser
 * it uses (`jsonc-parser`) is a module of its own beside it, so this one stays readable.
 */
async function configCheckModule(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli/browser.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    plugins: [
      {
        name: 'jsonc-parser-beside',
        setup(context) {
          context.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: './jsonc-parser.js', external: true }));
        },
      },
    ],
    banner: { js: '// Generated from src/cli/browser.ts by scripts/generated-files.ts: do not edit.' },
  });
  // In the quotes of the site's own modules.
  return (result.outputFiles[0]?.text ?? '').replace('from "./jsonc-parser.js"', "from './jsonc-parser.js'");
}

/** `jsonc-parser` (VS Code's parser of JSON with comments, MIT) as one minified ES module for the site. */
async function jsoncParserModule(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['node_modules/jsonc-parser/lib/esm/main.js'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    minify: true,
    legalComments: 'none',
    banner: { js: '// jsonc-parser (MIT, Microsoft), bundled by scripts/generated-files.ts: do not edit.' },
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Files under `api/` that no route makes: left over from a route that was removed or moved. */
export async function strayFunctionFiles(expected: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) await walk(relative);
      else if (!expected.has(relative)) found.push(relative);
    }
  };
  if (existsSync(path.join(ROOT, 'api'))) await walk('api');
  return found;
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const files = await generatedFiles();
  const stray = await strayFunctionFiles(new Set(files.keys()));
  let stale = 0;
  for (const [file, content] of files) {
    const current = await readFile(path.join(ROOT, file), 'utf8').catch(() => undefined);
    if (current === content) continue;
    stale++;
    if (check) {
      console.error(`${file} is out of date`);
    } else {
      await mkdir(path.dirname(path.join(ROOT, file)), { recursive: true });
      await writeFile(path.join(ROOT, file), content);
      console.log(`wrote ${file}`);
    }
  }
  for (const file of stray) {
    stale++;
    if (check) console.error(`${file} belongs to no route`);
    else {
      await rm(path.join(ROOT, file));
      console.log(`removed ${file}`);
    }
  }
  if (check && stale > 0) {
    console.error('run: npx tsx scripts/generated-files.ts');
    return 1;
  }
  if (stale === 0) console.log('every generated file is up to date');
  return 0;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runMain(main);
