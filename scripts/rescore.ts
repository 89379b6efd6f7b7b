/**
 * `npm run rescore -- [--registry-url <base>] [--github-api-url <base>] [--as-of <ISO time>] [--out <dir>]
 *   [--cache <dir>] [--max-wait <duration>] [--max-unenriched <share>] [--backoff <ms>] [--timeout <duration>]
 *   [--github-reserve <requests>] [--method msc-7bc729d] [--no-probe] [--probe-timeout <duration>] [--probe-concurrency <n>]`
 *
 * The nightly rescoring run (logic in `src/pipeline/`, method in `src/scoring/`): collects the MCP registry,
 * enriches from GitHub (`GITHUB_TOKEN` from the environment), scores, and writes `<out>/servers.json` and
 * `<out>/registry/servers.json` as `npm run import` does, atomically. `--out` defaults to `data`, the committed
 * dataset of the checkout. Prints one summary line; on any failure one line starting with `rescore:`, a non-zero
 * exit, and nothing written to `--out`. `--help` prints the usage and exits 0.
 *
 * Unless `--no-probe`, every remote is probed (`src/pipeline/probe/`) and `<out>/evidence/probes.json` and
 * `<out>/evidence/tools.json` are written, continued from the ones already in `<out>`. The prober never reaches
 * a private address or an `http` URL; `PROBES_ALLOW_PRIVATE=1` and `PROBES_ALLOW_HTTP=1` lift those rules for
 * tests on 127.0.0.1 (the cloud metadata addresses stay refused).
 */
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { PipelineError, printable } from '../src/pipeline/errors.js';
import { GITHUB_API_URL } from '../src/pipeline/github.js';
import { DEFAULT_HTTP_POLICY } from '../src/pipeline/http-json.js';
import { rescore, type RescoreSummary } from '../src/pipeline/rescore.js';
import { MTS2_METHOD, UPSTREAM_METHOD } from '../src/scoring/methods.js';
import { runMain } from './lib/main.js';
import { defaultCatalogData } from '../src/format/paths.js';
import { MAX_UNKNOWN_READ } from '../src/pipeline/unknown-step.js';
import { OperatorError } from '../src/errors/operator-error.js';
import { loadConfig } from '../src/service/config.js';
import { createStore } from '../src/service/store.js';
import type { Store } from '../src/stores/types.js';

const USAGE = [
  'usage: npm run rescore -- [--registry-url <base>] [--github-api-url <base>] [--as-of <ISO time>] [--out <dir>]',
  '  [--cache <dir>] [--max-wait <duration, e.g. 15m>] [--max-unenriched <share 0-1>] [--backoff <ms>] [--timeout <duration>]',
  '  [--github-reserve <requests of the hour left to other uses of the token, default 100>]',
  `  [--method ${UPSTREAM_METHOD}] [--packages on|off] [--npm-url <base>] [--pypi-url <base>] [--crates-url <base>]`,
  '  [--no-advisories] [--osv-url <base>]',
  '  [--catalog <file, default data/catalog/servers.json> | --no-catalog] [--unknown on|off] [--unknown-limit <n, default 1000>]',
  'Writes <out>/servers.json and <out>/registry/servers.json; --out defaults to data, the committed dataset of this',
  'checkout (tracked by git): give --out <another dir> to write elsewhere. --cache defaults to .local/rescore-cache.',
  'With --packages on (the default) it also writes <out>/evidence/packages.json from the npm, PyPI and crates.io APIs.',
  '  [--no-probe] [--probe-timeout <duration, default 20s>] [--probe-concurrency <n, default 16>]',
  'Unless --no-probe it probes every remote server (MCP over Streamable HTTP or SSE, never with credentials, never a',
  'private address) and writes <out>/evidence/probes.json and <out>/evidence/tools.json, continued from the ones in <out>.',
  'Unless --no-advisories, it also writes <out>/evidence/advisories.json from OSV (merged with the file already there).',
  'Unless --no-catalog, the catalog-only servers of the catalog are measured too; it writes <out>/catalog/servers.json.',
  'With --unknown on (the default) and STORE=redis or upstash, the packages checks asked about and the snapshot did',
  'not know (the most asked, over the last 7 days) go to the packages and advisories steps, and each one its registry',
  'has gets a record of its own (package:npm/<name>, ...), kept in <out>/evidence/asked-packages.json from night to night.',
].join('\n');
const REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** `90`, `90s`, `15m` or `1h` → milliseconds. */
const Duration = z
  .string()
  .regex(/^\d+(?:\.\d+)?[smh]?$/, { error: 'a duration is a number of seconds, or one ending in s, m or h' })
  .transform((text) => {
    const unit = text.at(-1);
    const factor = unit === 'm' ? 60_000 : unit === 'h' ? 3_600_000 : 1000;
    return Number(/[smh]$/.test(text) ? text.slice(0, -1) : text) * factor;
  });
const HttpBase = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const ArgsSchema = z.strictObject({
  'registry-url': HttpBase.default(REGISTRY_URL),
  'github-api-url': HttpBase.default(GITHUB_API_URL),
  'as-of': z.iso.datetime({ offset: true, error: '--as-of must be an ISO 8601 time with a time zone' }).optional(),
  out: z.string().min(1).default('data'),
  cache: z.string().min(1).default('.local/rescore-cache'),
  'max-wait': Duration.default(15 * 60_000),
  'max-unenriched': z.coerce.number().min(0).max(1).default(0.1),
  // GitHub's hour holds 5,000 requests for a token: 100 of them are left for whatever else uses it.
  'github-reserve': z.coerce.number().int().min(0).max(100_000).default(100),
  backoff: z.coerce.number().int().min(0).max(60_000).optional(),
  timeout: Duration.default(30_000),
  packages: z.enum(['on', 'off']).default('on'),
  'npm-url': HttpBase.default('https://registry.npmjs.org'),
  'pypi-url': HttpBase.default('https://pypi.org'),
  'crates-url': HttpBase.default('https://crates.io'),
  'probe-timeout': Duration.refine((ms) => ms >= 100 && ms <= 300_000, {
    error: 'the probe timeout is from 0.1s to 5m',
  }).default(20_000),
  'probe-concurrency': z.coerce.number().int().min(1).max(256).default(16),
  'osv-url': HttpBase.default('https://api.osv.dev'),
  catalog: z.string().min(1).optional(),
  unknown: z.enum(['on', 'off']).default('on'),
  'unknown-limit': z.coerce.number().int().min(1).max(MAX_UNKNOWN_READ).default(1000),
  // The dataset is the upstream method's: its signals and scores are what the import writes and what the
  // reproduction holds. The build scores it with mts-2 (docs/method.md); rescoring never writes mts-2 scores.
  method: z
    .literal(UPSTREAM_METHOD, {
      error: `the dataset is written with the upstream method ${UPSTREAM_METHOD}; ${MTS2_METHOD} is applied by npm run build`,
    })
    .default(UPSTREAM_METHOD),
});

/** `1` or `true` turns a test-only permission on; anything else (or nothing) leaves it off. */
const TestPermission = z
  .string()
  .optional()
  .transform((text) => text === '1' || text === 'true');

const EnvSchema = z.object({
  PROBES_ALLOW_PRIVATE: TestPermission,
  PROBES_ALLOW_HTTP: TestPermission,
  GITHUB_TOKEN: z
    .string()
    .regex(/^\S+$/, { error: 'GITHUB_TOKEN must be one word with no spaces' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/** How many servers were left out, and the first few names, escaped: names are the publishers' text. */
function leftOutPart(s: RescoreSummary): string {
  if (s.leftOut.length === 0) return '';
  const shown = s.leftOut.slice(0, 5).map((left) => printable(left.name, 80));
  const more = s.leftOut.length - shown.length;
  return `, left out ${s.leftOut.length} that make no valid record (${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''})`;
}

/** Failures by kind, e.g. ", failed: 3 timeout, 1 dns". */
function failuresPart(failures: Record<string, number>): string {
  const parts = Object.entries(failures)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([kind, count]) => `${count} ${kind}`);
  return parts.length === 0 ? '' : `, failed: ${parts.join(', ')}`;
}

/** The advisories step's part of the summary line: its counts, or that OSV was not read (and the file kept). */
function advisoriesPart(s: RescoreSummary): string {
  const a = s.advisories;
  if (a === undefined) return '';
  if ('unread' in a) return '; advisories: not read this night, the advisory file left as it was';
  return (
    `; advisories: ${a.packages} packages asked of OSV (${a.skipped} with no OSV ecosystem, such as OCI images, not asked),` +
    ` ${a.advisories} advisories written (${a.malicious} malicious, ${a.kept} kept from the previous file),` +
    ` ${a.read} records read, ${a.cached} unchanged from the cache, ${a.leftOut} left out; ${a.requests} OSV requests`
  );
}

function summaryLine(s: RescoreSummary, out: string): string {
  return (
    `rescore: wrote ${out}: collected ${s.collected} servers (${s.notActive} not active left out` +
    `${s.incremental ? ', incremental' : ''}), enriched ${s.enriched} of ${s.repositories} GitHub repositories` +
    ` (${s.notFound} found nothing, ${s.unchangedRepositories} unchanged), ${s.unchanged} records unchanged since the last run,` +
    ` scored ${s.scored}, flagged ${s.flagged}${leftOutPart(s)}; ${s.githubRequests} GitHub requests, ${s.notModified} answered 304;` +
    ` ${s.registryRequests} registry requests` +
    (s.packages
      ? `; packages: ${s.packages.read} read (${s.packages.notFound} not found), ${s.packages.unread} unread,` +
        ` ${s.packages.requests} requests, ${s.packages.notModified} answered 304`
      : '') +
    (s.probes
      ? `; probes: ${s.probes.probed} remotes, ${s.probes.reachable} reachable (${s.probes.open} open,` +
        ` ${s.probes.oauth} OAuth, ${s.probes.bare401} bare 401), ${s.probes.toolsChanged} changed tools at the same version` +
        failuresPart(s.probes.failures)
      : '') +
    advisoriesPart(s) +
    catalogPart(s)
  );
}

/** The catalog's and the store's parts of the summary line. */
function catalogPart(s: RescoreSummary): string {
  const c = s.catalog;
  const u = s.unknown;
  return (
    (c
      ? `; catalog: ${c.listed} servers listed, ${c.joined} joined a registry record, ${c.catalogOnly} catalog-only` +
        ` (${c.measured} measured)`
      : '') +
    (u === undefined
      ? ''
      : 'unread' in u
        ? '; unknown identifiers: not read this night'
        : `; unknown identifiers: ${u.identifiers} read from the store, ${u.packages} packages asked`) +
    (s.packageServers === undefined
      ? ''
      : `; package servers: ${s.packageServers.records} (${s.packageServers.added} new, ${s.packageServers.dropped} dropped)`)
  );
}

/**
 * On a terminal, one line rewritten in place at most once a second (and at the end): how many GitHub
 * repositories are done. Never in a log, where it would be noise: only when stderr is a TTY.
 */
function progressLine(): (done: number, total: number) => void {
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 1000) return;
    last = now;
    process.stderr.write(`\rrescore: GitHub ${done} of ${total} repositories`);
    if (done === total) process.stderr.write('\n');
  };
}

async function main(argv: string[]): Promise<number> {
  let args: z.infer<typeof ArgsSchema>;
  let token: string | undefined;
  let probe: boolean;
  let permissions: { allowPrivate: boolean; allowHttp: boolean };
  let skipAdvisories: boolean;
  let catalogFile: string | undefined;
  let store: Store | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...Object.fromEntries(Object.keys(ArgsSchema.shape).map((key) => [key, { type: 'string' as const }])),
        help: { type: 'boolean', short: 'h' },
        'no-probe': { type: 'boolean' },
        'no-advisories': { type: 'boolean' },
        'no-catalog': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
    const { help, 'no-probe': noProbe, 'no-advisories': noAdvisories, 'no-catalog': noCatalog, ...options } = values;
    probe = noProbe !== true;
    skipAdvisories = noAdvisories === true;
    if (help === true) {
      console.log(USAGE);
      return 0;
    }
    const parsed = ArgsSchema.safeParse(options);
    if (!parsed.success)
      throw new Error(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
    args = parsed.data;
    const env = EnvSchema.safeParse(process.env);
    if (!env.success) throw new Error(env.error.issues[0]?.message ?? 'bad GITHUB_TOKEN');
    token = env.data.GITHUB_TOKEN;
    permissions = { allowPrivate: env.data.PROBES_ALLOW_PRIVATE, allowHttp: env.data.PROBES_ALLOW_HTTP };
    if (noCatalog === true && args.catalog !== undefined) throw new Error('--catalog and --no-catalog disagree');
    // As the build's: the committed catalog of the checkout, when it has one.
    catalogFile = noCatalog === true ? undefined : (args.catalog ?? (await defaultCatalogData()));
    store = args.unknown === 'on' ? await unknownStore() : undefined;
  } catch (error) {
    console.error(`rescore: ${printable((error as Error).message)}\n${USAGE}`);
    return 2;
  }
  const backoff = args.backoff;
  try {
    const summary = await rescore({
      registryUrl: args['registry-url'],
      githubApiUrl: args['github-api-url'],
      asOf: args['as-of'] ?? new Date().toISOString(),
      out: args.out,
      cache: args.cache,
      token,
      maxUnenriched: args['max-unenriched'],
      registryPolicy: {
        ...DEFAULT_HTTP_POLICY,
        timeoutMs: args.timeout,
        ...(backoff !== undefined ? { backoffMs: backoff } : {}),
      },
      github: {
        maxWaitMs: args['max-wait'],
        timeoutMs: args.timeout,
        concurrency: 8,
        participationAttempts: 3,
        participationDelayMs: backoff ?? 2000,
        retries: 3,
        retryBaseMs: backoff ?? 1000,
        reserve: args['github-reserve'],
      },
      packages:
        args.packages === 'off'
          ? undefined
          : {
              urls: { npm: args['npm-url'], pypi: args['pypi-url'], cargo: args['crates-url'] },
              concurrency: 8,
              // crates.io's data access policy: at most one request a second from a crawler.
              minIntervalMs: { cargo: 1000 },
              oci: { timeoutMs: args.timeout },
              policy: {
                ...DEFAULT_HTTP_POLICY,
                timeoutMs: args.timeout,
                retries: 2,
                ...(backoff !== undefined ? { backoffMs: backoff } : {}),
              },
            },
      probes: probe
        ? { ...permissions, concurrency: args['probe-concurrency'], timeoutMs: args['probe-timeout'] }
        : undefined,
      advisories: skipAdvisories
        ? undefined
        : {
            url: args['osv-url'],
            concurrency: 8,
            policy: {
              ...DEFAULT_HTTP_POLICY,
              timeoutMs: args.timeout,
              retries: 3,
              ...(backoff !== undefined ? { backoffMs: backoff } : {}),
            },
          },
      catalogFile,
      unknown: store === undefined ? undefined : { store, limit: args['unknown-limit'], timeoutMs: 10_000 },
      log: (line) => console.error(`rescore: ${printable(line)}`),
      ...(process.stderr.isTTY ? { progress: progressLine() } : {}),
    });
    if (token === undefined)
      console.error('rescore: no GITHUB_TOKEN: GitHub was asked without one (60 requests an hour)');
    for (const note of summary.notes) console.error(`rescore: ${printable(note)}`);
    for (const left of summary.leftOut)
      console.error(`rescore: left out ${printable(left.name, 120)}: ${printable(left.reason, 300)}`);
    if (summary.stopped)
      console.error(
        `rescore: stopped asking GitHub: ${printable(summary.stopped)}; what was fetched is cached for the next run`,
      );
    console.log(summaryLine(summary, args.out));
    return 0;
  } catch (error) {
    if (error instanceof PipelineError) {
      console.error(`rescore: ${printable(error.message, 400)}`);
      return 1;
    }
    console.error(`rescore: unexpected failure: ${printable((error as Error).message ?? String(error), 400)}`);
    return 1;
  } finally {
    await store?.close();
  }
}

/**
 * The store the gateway counts unknown identifiers in, chosen by the same settings (`STORE`, `REDIS_URL`,
 * `REDIS_PREFIX`, `UPSTASH_REDIS_REST_*`; src/service/config.ts). A memory store lives in each server's own
 * process, so a night has none to read: undefined, said once. A bad setting throws its one line.
 */
async function unknownStore(): Promise<Store | undefined> {
  try {
    const config = loadConfig();
    if (config.store === 'memory') {
      console.error('rescore: unknown identifiers not read: STORE=memory counts them in each server process');
      return undefined;
    }
    return await createStore(config);
  } catch (error) {
    if (error instanceof OperatorError)
      throw new Error(`${error.message} (--unknown off reads no store)`, { cause: error });
    throw error;
  }
}

runMain(() => main(process.argv.slice(2)));
