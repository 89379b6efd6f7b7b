/**
 * `npm run build -- --input "<glob>" --out <dir> [--previous <dir>] [--force]`: validate a dataset and
 * publish its snapshot. With no arguments it builds the committed dataset (`data/*.json`) into the default
 * snapshot folder. With `--previous`, the new snapshot is compared with the one it replaces, the difference
 * is written into it (changes.json) and summarised, and an implausible change is refused unless `--force`.
 * Every failure is a clear message and a non-zero exit; the previous snapshot is then left untouched.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OPENAPI_FILE, writeOpenApiDocument } from './openapi.js';
import { buildSnapshotWithDiff, SnapshotDiffRefused } from '../src/snapshot-build/build.js';
import { DEFAULT_GUARDS, summarizeDiff } from '../src/history/changes.js';
import { readManifest } from '../src/format/verified-read.js';
import { CHANGES_FILE } from '../src/format/manifest.js';
import {
  DEFAULT_INPUT_GLOB,
  DEFAULT_SNAPSHOT_DIR,
  datasetFolder,
  defaultCatalogData,
  defaultRegistryData,
} from '../src/format/paths.js';
import { snapshotIsStale } from '../src/snapshot-build/staleness.js';
import { InputError } from '../src/snapshot-build/read-input.js';
import { DEFAULT_HISTORY_LENGTH } from '../src/history/history.js';
import { isMethodId, METHOD_IDS, MTS2_METHOD, UPSTREAM_METHOD } from '../src/scoring/methods.js';
import { runMain } from './lib/main.js';

const USAGE = `usage: npm run build -- [--data <dir> | --input "<glob>" [--registry <file>] [--catalog <file>]] [--out <dir>] [--previous <dir>] [--max-removed <share>] [--max-score-changed <share>] [--method <id>] [--force]
  --data <dir>                a dataset folder laid out as data/ is: <dir>/*.json, <dir>/registry/servers.json, <dir>/catalog/servers.json (each when present) and the evidence in <dir>/evidence
  --method <id>               ${MTS2_METHOD} (default: score every record from its evidence, docs/method.md) or ${UPSTREAM_METHOD} (the dataset's own scores)
  --registry <file>           the registry entries of the feed (/v0.1); default data/registry/servers.json when --input is not given
  --catalog <file>            the curators' catalog joined into the records (${MTS2_METHOD} only); default data/catalog/servers.json when --input is not given
  --previous <dir>            compare with the snapshot this one replaces, write changes.json, apply the guards
  --max-removed <share>       refuse when more than this share of the previous servers is gone (default ${DEFAULT_GUARDS.maxRemovedShare})
  --max-score-changed <share> refuse when more than this share of the scores changed (default ${DEFAULT_GUARDS.maxScoreChangedShare})
  --history <N>               how many snapshots the score history covers (default ${DEFAULT_HISTORY_LENGTH}, at least 1)
  --force                     publish even when a guard objects`;

function share(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^(0|1|0?\.\d+|1\.0*)$/.test(text) || value < 0 || value > 1)
    throw new Error(`--${name} must be a share from 0 to 1, not "${text}"`);
  return value;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        data: { type: 'string' },
        input: { type: 'string' },
        registry: { type: 'string' },
        catalog: { type: 'string' },
        out: { type: 'string' },
        previous: { type: 'string' },
        'max-removed': { type: 'string' },
        'max-score-changed': { type: 'string' },
        force: { type: 'boolean', default: false },
        history: { type: 'string' },
        method: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`build: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const method = values.method ?? MTS2_METHOD;
  if (!isMethodId(method)) {
    console.error(`build: --method must be one of ${METHOD_IDS.join(', ')}, not "${method.slice(0, 40)}"`);
    return 2;
  }
  if (values.data !== undefined && (values.input ?? values.registry ?? values.catalog) !== undefined) {
    console.error('build: --data names the whole dataset folder: give it without --input, --registry or --catalog');
    return 2;
  }
  const folder = values.data === undefined ? undefined : await datasetFolder(values.data);
  const input = folder?.input ?? values.input ?? DEFAULT_INPUT_GLOB;
  const out = values.out ?? DEFAULT_SNAPSHOT_DIR;
  // The committed dataset comes with its registry data; another dataset brings its own (or has none).
  const given = folder !== undefined || values.input !== undefined;
  const registry = folder?.registry ?? values.registry ?? (given ? undefined : await defaultRegistryData());
  const catalog = folder?.catalog ?? values.catalog ?? (given ? undefined : await defaultCatalogData());
  let guards;
  try {
    guards = {
      maxRemovedShare: share('max-removed', values['max-removed'], DEFAULT_GUARDS.maxRemovedShare),
      maxScoreChangedShare: share(
        'max-score-changed',
        values['max-score-changed'],
        DEFAULT_GUARDS.maxScoreChangedShare,
      ),
    };
  } catch (error) {
    console.error(`build: ${(error as Error).message}`);
    return 2;
  }
  // A release builds and checks a snapshot, then the platform runs this same command: a snapshot that is
  // already current for the dataset (same input hash, same artifact version) is kept as it is, with its
  // changes.json, so what deploys is exactly what was checked.
  if (
    values.previous === undefined &&
    !values.force &&
    !(await snapshotIsStale(out, input, registry, method, catalog, folder?.evidenceDir))
  ) {
    const manifest = await readManifest(out);
    console.log(
      `snapshot ${manifest.snapshot_id} in ${out} is current for "${input}" (same input hash): kept as it is` +
        `${manifest.files[CHANGES_FILE] ? ', with its changes.json' : ''} (--force rebuilds it)`,
    );
    if (await writeOpenApiDocument()) console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
    return 0;
  }
  const historyLength = values.history === undefined ? undefined : Number(values.history);
  if (historyLength !== undefined && (!/^\d{1,6}$/.test(values.history ?? '') || historyLength < 1)) {
    console.error(`build: --history must be a whole number of snapshots, at least 1, not "${values.history}"`);
    return 2;
  }
  const started = performance.now();
  try {
    const { manifest, diff, checkedBy } = await buildSnapshotWithDiff({
      input,
      out,
      registry,
      catalog,
      ...(folder === undefined ? {} : { evidenceDir: folder.evidenceDir }),
      previous: values.previous,
      guards,
      force: values.force,
      historyLength,
      method,
    });
    if (diff) console.log(summarizeDiff(diff));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(
      `built snapshot ${manifest.snapshot_id}: ${manifest.record_count} records from "${input}" into ${out}, scored with ${method}, in ${seconds} s ` +
        `(schema checked on ${checkedBy === 'worker' ? 'a worker thread' : 'the build thread'})`,
    );
    // The OpenAPI document is generated from the same schemas; keep the published copy in step.
    if (await writeOpenApiDocument()) console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
    return 0;
  } catch (error) {
    if (error instanceof SnapshotDiffRefused) {
      console.error(summarizeDiff(error.diff));
      console.error(
        `build: refused to publish, the previous snapshot is untouched:\n  ${error.problems.join('\n  ')}\n  (--force publishes anyway)`,
      );
      return 1;
    }
    if (error instanceof InputError) {
      console.error(`build: refused, nothing was published:\n${error.message}`);
      return 1;
    }
    console.error(`build: failed, nothing was published: ${(error as Error).message}`);
    return 1;
  }
}

runMain(main);
