// `npm run compile` (and `prepare`, so `npm ci` runs it): the production entry points as plain JavaScript
// in dist/, so `npm start`, the MCP wrapper and the CLI compile no TypeScript at run time. One esbuild bundle
// per entry, with shared chunks, so a store's client library is loaded only when that store is chosen.
//
// Plain JavaScript on purpose: it must run before anything is compiled. Without esbuild (an install with
// --omit=dev, as the GitHub Action does) it says so and leaves the entry points to run through tsx.
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.log('compile: esbuild is not installed (a production-only install); the entry points will run through tsx');
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
// `npm start` in a build of its own: chunks shared with the MCP wrapper and the CLI would put what only they
// use (the record validators, the API client) into the files every start loads. The two builds write one
// folder; a chunk's name is the hash of its content, so a name both write is the same file.
await esbuild.build({ ...options, entryPoints: { serve: 'scripts/serve.ts' }, outdir: temporary });
// The build's worker threads, beside the builder's chunk that starts them (src/snapshot-build/worker-module.ts):
// a build of their own too, so the modules they share with serve stay in serve's chunks.
await esbuild.build({
  ...options,
  entryPoints: {
    'schema-check-worker': 'src/snapshot-build/schema-check-worker.ts',
    'word-index-worker': 'src/snapshot-build/word-index-worker.ts',
  },
  outdir: temporary,
});
await esbuild.build({ ...options, entryPoints: { mcp: 'scripts/mcp.ts', cli: 'scripts/cli.ts' }, outdir: temporary });
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
const old = `${outdir}.old-${process.pid}`;
await rename(outdir, old).catch((error) => {
  if (error.code !== 'ENOENT') throw error;
});
await rename(temporary, outdir);
await rm(old, { recursive: true, force: true });
console.log(`compile: dist/ written in ${Math.round(performance.now() - started)} ms`);
