/**
 * Running `npm start`'s compiled server through V8's code cache (issue 42). Reading and compiling the
 * server's JavaScript was the largest part of a start above Node's own, and Node 20 caches no module's
 * compiled code (`module.enableCompileCache()` is 22.1+). A classic script can be given V8's cache of itself,
 * so the server is compiled by scripts/compile.mjs as one CommonJS bundle, run here as the body of a function
 * (as Node runs a CommonJS module) with the cache of its last run: the functions the start compiled then
 * (the modules' bodies, zod, the Get Server path) are read back instead of compiled again.
 *
 * The cache is the bundle's file name plus Node's version and architecture: V8 refuses a cache from another
 * V8, another flag set, or a source of another length, and the bundle's name holds a hash of its content, so
 * a cache never meets a source it was not made from. When there is none yet, or V8 refused it, the bundle is
 * compiled from its source as any script is, and the cache of what it compiled up to its first answer is
 * written beside it after that answer (all or nothing); a folder that cannot be written (a read-only install)
 * only means no cache, the same start as before.
 */
import diagnostics from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { writeFilesAtomically } from '../../src/format/atomic-write.js';

/** Node publishes each finished response of its HTTP servers here. */
const FIRST_RESPONSE = 'http.server.response.finish';

/**
 * How long after its first answer a process that runs on writes the cache: long enough that the start's
 * loading and first requests are over, short enough that V8 has not yet dropped the start's compiled code
 * (it flushes what has not run for a while).
 */
const WRITE_AFTER_MS = 60_000;

/** Where the code cache of `bundle` is kept for this Node. */
export function codeCacheFile(bundle: string): string {
  return `${bundle}.${process.version}-${process.arch}.v8-cache`;
}

/**
 * The arguments Node gives a CommonJS module's body, and `importModule`: the bundle's way to load an ES module
 * beside it (scripts/compile.mjs says why it has no `import()` of its own).
 */
type ModuleBody = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
  importModule: (specifier: string) => Promise<unknown>,
) => void;

/** What a start did with the code cache: none found, V8 took it, or V8 refused it (then it is written again). */
export type CodeCacheUse = 'none' | 'accepted' | 'rejected';

/** Runs the CommonJS `bundle` (an absolute path) as Node would, with its code cache when there is one. */
export function runWithCodeCache(bundle: string): CodeCacheUse {
  const cacheFile = codeCacheFile(bundle);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet (a first start since `npm run compile`, or another Node): this start writes it.
  }
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, importModule) {${readFileSync(bundle, 'utf8')}\n})`,
    { filename: bundle, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  const use = cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  if (use !== 'accepted') writeAfterFirstAnswer(script, cacheFile);
  const module = { exports: {} };
  const body = script.runInThisContext() as ModuleBody;
  const importModule = (specifier: string) => import(new URL(specifier, pathToFileURL(bundle)).href);
  body(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle), importModule);
  return use;
}

/**
 * Once the first response has been sent, the cache of every function compiled by then (the start and the first
 * answer) is written: when the process exits, or a minute after that answer if it runs on. Never at the
 * answer itself: making the cache holds the event loop for tens of milliseconds, which the requests and the
 * snapshot's loading that follow a first answer should not wait for. In one synchronous step, so nothing is
 * left half written.
 */
function writeAfterFirstAnswer(script: vm.Script, cacheFile: string): void {
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    try {
      writeFilesAtomically([[cacheFile, script.createCachedData()]]);
    } catch {
      // A folder this process may not write: the next start compiles from the source again.
    }
  };
  const firstAnswer = () => {
    diagnostics.unsubscribe(FIRST_RESPONSE, firstAnswer);
    process.once('exit', write);
    setTimeout(write, WRITE_AFTER_MS).unref();
  };
  diagnostics.subscribe(FIRST_RESPONSE, firstAnswer);
}
