/**
 * `npx tsx scripts/openapi.ts [--check]`: write `public/openapi.json`, the OpenAPI document generated from
 * the zod schemas (`src/api/openapi.ts`). `npm run build` calls `writeOpenApiDocument` when a build succeeds, so
 * the committed document follows the schemas; `--check` only reports whether the file is up to date.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiJson } from '../src/api/openapi.js';
import { writeFileAtomically } from '../src/format/atomic-write.js';
import { runMain } from './lib/main.js';

/** Where the site serves the document from (`/openapi.json`). */
export const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'openapi.json');

/**
 * Write the document to `file` when its content differs; returns whether it changed. Written to a temporary
 * file and renamed, so the server never serves half a document.
 */
export async function writeOpenApiDocument(file: string = OPENAPI_FILE): Promise<boolean> {
  const text = await openApiJson();
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === text) return false;
  await writeFileAtomically(file, text);
  return true;
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const relative = path.relative(process.cwd(), OPENAPI_FILE);
  if (check) {
    const current = await readFile(OPENAPI_FILE, 'utf8').catch(() => undefined);
    if (current === (await openApiJson())) {
      console.log(`${relative} is up to date`);
      return 0;
    }
    console.error(`${relative} is out of date: run npx tsx scripts/openapi.ts`);
    return 1;
  }
  const changed = await writeOpenApiDocument();
  console.log(changed ? `wrote ${relative}` : `${relative} is up to date`);
  return 0;
}

// Run only as a command, not when `scripts/build.ts` imports `writeOpenApiDocument`.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runMain(main);
