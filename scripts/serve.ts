/**
 * `npm start`: the API under /v1 and the `public/` site, on HOST:PORT (default 127.0.0.1:3000).
 *
 * On a fresh clone it builds the default snapshot from `data/` first (and rebuilds it when the committed
 * dataset changed since); when no key is configured at all (no `API_KEYS`, no issued key in the store) it
 * creates a local free-plan key and prints it once, with a curl command to try. Request log lines are JSON,
 * one per request, on stdout. SIGINT/SIGTERM stop it gracefully.
 */
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loadConfig } from '../src/service/config.js';
import { OperatorError } from '../src/errors/operator-error.js';
import { StoreUnavailableError } from '../src/stores/types.js';
import { runMain } from './lib/main.js';
import { isGatewayTarget } from '../src/api/paths.js';
import { createBufferedLineWriter, formatRequestLogLine } from '../src/gateway/log.js';
import {
  createClientErrorHandler,
  createConnectHandler,
  createNodeHandler,
  lacksRequiredHost,
  NODE_SERVER_OPTIONS,
  originForm,
  refuseMissingHost,
} from '../src/http/node-adapter.js';
import { createStaticHandler } from '../src/http/static-files.js';
import { notifyWarnings } from '../src/notify/warnings.js';
import { generateKey, hashKey, hashPrefix } from '../src/keys/keys.js';
import { PLANS } from '../src/keys/plans.js';
import { createServiceContext, type ServiceContext } from '../src/service/runtime.js';
import {
  DEFAULT_INPUT_GLOB,
  DEFAULT_SNAPSHOT_DIR,
  defaultCatalogData,
  defaultRegistryData,
} from '../src/format/paths.js';
import { snapshotIsStale } from '../src/snapshot-build/staleness.js';

/** How long open requests get to finish after a stop signal before connections are cut. */
const SHUTDOWN_GRACE_MS = 5000;
/** What webhook attempts under way get after a stop signal before they are interrupted (events stay due). */
const NOTIFY_STOP_GRACE_MS = 3000;
/** The longest a stop may take, whatever is still open: then the process exits regardless. */
const SHUTDOWN_BOUND_MS = 10_000;
const PUBLIC_DIR = path.resolve('public');

function fail(message: string): never {
  throw new OperatorError(message);
}

function display(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative === '' || relative.startsWith('..') ? file : relative;
}

/** Build the default snapshot when it is missing or older than the committed dataset. */
async function ensureDefaultSnapshot(): Promise<void> {
  const registry = await defaultRegistryData();
  const catalog = await defaultCatalogData();
  if (!(await snapshotIsStale(DEFAULT_SNAPSHOT_DIR, DEFAULT_INPUT_GLOB, registry, undefined, catalog))) return;
  console.log(`Building the snapshot of ${DEFAULT_INPUT_GLOB} into ${display(DEFAULT_SNAPSHOT_DIR)}/ ...`);
  const started = performance.now();
  let built;
  try {
    // Loaded only when a build is needed: the builder (the record validators, the index writers) is a third of
    // the bundle, and a start with a current snapshot should not pay to parse it.
    const { buildSnapshotWithDiff } = await import('../src/snapshot-build/build.js');
    built = await buildSnapshotWithDiff({ input: DEFAULT_INPUT_GLOB, out: DEFAULT_SNAPSHOT_DIR, registry, catalog });
  } catch (error) {
    fail(`Cannot build the snapshot: ${error instanceof Error ? error.message : String(error)}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const { manifest, checkedBy } = built;
  console.log(
    `Built snapshot ${manifest.snapshot_id.slice(0, 12)} (${manifest.record_count} servers) in ${seconds} s ` +
      `(schema checked on ${checkedBy === 'worker' ? 'a worker thread' : 'the build thread'})`,
  );
}

/** When no key is configured anywhere, issue a local free-plan key; returns it (to print once) or undefined. */
async function ensureLocalKey(context: ServiceContext): Promise<string | undefined> {
  if (context.config.apiKeyHashes.length > 0) return undefined;
  let issued;
  try {
    issued = await context.store.listKeys();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    throw new OperatorError(
      `Cannot reach the ${context.store.kind} store at start to look for issued keys (${error.message}); ` +
        `check ${context.store.kind === 'redis' ? 'REDIS_URL' : 'UPSTASH_REDIS_REST_URL'}, or set API_KEYS`,
    );
  }
  if (issued.length > 0) return undefined;
  const key = generateKey();
  await context.store.addKey({
    hash: hashKey(key),
    plan: 'free',
    label: 'local (created by npm start)',
    created_at: new Date().toISOString(),
  });
  return key;
}

/** Stops with one line when `WEBHOOK_SECRETS_KEY` opens no stored signing secret (`key-check.ts`). */
async function checkWebhookKey(context: ServiceContext): Promise<void> {
  const { secretsKey, previousSecretsKeys } = context.config.notify;
  if (context.notifications === undefined || secretsKey === undefined) return;
  const { checkSecretsKey, keyCheckLine } = await import('../src/notify/key-check.js');
  let check;
  try {
    check = await checkSecretsKey(context.store, secretsKey, previousSecretsKeys);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    console.error(`notify: WEBHOOK_SECRETS_KEY not checked at start: the ${context.store.kind} store did not answer`);
    return;
  }
  const verdict = keyCheckLine(check);
  if (verdict?.fatal === true) fail(verdict.line);
  if (verdict !== undefined) console.error(verdict.line);
  if (check.resealed > 0) {
    console.log(
      `Sealed the signing secrets of ${check.resealed} webhook subscription(s) again under the new WEBHOOK_SECRETS_KEY.`,
    );
  }
}

function addressOf(server: http.Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

async function main(): Promise<void> {
  // How long the event loop is ever held, from here until the snapshot is fully loaded (reported then).
  const eventLoop = monitorEventLoopDelay({ resolution: 5 });
  eventLoop.enable();
  const config = loadConfig();

  if (config.snapshotDir === undefined) await ensureDefaultSnapshot();

  const logs = createBufferedLineWriter();
  process.on('exit', () => logs.flush()); // log lines gather for up to 100 ms; none is lost on exit
  const context = await createServiceContext(config, { log: (line) => logs.write(formatRequestLogLine(line)) });
  const { engine, store } = context;
  const newKey = await ensureLocalKey(context);
  await checkWebhookKey(context);

  const api = createNodeHandler(context.gateway);
  const files = createStaticHandler(PUBLIC_DIR);
  const refuse = context.gateway.refuse;
  const server = http.createServer(NODE_SERVER_OPTIONS, (request, response) => {
    if (lacksRequiredHost(request)) {
      refuseMissingHost(response, refuse);
      return;
    }
    // A target in absolute form (`GET http://host/v1/stats`) means what its origin form means.
    const url = originForm(request.url ?? '/');
    request.url = url;
    // Any letter case: `/V1/stats` gets the API's JSON 404, never the site's page.
    const isApi = isGatewayTarget(url);
    void (isApi ? api(request, response) : files(request, response));
  });
  // What Node's parser refuses (malformed HTTP, oversized headers, slow clients) and CONNECT are answered
  // with the API's error body too, instead of Node's bare status line or a silent close.
  server.on('clientError', createClientErrorHandler(refuse));
  server.on('connect', createConnectHandler(refuse));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') fail(`${config.host}:${config.port} is already in use; set PORT to another port`);
    if (error.code === 'EADDRNOTAVAIL') fail(`HOST=${config.host} is not an address of this machine`);
    if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
      fail(`HOST=${config.host} does not resolve to an address; set HOST to an IP address or a resolvable name`);
    }
    if (error.code === 'EACCES')
      fail(`PORT=${config.port} needs privileges this process lacks; choose a port above 1023`);
    throw error;
  });

  const base = addressOf(server);
  const snapshot = engine.snapshot;
  console.log(
    `Serving snapshot ${snapshot.id.slice(0, 12)} (${snapshot.recordCount} servers, built ${snapshot.generatedAt}) ` +
      `from ${display(context.snapshotDir)}/ with the ${store.kind} store ` +
      `(snapshot loaded in ${Math.round(context.loadMs)} ms; ready ${Math.round(performance.now())} ms after process start)`,
  );
  if (newKey !== undefined) {
    const limit = config.freeDailyLimit;
    const where = store.kind === 'memory' ? ` in ${display(config.keysFile)}` : ` in the ${store.kind} store`;
    console.log(
      [
        '',
        `No API key was configured, so a local ${PLANS.free.name}-plan key was created (${limit} requests a day).`,
        `It is shown only this once; only its hash (${hashPrefix(hashKey(newKey))}...) is kept${where}.`,
        'More keys: npm run keys -- create',
        '',
        `  API key: ${newKey}`,
        '',
        'Try it:',
        `  curl -H "X-API-Key: ${newKey}" ${base}/v1/stats`,
        '',
      ].join('\n'),
    );
  }
  console.log(`Listening on ${base} (API under ${base}/v1, site from ${display(PUBLIC_DIR)}/)`);
  for (const line of notifyWarnings({ ...config.notify, store: config.store })) console.log(line);
  // Webhooks: the served snapshot's changes at start (once per snapshot, whichever instance is first) and
  // due retries, then every WEBHOOKS_INTERVAL_SECONDS.
  const notifying =
    context.notifications === undefined
      ? undefined
      : (await import('../src/notify/schedule.js')).scheduleDispatching(
          context.notifications.dispatcher,
          () => engine,
          config.notify.intervalMs,
        );
  // The rest of the snapshot (list indexes, search index, lookup table; the history's bytes are checked)
  // loads in the background, a slice at a time, while requests are answered: from the first answer on, or
  // 100 ms after listening if none comes, so a cold instance's first answer does not share the processor
  // with it. A request that needs a part before then starts that part at once and waits for it only. A
  // part that fails its check is never served: the server says which file and why, and stops.
  let loading: Promise<void> | undefined;
  const loadTheRest = () => {
    loading ??= engine.loadAll().then(
      () => {
        eventLoop.disable();
        const readyAt = [...engine.readyAt()].map(([part, at]) => `${part} ${Math.round(at)} ms`).join(', ');
        console.log(
          `Snapshot fully loaded ${Math.round(performance.now())} ms after process start ` +
            `(the event loop was held at most ${(eventLoop.max / 1e6).toFixed(1)} ms at a time; ready: ${readyAt})`,
        );
      },
      (error: unknown) => shutDown(1, error instanceof Error ? error.message : String(error)),
    );
  };
  server.once('request', (_request: http.IncomingMessage, response: http.ServerResponse) =>
    response.once('finish', () => setImmediate(loadTheRest)),
  );
  setTimeout(loadTheRest, 100).unref();

  let stopping = false;
  /**
   * Stop accepting connections, let the requests under way be answered (for SIGTERM, or a part of the
   * snapshot that failed its check: a request that needs that part is answered 500), then exit with `code`,
   * `lastLine` (the failed part's one line) written last. Whatever is still open after the grace is cut.
   */
  const shutDown = (code: number, lastLine?: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    // Whatever still holds the process after the bound (a store that does not answer its close), it exits.
    setTimeout(() => process.exit(code === 0 ? 1 : code), SHUTDOWN_BOUND_MS).unref();
    // Webhook deliveries under way stop alongside the requests, not after them.
    const notifyStopped = Promise.resolve(notifying?.stop(NOTIFY_STOP_GRACE_MS)).catch(() => undefined);
    server.close(() => {
      logs.flush();
      if (lastLine !== undefined) console.error(lastLine);
      void notifyStopped
        .then(() => context.notifications?.close())
        .then(() => store.close())
        .finally(() => process.exit(code));
    });
    server.closeIdleConnections();
  };
  const stop = (signal: string) => {
    if (stopping) process.exit(1); // A second signal: stop now.
    console.log(`${signal}: stopping (open requests get ${SHUTDOWN_GRACE_MS / 1000} s)`);
    shutDown(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

runMain(main);
