/**
 * Production runs compiled JavaScript: `npm start` is a plain `node dist/serve.mjs` (dist/ written by
 * `npm ci` through `prepare`, or `npm run compile`), and the compiled server answers as the TypeScript one
 * does, with no TypeScript loader anywhere in it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeCacheFile } from '../../scripts/lib/code-cache.js';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';
import { childEnv, REPO } from './process.js';

let dir: string;
beforeAll(async () => {
  // dist/ was compiled by the global setup (test/support/compile.ts), as `npm ci` compiles it.
  dir = await mkdtemp(path.join(tmpdir(), 'mts-compiled-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the compiled entry points', () => {
  it('are what npm start, the MCP wrapper and the CLI run', async () => {
    const scripts = (
      JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.start).toBe('node dist/serve.mjs');
    expect(scripts.prepare).toBe('node scripts/compile.mjs');
    const bin = await readFile(path.join(REPO, 'bin', 'mcp-trust-score.js'), 'utf8');
    expect(bin).toContain('../dist/${name}.mjs');
  });

  it('load no TypeScript loader', async () => {
    // dist/vercel/ (the functions' build) included.
    const files = (await readdir(path.join(REPO, 'dist'), { recursive: true })).filter((file) => file.endsWith('.mjs'));
    expect(files).toContain(path.join('vercel', 'vercel.mjs'));
    for (const file of files) {
      expect(await readFile(path.join(REPO, 'dist', file), 'utf8'), file).not.toMatch(/from ["']tsx/);
    }
  });

  it('serve the API from node dist/serve.mjs, leaving the code cache of its bundle', async () => {
    const child = spawn(process.execPath, ['dist/serve.mjs'], {
      cwd: REPO,
      env: childEnv({
        HOST: '127.0.0.1',
        PORT: '0',
        SNAPSHOT_DIR: await buildTestSnapshot(RECORDS),
        API_KEYS: 'compiled-test-key',
        KEYS_FILE: path.join(dir, 'keys.json'),
      }),
    });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const match = /Listening on (http:\/\/\S+)/.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const response = await fetch(`${base}/v1/servers/io.github.acme/postgres-mcp`, {
        headers: { 'X-API-Key': 'compiled-test-key' },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: { name: string } }).data.name).toBe('io.github.acme/postgres-mcp');
      // Stopped after its first answer, the server has left V8's code cache of its bundle beside it for the
      // next start (scripts/lib/code-cache.ts; test/scripts/code-cache.test.ts shows it taken and refused).
      child.kill();
      await once(child, 'exit');
      const bundle = (await readdir(path.join(REPO, 'dist'))).find((file) => /^serve-start-\w+\.cjs$/.test(file));
      expect(existsSync(codeCacheFile(path.join(REPO, 'dist', bundle!)))).toBe(true);
    } finally {
      child.kill();
    }
  }, 30_000);

  it("start the build's worker threads from their compiled modules in dist/", async () => {
    // The builder (dist/build.mjs) is what `npm start`'s bundle imports when it builds; its workers sit beside it.
    const bundle = (await readdir(path.join(REPO, 'dist'))).find((file) => /^serve-start-\w+\.cjs$/.test(file));
    expect(bundle).toBeDefined();
    // Through `importModule`: a script run from V8's code cache has no `import()` of its own.
    const text = await readFile(path.join(REPO, 'dist', bundle!), 'utf8');
    expect(text).toContain('importModule("./build.mjs")');
    expect(text).not.toMatch(/[^\w$.]import\(/);
    await writeFile(
      path.join(dir, 'servers.ndjson'),
      RECORDS.map((record) => JSON.stringify(record)).join('\n') + '\n',
    );
    const script = `
      const { buildSnapshotWithDiff } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'dist', 'build.mjs')).href)});
      const built = await buildSnapshotWithDiff({ input: 'servers.ndjson', out: 'snapshot', workers: 'always' });
      console.log(JSON.stringify({ checkedBy: built.checkedBy, wordIndexesMadeBy: built.wordIndexesMadeBy }));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ checkedBy: 'worker', wordIndexesMadeBy: 'worker' });
  }, 30_000);
});
