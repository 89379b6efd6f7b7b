/**
 * `npm start` runs its compiled bundle through V8's code cache (scripts/lib/code-cache.ts): a start with no
 * cache writes one after its first answer, the next start takes it, and a cache V8 refuses (made from another
 * source, or not a cache at all) is compiled past and written again. Each start is a process of its own: within
 * one process V8 finds a script it compiled before in its own memory and never looks at the cache given.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeCacheFile } from '../../scripts/lib/code-cache.js';
import { makeTempDir } from '../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** A start: runs the bundle through the code cache, answers one request, prints what it did with the cache. */
const START = `
import http from 'node:http';
import { runWithCodeCache } from './scripts/lib/code-cache.ts';
const use = runWithCodeCache(process.argv[2]);
const server = http.createServer((_request, response) => response.end('ok'));
server.listen(0, '127.0.0.1', async () => {
  await (await fetch('http://127.0.0.1:' + server.address().port + '/')).text();
  server.close();
  setTimeout(() => console.log(use), 100);
});`;

let folder: string;
let start: string;
beforeAll(async () => {
  folder = await makeTempDir('code-cache-');
  start = path.join(folder, 'start.mjs');
  await build({
    stdin: { contents: START, resolveDir: ROOT, sourcefile: 'start.ts', loader: 'ts' },
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: start,
    logLevel: 'silent',
  });
});

/** A CommonJS bundle whose body prints that it ran, with Node's module arguments and a `require`. */
async function bundleNamed(name: string): Promise<string> {
  const bundle = path.join(folder, name);
  await writeFile(bundle, "console.log('ran', require('node:path').basename(__filename), typeof module.exports);\n");
  return bundle;
}

/** One start of `bundle` in a process of its own: its lines. */
function startOnce(bundle: string): string[] {
  const result = spawnSync(process.execPath, [start, bundle], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.trim().split('\n');
}

describe('the code cache of a bundle', () => {
  it('is written after the first answer of a start that had none, and taken by the next start', async () => {
    const bundle = await bundleNamed('serve-start-FIRST.cjs');
    expect(startOnce(bundle)).toEqual(['ran serve-start-FIRST.cjs object', 'none']);
    const written = readFileSync(codeCacheFile(bundle));
    expect(startOnce(bundle)).toEqual(['ran serve-start-FIRST.cjs object', 'accepted']);
    // A start that took the cache leaves it as it was.
    expect(readFileSync(codeCacheFile(bundle)).equals(written)).toBe(true);
  });

  it('is refused when V8 did not make it from this bundle, and then written again (the check can fail)', async () => {
    const bundle = await bundleNamed('serve-start-PLANTED.cjs');
    const planted = [Buffer.from('not a code cache'), new vm.Script('"another source";').createCachedData()];
    for (const cache of planted) {
      await writeFile(codeCacheFile(bundle), cache);
      expect(startOnce(bundle)).toEqual(['ran serve-start-PLANTED.cjs object', 'rejected']);
      expect(readFileSync(codeCacheFile(bundle)).equals(cache)).toBe(false);
      expect(startOnce(bundle)).toEqual(['ran serve-start-PLANTED.cjs object', 'accepted']);
    }
  });
});
