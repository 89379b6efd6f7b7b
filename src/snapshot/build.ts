/**
 * Writes a snapshot folder: every artifact, then the manifest that names them with their hashes. The
 * folder is written beside its destination under a temporary name and renamed into place only when
 * complete, so a failed or interrupted build never leaves a half snapshot where a server would read it.
 */
import { HISTORY_FILE, type HistoryArtifact, nextHistory, seedHistory } from './history.js';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { ServerRecord } from '../model/schema.js';
import { computeArtifacts, type Artifacts } from './artifacts.js';
import { RecordsIndexWriter } from './records-index.js';
import { encodeColumns, encodeNames, encodeHistory, encodeLookup, encodePostings, encodeSearch, encodeDescriptions, encodeSortIndexes } from './encode.js';
import { ARTIFACT_FILES, ARTIFACT_VERSION, CHANGES_FILE, MANIFEST_FILE, type ArtifactRole, type Manifest } from './manifest.js';
import { DEFAULT_GUARDS, diffSnapshots, guardViolations, type RepublishGuards, type SnapshotDiff } from './diff.js';
import { readHistory, readRecordSummaries } from './load.js';
import { combineRegistryHash, InputError, readDataset, RecordCollector } from './read-input.js';
import {
  makeRegistryArtifact,
  parseRegistryData,
  REGISTRY_FILE,
  RegistryDataError,
  serializeRegistryArtifact,
} from '../registry/artifact.js';
import type { RegistryEntry } from '../registry/schema.js';

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
}

/** A guard refused the new snapshot; nothing was written and the previous snapshot is untouched. */
export class RepublishRefused extends Error {
  override readonly name = 'RepublishRefused';
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
}

/** Build the snapshot of the dataset matching `input` (a glob) into `out`. */
export async function buildSnapshot(opts: { input: string; out: string } & BuildOptions): Promise<Manifest> {
  return (await buildSnapshotWithDiff(opts)).manifest;
}

/** Build, comparing with and guarding against `previous` when given. */
export async function buildSnapshotWithDiff(opts: { input: string; out: string } & BuildOptions): Promise<BuildResult> {
  const dataset = await readDataset(opts.input);
  let registry: RegistryEntry[] | undefined;
  let inputHash = dataset.inputHash;
  if (opts.registry !== undefined) {
    const bytes = await readFile(opts.registry).catch((error: NodeJS.ErrnoException) => {
      throw new InputError([`${opts.registry}: cannot read the registry data (${error.code ?? String(error)})`]);
    });
    registry = registryEntries(() => parseRegistryData(bytes.toString('utf8'), opts.registry!));
    inputHash = combineRegistryHash(inputHash, opts.registry, bytes);
  }
  let diff: SnapshotDiff | undefined;
  let history: HistoryArtifact | undefined;
  if (opts.previous !== undefined) {
    const previous = await readRecordSummaries(opts.previous);
    diff = diffSnapshots(previous, dataset.records);
    const problems = guardViolations(diff, opts.guards ?? DEFAULT_GUARDS);
    if (problems.length > 0 && !opts.force) throw new RepublishRefused(problems, diff);
    // The history goes on from the previous snapshot's, or starts from its records when it has none.
    history = (await readHistory(opts.previous)) ?? seedHistory(previous);
  }
  const manifest = await writeArtifacts(dataset.records, opts.out, {
    inputHash,
    registry,
    now: opts.now,
    diff,
    history,
    historyLength: opts.historyLength,
  });
  return diff ? { manifest, diff } : { manifest };
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
 * the registry entries `registry` (as the registry data file would hold them) when given.
 */
export async function writeSnapshot(
  records: readonly unknown[],
  out: string,
  options: Omit<BuildOptions, 'registry'> & { registry?: readonly unknown[] } = {},
): Promise<Manifest> {
  const collector = new RecordCollector();
  records.forEach((raw, index) => collector.add(raw, '(records)', `record #${index + 1}`));
  const valid = collector.result();
  const registry =
    options.registry === undefined
      ? undefined
      : registryEntries(() => parseRegistryData(JSON.stringify(options.registry), '(registry)'));
  const inputHash = createHash('sha256').update(JSON.stringify([records, options.registry ?? null])).digest('hex');
  return writeArtifacts(valid, out, { inputHash, now: options.now, registry });
}

interface Written {
  sha256: string;
  bytes: number;
}

async function writeText(file: string, text: string | Buffer): Promise<Written> {
  await writeFile(file, text);
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
}

/** One compact record per line, streamed (a large dataset never becomes one string), and the records' index. */
async function writeRecords(file: string, records: readonly ServerRecord[]): Promise<Written & { index: Buffer }> {
  const stream = createWriteStream(file);
  const hash = createHash('sha256');
  const index = new RecordsIndexWriter();
  let bytes = 0;
  let batch = '';
  const flush = async () => {
    const chunk = Buffer.from(batch);
    hash.update(chunk);
    index.add(chunk);
    bytes += chunk.length;
    if (!stream.write(chunk)) await once(stream, 'drain');
    batch = '';
  };
  for (const record of records) {
    batch += JSON.stringify(record) + '\n';
    if (batch.length > 1 << 20) await flush();
  }
  await flush();
  stream.end();
  await once(stream, 'finish');
  return { sha256: hash.digest('hex'), bytes, index: index.encode() };
}

async function writeArtifacts(
  records: readonly ServerRecord[],
  out: string,
  opts: {
    inputHash: string;
    now?: Date | undefined;
    registry?: readonly RegistryEntry[] | undefined;
    diff?: SnapshotDiff | undefined;
    history?: HistoryArtifact | undefined;
    historyLength?: number | undefined;
  },
): Promise<Manifest> {
  const artifacts: Artifacts = computeArtifacts(records);
  const target = path.resolve(out);
  await mkdir(path.dirname(target), { recursive: true });
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temporary = `${target}.tmp-${suffix}`;
  await mkdir(temporary);
  try {
    const files = {} as Record<ArtifactRole, Written>;
    const at = (role: ArtifactRole) => path.join(temporary, ARTIFACT_FILES[role]);
    const { index: recordsIndex, ...recordsFile } = await writeRecords(at('records'), artifacts.records);
    files.records = recordsFile;
    files.recordsIndex = await writeText(at('recordsIndex'), recordsIndex);
    files.names = await writeText(at('names'), encodeNames(artifacts.names));
    files.columns = await writeText(at('columns'), encodeColumns(artifacts.columns));
    files.stats = await writeText(at('stats'), JSON.stringify(artifacts.stats));
    files.sortIndexes = await writeText(at('sortIndexes'), encodeSortIndexes(artifacts.sortIndexes));
    files.postings = await writeText(at('postings'), encodePostings(artifacts.postings));
    files.search = await writeText(at('search'), encodeSearch(artifacts.names, artifacts.search));
    files.descriptions = await writeText(at('descriptions'), encodeDescriptions(artifacts.records));
    files.lookup = await writeText(at('lookup'), encodeLookup(artifacts.lookup));

    const fileTable: Record<string, Written> = Object.fromEntries(
      (Object.keys(ARTIFACT_FILES) as ArtifactRole[]).map((role) => [ARTIFACT_FILES[role], files[role]]),
    );
    // The registry entries are answered (`/v0.1`), so they are part of the id, unlike the history.
    if (opts.registry) {
      const artifact = makeRegistryArtifact(opts.registry, artifacts.names);
      fileTable[REGISTRY_FILE] = await writeText(path.join(temporary, REGISTRY_FILE), serializeRegistryArtifact(artifact));
    }
    if (opts.diff) fileTable[CHANGES_FILE] = await writeText(path.join(temporary, CHANGES_FILE), JSON.stringify(opts.diff));
    // The id depends on the content only, never on when or where it was built.
    const contentHash = createHash('sha256');
    for (const name of Object.keys(fileTable).sort()) contentHash.update(`${name}\0${fileTable[name]!.sha256}\n`);
    const snapshot = { snapshot_id: contentHash.digest('hex').slice(0, 20), generated_at: (opts.now ?? new Date()).toISOString() };
    // The history names this snapshot, so it is written once the id is known, and is not part of it: the id
    // says what the records are; the history, how they came to be.
    const history = nextHistory(opts.history, artifacts.records, snapshot, opts.historyLength);
    fileTable[HISTORY_FILE] = await writeText(path.join(temporary, HISTORY_FILE), encodeHistory(history));
    const manifest: Manifest = {
      artifact_version: ARTIFACT_VERSION,
      ...snapshot,
      record_count: artifacts.records.length,
      input_hash: opts.inputHash,
      files: fileTable,
    };
    // The manifest is written last: a folder without one is never a snapshot.
    await writeFile(path.join(temporary, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    await swapIntoPlace(temporary, target, suffix);
    return manifest;
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
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
