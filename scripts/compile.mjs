// `npm run compile` (and `prepare`, so `npm ci` runs it): the production entry points as plain JavaScript
// in dist/, so `npm start`, the MCP wrapper and the CLI compile no TypeScript at run time. One esbuild bundle
// per entry, with shared chunks, so a store's client library is loaded only when that store is chosen.
//
// Plain JavaScript on purpose: it must run before anything is compiled. Without esbuild (an install with
// --omit=dev, as the GitHub Action does) it says so and leaves the entry points to run through tsx.
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `--quiet`: nothing on the output unless it fails (`npm run rescore` compiles first, and its output is the night's).
const say = process.argv.includes('--quiet') ? () => {} : (line) => console.log(line);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  say('compile: esbuild is not installed (a production-only install); the entry points will run through tsx');
  process.exit(0);
}

/** Resolves zod's `locales/index.js` to a module exporting only `en`. */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js') }
        : undefined,
    );
  },
};

/**
 * Whether folder `a` (a new build) holds the same files with the same bytes as `b` (dist/; false when missing).
 * The code caches `npm start` writes in dist/ do not count, nor one being written (`<cache>.<pid>.<hex>.tmp`):
 * each is named for its bundle's content, so it stays right for an unchanged build.
 */
async function sameFiles(a, b) {
  const list = (dir) =>
    readdir(dir, { recursive: true, withFileTypes: true }).then((entries) =>
      entries
        .filter((entry) => entry.isFile() && !entry.name.includes('.v8-cache'))
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
        .sort(),
    );
  let names;
  try {
    names = [await list(a), await list(b)];
  } catch (error) {
    if (error.code === 'ENOENT') return false;
    throw error;
  }
  if (names[0].join('\0') !== names[1].join('\0')) return false;
  for (const name of names[0]) {
    const [x, y] = await Promise.all([readFile(path.join(a, name)), readFile(path.join(b, name))]);
    if (!x.equals(y)) return false;
  }
  return true;
}

const started = performance.now();
// Written aside and swapped in, so a process running dist/ (a test, a server) never sees half of it.
const temporary = `${outdir}.tmp-${process.pid}`;
await rm(temporary, { recursive: true, force: true });
const options = {
  absWorkingDir: root,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The ES module build of a package first: jsonc-parser's CommonJS build loads its parts by a require()
  // that a bundle cannot follow.
  mainFields: ['module', 'main'],
  // The project's small dependencies are bundled in: Node loads one file far faster than zod's hundreds of
  // modules. The remote stores' clients and the MCP SDK stay in node_modules, loaded when used.
  external: [
    'redis',
    '@upstash/redis',
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/sdk/*',
    'tsx',
    'tsx/*',
    'esbuild',
  ],
  // CommonJS dependencies (fast-glob) call require(); an ES module has none unless it makes one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // zod's index re-exports every locale (about 370 KB of the bundle); the service speaks English only, so the
  // locale index is replaced by one that re-exports English, and Node parses half as much at every start.
  plugins: [englishOnlyZod],
  // Whitespace and syntax only: names stay, so a stack trace from production still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};
// `npm start`: scripts/serve.ts as one CommonJS file, which dist/serve.mjs runs through V8's code cache
// (scripts/lib/code-cache.ts says why; an ES module's compiled code cannot be cached on Node 20). Its name holds
// a hash of its content, so a cache written beside it never meets another source. A build of its own: what the
// MCP wrapper and the CLI use (the record validators, the API client) stays out of the file every start reads.
// The snapshot builder (a third of the code, loaded only when the snapshot is missing or stale) stays an ES
// module beside it, dist/build.mjs. The bundle cannot `import()` it itself: a script run from V8's code cache
// loses Node's dynamic import callback (and Node 20's own for vm scripts warns that it is experimental), so
// the builder's import in scripts/serve.ts is replaced by a module that asks `importModule`, which
// scripts/lib/code-cache.ts gives the bundle, for it. Its exports are the ones scripts/serve.ts uses: a new one
// fails this build.
const builder = {
  name: 'builder-apart',
  setup(build) {
    build.onResolve({ filter: /\/snapshot-build\/build\.js$/ }, (args) =>
      args.importer === path.join(root, 'scripts', 'serve.ts')
        ? { path: 'builder', namespace: 'builder-apart' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'builder-apart' }, () => ({
      contents:
        "export const buildSnapshotWithDiff = async (...args) => (await importModule('./build.mjs')).buildSnapshotWithDiff(...args);",
      loader: 'js',
    }));
  },
};
const start = await esbuild.build({
  ...options,
  entryPoints: { 'serve-start': 'scripts/serve.ts' },
  entryNames: '[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  splitting: false,
  banner: {},
  plugins: [englishOnlyZod, builder],
  // `import.meta` is empty in CommonJS: a module that reads it must not be in this file.
  logOverride: { 'empty-import-meta': 'error' },
  metafile: true,
  outdir: temporary,
});
const bundle = path.basename(Object.keys(start.metafile.outputs).find((file) => file.endsWith('.cjs')));
await esbuild.build({
  ...options,
  entryPoints: { serve: 'scripts/serve-cached.ts' },
  splitting: false,
  define: { SERVE_BUNDLE: JSON.stringify(bundle) },
  banner: {},
  outdir: temporary,
});
// The snapshot builder, and its worker threads beside it (src/snapshot-build/worker-module.ts), in a build of
// their own too.
await esbuild.build({
  ...options,
  entryPoints: {
    build: 'src/snapshot-build/build.ts',
    'schema-check-worker': 'src/snapshot-build/schema-check-worker.ts',
    'word-index-worker': 'src/snapshot-build/word-index-worker.ts',
  },
  outdir: temporary,
});
await esbuild.build({ ...options, entryPoints: { mcp: 'scripts/mcp.ts', cli: 'scripts/cli.ts' }, outdir: temporary });
// `npm run rescore` (the night, and the tests that run it) runs dist/rescore/rescore.mjs, so no start of it
// compiles TypeScript. A build of its own, so the MCP wrapper's and the CLI's chunks stay as they were, in a
// folder of its own, which the package leaves out (package.json `files`) as it does dist/vercel/.
await esbuild.build({
  ...options,
  entryPoints: { rescore: 'scripts/rescore.ts' },
  outdir: path.join(temporary, 'rescore'),
});
// What every function file in api/ imports (src/deploy/vercel-files.ts says why), in a build of its own
// under dist/vercel/: sharing chunks with the entries above would split `npm start`'s graph into more files.
await esbuild.build({
  ...options,
  entryPoints: { vercel: 'src/http/vercel.ts' },
  outdir: path.join(temporary, 'vercel'),
});
// The function files are TypeScript and type-checked: they see the compiled module's types from its source.
await writeFile(
  path.join(temporary, 'vercel', 'vercel.d.mts'),
  "// The types of vercel.mjs, compiled from src/http/vercel.ts by scripts/compile.mjs.\nexport { notifyCronHandler, vercelHandler } from '../../src/http/vercel.js';\n",
);
// A build that wrote exactly what dist/ already holds leaves dist/ alone: `npm test` compiles before it starts
// tsc beside the tests, and the e2e project's global setup compiles again; swapping the folder then would let
// tsc, which reads dist/vercel/vercel.d.mts for the function files' types, find no dist/ for a moment.
if (await sameFiles(temporary, outdir)) {
  await rm(temporary, { recursive: true, force: true });
  say(`compile: dist/ is current (checked in ${Math.round(performance.now() - started)} ms)`);
  process.exit(0);
}
const old = `${outdir}.old-${process.pid}`;
await rename(outdir, old).catch((error) => {
  if (error.code !== 'ENOENT') throw error;
});
await rename(temporary, outdir);
await rm(old, { recursive: true, force: true });
say(`compile: dist/ written in ${Math.round(performance.now() - started)} ms`);
