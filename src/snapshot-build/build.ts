/**
 * Writes a snapshot folder: every artifact, then the manifest that names them with their hashes. The
 * folder is written beside its destination under a temporary name and renamed into place only when
 * complete, so a failed or interrupted build never leaves a half snapshot where a server would read it.
 */
import { HISTORY_FILE, type HistoryArtifact, nextHistory, seedHistory } from '../history/history.js';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { computeArtifacts, type Artifacts } from './artifacts.js';
import { writeLines, writeRecords, writeText, type Written } from './artifact-files.js';
import { startWordIndexes, type WordIndexes } from './word-indexes.js';
import type { BuildWorkers } from './worker-module.js';
import { encodeColumns, encodeNames, encodePostings, encodeSortIndexes, lookupLines } from '../format/index-layout.js';
import { historyLines } from '../history/history-layout.js';
import {
  ARTIFACT_FILES,
  ARTIFACT_VERSION,
  CHANGES_FILE,
  MANIFEST_FILE,
  type ArtifactRole,
  type Manifest,
} from '../format/manifest.js';
import {
  DEFAULT_GUARDS,
  diffSnapshots,
  guardViolations,
  type RepublishGuards,
  type SnapshotDiff,
} from '../history/changes.js';
import { readHistory, readRecordSummaries } from './previous-snapshot.js';
import { methodHash } from './input-files.js';
import {
  combineRegistryHash,
  type DatasetInput,
  readOrFail,
  InputError,
  RecordCollector,
  startReadingDataset,
} from './read-input.js';
import {
  makeRegistryArtifact,
  parseRegistryData,
  REGISTRY_FILE,
  RegistryDataError,
  serializeRegistryArtifact,
} from '../registry/artifact.js';
import type { RegistryEntry } from '../registry/schema.js';
import { MTS2_METHOD, type MethodId } from '../scoring/methods.js';
import { AS_GIVEN, makeRecordScorer, mts2Scoring, type ScoringChoice } from './score-records.js';
import { type EvidenceArtifacts, givenEvidence, historyExtras, readEvidence, writeEvidence } from './evidence-files.js';

function scoringFor(o: Pick<BuildOptions, 'method' | 'evidenceDir' | 'catalog'>, fallback: MethodId): ScoringChoice {
  const mts2 = (o.method ?? fallback) === MTS2_METHOD;
  return mts2 ? { ...mts2Scoring(process.cwd(), o.evidenceDir), catalog: o.catalog } : AS_GIVEN;
}

export interface BuildOptions {
  /** Build time recorded in the manifest; defaults to now. */
  now?: Date | undefined;
  /** The snapshot this one replaces: compared, guarded, and the difference written as `changes.json`. */
  previous?: string | undefined;
  guards?: RepublishGuards | undefined;
  /** Publish even when a guard objects (a person looked at the change). */
  force?: boolean | undefined;
  /** How many snapshots the history covers (default DEFAULT_HISTORY_LENGTH). */
  historyLength?: number | undefined;
  /** The registry data (`data/registry/servers.json`): the feed of `/v0.1`. None: the feed is empty. */
  registry?: string | undefined;
  /** When to hand work to worker threads (default: by the dataset's size; `worker-module.ts`). */
  workers?: BuildWorkers | undefined;
  /**
   * The method the snapshot is scored with: `mts-2` (the default for a dataset read from files: every record
   * is scored from its evidence, `score-records.ts`), or `msc-7bc729d`, the scores the dataset holds (the
   * upstream method's). `writeSnapshot` keeps the records as given unless told otherwise.
   */
  method?: MethodId | undefined;
  /** The evidence folder of a snapshot scored with mts-2 (default `data/evidence`): sources, advisories, tools. */
  evidenceDir?: string | undefined;
  /** The curators' catalog joined into a snapshot scored with mts-2 (`src/dataset/catalog.ts`); none: no catalog. */
  catalog?: string | undefined;
}

/** A guard refused the new snapshot; nothing was written and the previous snapshot is untouched. */
export class SnapshotDiffRefused extends Error {
  override readonly name = 'SnapshotDiffRefused';
  constructor(
    readonly problems: string[],
    readonly diff: SnapshotDiff,
  ) {
    super(problems.join('\n'));
  }
}

export interface BuildResult {
  manifest: Manifest;
  /** Present when built with `previous`. */
  diff?: SnapshotDiff;
  /** Where the records were checked against the schema (`read-input.ts`). */
  checkedBy: DatasetInput['checkedBy'];
  /** Where the word indexes were made (`word-indexes.ts`). */
  wordIndexesMadeBy: WordIndexes['madeBy'];
}

/** Build the snapshot of the dataset matching `input` (a glob) into `out`. */
export async function buildSnapshot(opts: { input: string; out: string } & BuildOptions): Promise<Manifest> {
  return (await buildSnapshotWithDiff(opts)).manifest;
}

/** The records parsed while the schema check ran elsewhere did not all pass it: nothing made from them is kept. */
class UncheckedRecords extends Error {}

/**
 * Build, comparing with and guarding against `previous` when given. The build starts on the records as
 * parsed while a worker checks them against the schema (`startReadingDataset`), and publishes only once the
 * check has passed; when it has not, whatever was made is dropped and the dataset is validated and built
 * here, so a bad record is reported as it always was, before any guard's objection.
 */
export async function buildSnapshotWithDiff(opts: { input: string; out: string } & BuildOptions): Promise<BuildResult> {
  const scoring = scoringFor(opts, MTS2_METHOD);
  const read = await startReadingDataset(opts.input, process.cwd(), opts.workers, scoring);
  const { checked, validate } = read;
  if (read.parsed !== undefined) {
    try {
      return await buildFromDataset(read.parsed, opts, async () => {
        if (!(await checked)) throw new UncheckedRecords();
      });
    } catch (error) {
      if (!(error instanceof UncheckedRecords) && (await checked)) throw error;
    } finally {
      read.parsed.texts.close();
    }
  }
  // The parsed records are not needed again: let them go before everything is read a second time.
  read.parsed = undefined;
  const dataset = await validate();
  try {
    return await buildFromDataset(dataset, opts, async () => undefined);
  } finally {
    dataset.texts.close();
  }
}

/** Build from `dataset`; `beforePublish` runs before the snapshot is put in place, and may throw. */
async function buildFromDataset(
  dataset: DatasetInput,
  opts: { input: string; out: string } & BuildOptions,
  beforePublish: () => Promise<void>,
): Promise<BuildResult> {
  let registry: RegistryEntry[] | undefined;
  const { evidenceDir } = mts2Scoring(process.cwd(), opts.evidenceDir);
  let inputHash = methodHash(dataset.inputHash, opts.method, process.cwd(), evidenceDir);
  if (opts.registry !== undefined) {
    const bytes = await readFile(opts.registry).catch((error: NodeJS.ErrnoException) => {
      throw new InputError([`${opts.registry}: cannot read the registry data (${error.code ?? String(error)})`]);
    });
    registry = registryEntries(() => parseRegistryData(bytes.toString('utf8'), opts.registry!));
    inputHash = combineRegistryHash(inputHash, opts.registry, bytes);
  }
  if (opts.catalog !== undefined && (opts.method ?? MTS2_METHOD) === MTS2_METHOD)
    inputHash = combineRegistryHash(inputHash, opts.catalog, await readOrFail(opts.catalog));
  let diff: SnapshotDiff | undefined;
  let history: HistoryArtifact | undefined;
  if (opts.previous !== undefined) {
    const previous = await readRecordSummaries(opts.previous);
    diff = diffSnapshots(previous, dataset.records);
    const problems = guardViolations(diff, opts.guards ?? DEFAULT_GUARDS);
    if (problems.length > 0 && !opts.force) throw new SnapshotDiffRefused(problems, diff);
    // The history goes on from the previous snapshot's, or starts from its records when it has none.
    history = (await readHistory(opts.previous)) ?? seedHistory(previous);
  }
  const { manifest, wordIndexesMadeBy } = await writeArtifacts(dataset, opts.out, {
    inputHash,
    registry,
    now: opts.now,
    diff,
    history,
    historyLength: opts.historyLength,
    workers: opts.workers,
    beforePublish,
    evidence: await readEvidence(opts.method, evidenceDir),
  });
  const made = { checkedBy: dataset.checkedBy, wordIndexesMadeBy };
  return diff ? { manifest, diff, ...made } : { manifest, ...made };
}

/** Registry data errors as the build reports input errors: every line, nothing published. */
function registryEntries(parse: () => RegistryEntry[]): RegistryEntry[] {
  try {
    return parse();
  } catch (error) {
    if (error instanceof RegistryDataError) throw new InputError(error.lines);
    throw error;
  }
}

/**
 * Validate in-memory records (as a dataset file would hold them) and write their snapshot into `out`, with
 * the registry entries `registry` (as the registry data file would hold them) and the pinned tools `tools`
 * (as `data/evidence/tools.json` would) when given.
 */
export async function writeSnapshot(
  records: readonly unknown[],
  out: string,
  options: Omit<BuildOptions, 'registry'> & { registry?: readonly unknown[]; tools?: unknown } = {},
): Promise<Manifest> {
  const collector = new RecordCollector();
  const score = await makeRecordScorer(scoringFor({ method: options.method }, AS_GIVEN.method));
  records.forEach((raw, index) => collector.add(score(raw), '(records)', `record #${index + 1}`));
  const valid = collector.result();
  try {
    const registry =
      options.registry === undefined
        ? undefined
        : registryEntries(() => parseRegistryData(JSON.stringify(options.registry), '(registry)'));
    const evidence = givenEvidence(options.tools);
    const inputHash = createHash('sha256')
      .update(JSON.stringify([records, options.registry ?? null, ...(evidence.tools ? [evidence.tools] : [])]))
      .digest('hex');
    const { now, workers } = options;
    return (await writeArtifacts(valid, out, { inputHash, now, registry, workers, evidence })).manifest;
  } finally {
    valid.texts.close();
  }
}

/** `records` the records' summaries and `texts` their texts, both in input order. */
async function writeArtifacts(
  { records, texts }: Pick<DatasetInput, 'records' | 'texts'>,
  out: string,
  opts: {
    inputHash: string;
    now?: Date | undefined;
    registry?: readonly RegistryEntry[] | undefined;
    diff?: SnapshotDiff | undefined;
    history?: HistoryArtifact | undefined;
    historyLength?: number | undefined;
    /** Runs before the snapshot is put in place; when it throws, nothing is. */
    beforePublish?: (() => Promise<void>) | undefined;
    workers?: BuildWorkers | undefined;
    /** The advisories and pinned tools the snapshot publishes, when it has them. */
    evidence?: EvidenceArtifacts | undefined;
  },
): Promise<{ manifest: Manifest; wordIndexesMadeBy: WordIndexes['madeBy'] }> {
  const artifacts: Artifacts = computeArtifacts(records);
  const target = path.resolve(out);
  await mkdir(path.dirname(target), { recursive: true });
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temporary = `${target}.tmp-${suffix}`;
  await mkdir(temporary);
  // For a large dataset the word indexes' worker starts now, while the records are written, and waits.
  const wordIndexer = startWordIndexes(records.length, opts.workers);
  try {
    const files = {} as Record<ArtifactRole, Written>;
    const at = (role: ArtifactRole) => path.join(temporary, ARTIFACT_FILES[role]);
    const { index: recordsIndex, ...recordsFile } = writeRecords(at('records'), texts, artifacts.inputIndex);
    files.records = recordsFile;
    // Made on the worker while this thread writes the other indexes; sent its input once the records are
    // written, so the worker's memory and the writing's are not needed at once.
    const wordIndexes = wordIndexer.make(
      artifacts.names,
      artifacts.records.map((record) => record.description),
    );
    files.recordsIndex = await writeText(at('recordsIndex'), recordsIndex);
    files.names = await writeText(at('names'), encodeNames(artifacts.names));
    files.columns = await writeText(at('columns'), encodeColumns(artifacts.columns));
    files.stats = await writeText(at('stats'), JSON.stringify(artifacts.stats));
    files.sortIndexes = await writeText(at('sortIndexes'), encodeSortIndexes(artifacts.sortIndexes));
    files.postings = await writeText(at('postings'), encodePostings(artifacts.postings));
    files.lookup = writeLines(at('lookup'), lookupLines(artifacts.lookup));
    const { search, descriptions, madeBy: wordIndexesMadeBy } = await wordIndexes;
    files.search = await writeText(at('search'), search);
    files.descriptions = await writeText(at('descriptions'), descriptions);

    const fileTable: Record<string, Written> = Object.fromEntries(
      (Object.keys(ARTIFACT_FILES) as ArtifactRole[]).map((role) => [ARTIFACT_FILES[role], files[role]]),
    );
    // The registry entries are answered (`/v0.1`), so they are part of the id, unlike the history.
    if (opts.registry) {
      const artifact = makeRegistryArtifact(opts.registry, artifacts.names);
      fileTable[REGISTRY_FILE] = await writeText(
        path.join(temporary, REGISTRY_FILE),
        serializeRegistryArtifact(artifact),
      );
    }
    Object.assign(fileTable, await writeEvidence(opts.evidence ?? {}, temporary, artifacts.names));
    if (opts.diff)
      fileTable[CHANGES_FILE] = await writeText(path.join(temporary, CHANGES_FILE), JSON.stringify(opts.diff));
    // The id depends on the content only, never on when or where it was built.
    const contentHash = createHash('sha256');
    for (const name of Object.keys(fileTable).sort()) contentHash.update(`${name}\0${fileTable[name]!.sha256}\n`);
    const snapshot = {
      snapshot_id: contentHash.digest('hex').slice(0, 20),
      generated_at: (opts.now ?? new Date()).toISOString(),
    };
    // The history names this snapshot, so it is written once the id is known, and is not part of it: the id
    // says what the records are; the history, how they came to be.
    const extras = historyExtras(opts.evidence ?? {});
    const history = nextHistory(opts.history, artifacts.records, snapshot, opts.historyLength, extras);
    fileTable[HISTORY_FILE] = writeLines(path.join(temporary, HISTORY_FILE), historyLines(history));
    const newest = newestScoredAt(artifacts.records);
    const manifest: Manifest = {
      artifact_version: ARTIFACT_VERSION,
      ...snapshot,
      ...(newest === undefined ? {} : { newest_scored_at: newest }),
      record_count: artifacts.records.length,
      input_hash: opts.inputHash,
      files: fileTable,
    };
    // The manifest is written last: a folder without one is never a snapshot.
    await writeFile(path.join(temporary, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    await opts.beforePublish?.();
    await swapIntoPlace(temporary, target, suffix);
    return { manifest, wordIndexesMadeBy };
  } catch (error) {
    wordIndexer.stop();
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

/** The newest `scored_at` of `records`, as ISO 8601 UTC; undefined when there are none. */
function newestScoredAt(records: readonly { scored_at: string }[]): string | undefined {
  let newest = -Infinity;
  for (const record of records) newest = Math.max(newest, Date.parse(record.scored_at));
  return Number.isFinite(newest) ? new Date(newest).toISOString() : undefined;
}

/**
 * Move the finished folder to `target`. The previous snapshot is moved aside first and removed only after
 * the new one is in place; between the two renames the path is briefly absent (a loader then fails to open
 * it and a warm server keeps what it has), never half written.
 */
async function swapIntoPlace(temporary: string, target: string, suffix: string): Promise<void> {
  const previous = `${target}.old-${suffix}`;
  let moved = false;
  try {
    await rename(target, previous);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    await rename(temporary, target);
  } catch (error) {
    if (moved) await rename(previous, target);
    throw error;
  }
  if (moved) await rm(previous, { recursive: true, force: true });
}
