/**
 * A `vercel build` output (`.vercel/output`, Build Output API v3) served the way the platform serves it:
 * the routes of `config.json` applied in order and in their phases (the routes before `handle: filesystem`,
 * the filesystem, the routes after it with `check`, then `handle: miss` and `handle: error`), static files
 * from `static/`, and each function started from its `.vc-config.json` in a fresh Node process, from a copy
 * of its folder (and of the files its `filePathMap` names) outside the repository.
 *
 * What a function receives follows the platform: the path the client asked for, its query string, then the
 * parameters the matched route's destination names appended (`?namespace=a&id=b`, the values as the path had
 * them); `x-real-ip` and `x-forwarded-for` set to the client's address whatever the client sent; `VERCEL=1`
 * in the environment; a request context whose `waitUntil` `@vercel/functions` finds. A path nothing answers
 * gets the platform's plain-text `NOT_FOUND`. Matching is case-insensitive, as the platform's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface Route {
  src?: string;
  dest?: string;
  status?: number;
  headers?: Record<string, string>;
  continue?: boolean;
  check?: boolean;
  handle?: string;
}

/** Where a routed request ends: a function, a static file, or a status of the platform's own. */
type Target =
  | { kind: 'function'; name: string; appended: string; status?: number }
  | { kind: 'file'; file: string; status: number }
  | { kind: 'missing' };

/** The launcher of one function process: the handler, served on a free port, inside a request context. */
const LAUNCHER = `
import http from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import { pathToFileURL } from 'node:url';
const storage = new AsyncLocalStorage();
globalThis[Symbol.for('@vercel/request-context')] = { get: () => storage.getStore() };
const started = performance.now();
const module = await import(pathToFileURL(process.env.PLATFORM_HANDLER).href);
const handler = typeof module.default === 'function' ? module.default : module.default.default;
const importMs = performance.now() - started;
const server = http.createServer((request, response) => {
  const pending = [];
  storage.run({ waitUntil: (work) => pending.push(work) }, () => handler(request, response));
});
server.listen(0, '127.0.0.1', () => console.log('PLATFORM ' + JSON.stringify({ port: server.address().port, importMs })));
`;

export interface FunctionProcess {
  port: number;
  importMs: number;
  /** When the process was spawned (performance.now() of the platform's process). */
  spawnedAt: number;
  child: ChildProcess;
}

export interface Platform {
  base: string;
  /** The function processes started so far, by function name (`api/history`). */
  functions: Map<string, FunctionProcess>;
  close(): Promise<void>;
}

/** Serve `output` (a `.vercel/output` folder) of the project in `project`, with `env` for every function. */
export async function servePlatform(output: string, project: string, env: Record<string, string>): Promise<Platform> {
  const config = JSON.parse(await readFile(path.join(output, 'config.json'), 'utf8')) as { routes: Route[] };
  const phases = new Map<string, Route[]>();
  let phase = 'initial';
  for (const route of config.routes) {
    if (route.handle !== undefined) phase = route.handle;
    else phases.set(phase, [...(phases.get(phase) ?? []), route]);
  }
  const work = await mkdtemp(path.join(tmpdir(), 'mts-platform-run-'));
  const functions = new Map<string, FunctionProcess>();
  const starting = new Map<string, Promise<FunctionProcess>>();

  const functionFolder = (name: string) => path.join(output, 'functions', `${name}.func`);
  const isFunction = (name: string) => existsSync(path.join(functionFolder(name), '.vc-config.json'));
  const staticFile = (pathname: string): string | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    if (decoded.split('/').some((segment) => segment === '..')) return undefined;
    for (const candidate of [decoded, path.posix.join(decoded, 'index.html')]) {
      const file = path.join(output, 'static', candidate);
      if (existsSync(file) && statSync(file).isFile()) return file;
    }
    return undefined;
  };
  /** What the filesystem holds at `pathname`: a function or a static file. */
  const filesystem = (pathname: string, appended: string, status = 200): Target | undefined => {
    const name = pathname.replace(/^\/+/, '').replace(/\/+$/, '');
    // A function named `index` answers for its folder's path too (`api/v1/servers/index` at `/api/v1/servers`).
    for (const candidate of name === '' ? [] : [name, `${name}/index`]) {
      if (isFunction(candidate)) return { kind: 'function', name: candidate, appended, status };
    }
    const file = staticFile(pathname);
    return file === undefined ? undefined : { kind: 'file', file, status };
  };

  /** Match `route` against `pathname`: the destination with `$n` filled in, or undefined. */
  function apply(route: Route, pathname: string): { path: string; query: string } | undefined {
    if (route.src === undefined) return undefined;
    const match = new RegExp(route.src, 'i').exec(pathname);
    if (match === null) return undefined;
    const dest = (route.dest ?? pathname).replace(/\$(\d+)/g, (_, index: string) => match[Number(index)] ?? '');
    const question = dest.indexOf('?');
    return question === -1
      ? { path: dest, query: '' }
      : { path: dest.slice(0, question), query: dest.slice(question + 1) };
  }

  function route(pathname: string): Target {
    let current = pathname;
    let appended = '';
    for (const candidate of phases.get('initial') ?? []) {
      const applied = apply(candidate, current);
      if (applied === undefined) continue;
      current = applied.path;
      if (applied.query !== '') appended = applied.query;
      if (!candidate.continue) break;
    }
    const found = filesystem(current, appended);
    if (found !== undefined) return found;
    let status: number | undefined;
    for (const candidate of phases.get('filesystem') ?? []) {
      const applied = apply(candidate, current);
      if (applied === undefined) continue;
      if (candidate.status !== undefined && candidate.dest === undefined) {
        status = candidate.status;
        break;
      }
      current = applied.path;
      if (applied.query !== '') appended = applied.query;
      if (candidate.continue) continue;
      const target = filesystem(current, appended);
      if (target !== undefined) return target;
      for (const miss of phases.get('miss') ?? []) {
        const missed = apply(miss, current);
        const retried = missed === undefined ? undefined : filesystem(missed.path, missed.query || appended);
        if (retried !== undefined) return retried;
      }
      if (!candidate.check) break;
    }
    if (status === undefined || status === 404) {
      for (const candidate of phases.get('error') ?? []) {
        const applied = apply(candidate, pathname);
        if (applied === undefined || candidate.status !== 404) continue;
        const page = filesystem(applied.path, '', 404);
        if (page !== undefined) return page;
      }
    }
    return { kind: 'missing' };
  }

  async function startFunction(name: string): Promise<FunctionProcess> {
    const folder = functionFolder(name);
    const vc = JSON.parse(await readFile(path.join(folder, '.vc-config.json'), 'utf8')) as {
      handler: string;
      filePathMap?: Record<string, string>;
    };
    const copy = path.join(work, name.replace(/\//g, '_'));
    await cp(folder, copy, { recursive: true, dereference: true });
    for (const [to, from] of Object.entries(vc.filePathMap ?? {}))
      await cp(path.join(project, from), path.join(copy, to));
    const launcher = path.join(copy, '___platform_launcher.mjs');
    await writeFile(launcher, LAUNCHER);
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, [launcher], {
      cwd: copy,
      env: { PATH: process.env.PATH ?? '', ...env, VERCEL: '1', PLATFORM_HANDLER: path.join(copy, vc.handler) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise((resolve, reject) => {
      let buffered = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const line = /PLATFORM (\{.*\})/.exec(buffered);
        if (line?.[1] === undefined) return;
        buffered = '';
        const { port, importMs } = JSON.parse(line[1]) as { port: number; importMs: number };
        resolve({ port, importMs, spawnedAt, child });
      });
      child.once('exit', (code) => reject(new Error(`function ${name} exited (${code}) before listening`)));
    });
  }

  function functionProcess(name: string): Promise<FunctionProcess> {
    let started = starting.get(name);
    if (started === undefined) {
      started = startFunction(name).then((process) => {
        functions.set(name, process);
        return process;
      });
      starting.set(name, started);
    }
    return started;
  }

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = request.url ?? '/';
      const question = url.indexOf('?');
      const pathname = question === -1 ? url : url.slice(0, question);
      const target = route(pathname);
      if (target.kind === 'missing') {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('The page could not be found\n\nNOT_FOUND\n');
        return;
      }
      if (target.kind === 'file') {
        const body = await readFile(target.file);
        const type = target.file.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream';
        response.writeHead(target.status, { 'content-type': type, 'content-length': String(body.length) });
        response.end(request.method === 'HEAD' ? undefined : body);
        return;
      }
      const fn = await functionProcess(target.name);
      const query = [question === -1 ? '' : url.slice(question + 1), target.appended].filter((part) => part !== '');
      const headers = { ...request.headers, 'x-real-ip': '127.0.0.1', 'x-forwarded-for': '127.0.0.1' };
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: fn.port,
          method: request.method,
          path: `${pathname}${query.length ? `?${query.join('&')}` : ''}`,
          headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    functions,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      for (const fn of functions.values()) {
        fn.child.kill();
        if (fn.child.exitCode === null) await new Promise((resolve) => fn.child.once('exit', resolve));
      }
      await rm(work, { recursive: true, force: true });
    },
  };
}
