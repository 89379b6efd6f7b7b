/**
 * Reads the dataset: finds the input files with a glob, parses them (`raw-records.ts`), and validates every
 * record with the one schema, on a worker thread while this one parses (`schema-check.ts`). Everything the
 * decisions say to reject is collected and reported at once, naming the file, the record and the rule;
 * nothing is written when anything is wrong.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { type ServerRecord } from '../model/schema.js';
import { type IndexedRecord, ServerRecordSchema, indexedPartOf } from '../model/record-schema.js';
import { inSchemaOrder } from '../model/schema-order.js';
import { findInputFiles, InputError } from './input-files.js';
import { rawRecords } from './raw-records.js';
import { RecordTexts } from './record-texts.js';
import { startSchemaCheck } from './schema-check.js';
import type { BuildWorkers } from './worker-module.js';
import { AS_GIVEN, makeRecordScorer, type RecordScorer, type ScoringChoice } from './score-records.js';

export {
  combineRegistryHash,
  filesInOneFolder,
  findInputFiles,
  hashInput,
  hashInputs,
  InputError,
  readOrFail,
} from './input-files.js';

/** Stop collecting after this many bad records: the first ones are enough to act on. */
const MAX_REPORTED_PROBLEMS = 50;
/** Input smaller than this (about 15,000 records) is checked on this thread: a worker would not pay off. */
const SCHEMA_CHECK_MIN_BYTES = 16 * 1024 * 1024;

async function totalBytes(files: readonly string[], cwd: string): Promise<number> {
  const sizes = await Promise.all(
    files.map((file) =>
      stat(path.resolve(cwd, file)).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

export interface DatasetInput {
  /** Each record's summary, in input order: what the indexes need (`indexedPartOf`). */
  records: IndexedRecord[];
  /** Each record itself, as its JSON text, in input order (close it when done). */
  texts: RecordTexts;
  files: string[];
  /** Hash of the input files' relative paths and bytes, recorded in the manifest. */
  inputHash: string;
  /** Where the schema was checked: by the worker while this thread parsed, or here (see `schema-check.ts`). */
  checkedBy: 'worker' | 'this thread';
  /** How many of `records` the input files hold: the rest are the catalog's servers that no record was. */
  fileRecords: number;
}

/** Where a record came from, for messages: `data/servers.json: record #12 ("io.github.x/y")`. */
function where(file: string, position: string, raw: unknown): string {
  const name =
    raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string'
      ? ` ("${String((raw as { name: string }).name).slice(0, 200)}")`
      : '';
  return `${file}: ${position}${name}`;
}

/**
 * Validates records one by one, keeping the good ones and a message for each bad one: the schema, a
 * duplicate name (case-insensitively), a name that is not `<namespace>/<id>`.
 */
export class RecordCollector {
  readonly records: IndexedRecord[] = [];
  readonly texts = new RecordTexts();
  readonly problems: string[] = [];
  private readonly seen = new Map<string, string>();

  get full(): boolean {
    return this.problems.length >= MAX_REPORTED_PROBLEMS;
  }

  add(raw: unknown, file: string, position: string): void {
    const result = ServerRecordSchema.safeParse(raw);
    if (!result.success) {
      this.problems.push(`${where(file, position, raw)} breaks the schema:\n${indent(z.prettifyError(result.error))}`);
      return;
    }
    const record = result.data;
    const key = record.name.toLowerCase();
    const first = this.seen.get(key);
    if (first !== undefined) {
      this.problems.push(
        `${where(file, position, raw)}: duplicate name (names are compared case-insensitively; first seen at ${first})`,
      );
      return;
    }
    this.seen.set(key, `${file} ${position}`);
    this.records.push(indexedPartOf(record));
    this.texts.add(JSON.stringify(record));
  }

  /** The valid records' summaries and texts, or an InputError listing every problem. */
  result(): { records: IndexedRecord[]; texts: RecordTexts } {
    if (this.problems.length === 0) return { records: this.records, texts: this.texts };
    this.texts.close();
    const more = this.full ? [`(stopped after ${MAX_REPORTED_PROBLEMS} problems)`] : [];
    throw new InputError([...this.problems, ...more]);
  }
}

/**
 * A dataset being read: the records as this thread parsed them, while a worker thread checks every one
 * against the schema (`schema-check.ts`). A caller may start work on `parsed` at once, but keeps nothing
 * made from it unless `checked` comes true; otherwise `validate()` reads everything again and validates it
 * here, so whatever a record breaks is reported exactly as it always was.
 */
export interface DatasetRead {
  /** The records parsed here, unchecked; undefined when parsing found a problem already (validate). */
  parsed: DatasetInput | undefined;
  /** True when the worker found every parsed record valid and as this thread made it; never rejects. */
  checked: Promise<boolean>;
  /** Read and validate on this thread: the dataset, or an InputError listing every rejected record. */
  validate(): Promise<DatasetInput>;
}

export async function startReadingDataset(
  glob: string,
  cwd = process.cwd(),
  workers: BuildWorkers = 'by size',
  scoring: ScoringChoice = AS_GIVEN,
): Promise<DatasetRead> {
  const files = await findInputFiles(glob, cwd);
  const score = await makeRecordScorer(scoring);
  const validate = () => validateDataset(glob, files, cwd, score);
  if (workers === 'by size' && (await totalBytes(files, cwd)) < SCHEMA_CHECK_MIN_BYTES) {
    return { parsed: undefined, checked: Promise.resolve(false), validate };
  }
  const check = startSchemaCheck(files, cwd, scoring);
  let parsed: DatasetInput | undefined;
  try {
    parsed = await parseDataset(files, cwd, score);
  } catch (error) {
    // Malformed input: the validating pass meets it too, after the problems it would report before it.
    if (!(error instanceof InputError)) throw error;
  } finally {
    if (parsed === undefined) await check.stop();
  }
  if (parsed === undefined) return { parsed: undefined, checked: Promise.resolve(false), validate };
  // The worker reads the input files, not the catalog: its count is of the files' records.
  const count = parsed.fileRecords;
  const checked = check.verdict.then((verdict) => verdict.asIs && verdict.records === count);
  return { parsed, checked, validate };
}

/**
 * Read and validate every record of the files matching `glob`. Throws InputError listing every rejected
 * record (schema, duplicate name case-insensitively, a name that is not `<namespace>/<id>`).
 */
export async function readDataset(
  glob: string,
  cwd = process.cwd(),
  workers: BuildWorkers = 'by size',
  scoring: ScoringChoice = AS_GIVEN,
): Promise<DatasetInput> {
  const read = await startReadingDataset(glob, cwd, workers, scoring);
  if (read.parsed !== undefined && (await read.checked)) return read.parsed;
  return read.validate();
}

/**
 * Parse every record, checking names for duplicates but not the schema (the worker's job), each with its
 * keys put in the schema's order. Undefined as soon as a record has no name or repeats one, and when there
 * are no records: the validating pass reports what is wrong, in order with the rest.
 */
async function parseDataset(
  files: readonly string[],
  cwd: string,
  score: RecordScorer,
): Promise<DatasetInput | undefined> {
  const inputHash = createHash('sha256');
  const records: IndexedRecord[] = [];
  const texts = new RecordTexts();
  const seen = new Set<string>();
  let fileRecords: number;
  try {
    for (const file of files) {
      const fileHash = createHash('sha256');
      for await (const batch of rawRecords(file, path.resolve(cwd, file), fileHash)) {
        for (const { raw } of batch) {
          // Only kept once the worker has found it valid: until then it is unchecked input.
          const record = inSchemaOrder(score(raw), ServerRecordSchema) as ServerRecord;
          const key = typeof record?.name === 'string' ? record.name.toLowerCase() : undefined;
          if (key === undefined || seen.has(key)) {
            texts.close();
            return undefined;
          }
          seen.add(key);
          records.push(indexedPartOf(record));
          texts.add(JSON.stringify(record));
        }
      }
      inputHash.update(`${file}\0${fileHash.digest('hex')}\n`);
    }
    fileRecords = records.length;
    // The catalog servers no record was: few, and checked here, since the worker reads the files only.
    for (const raw of score.catalogRecords()) {
      const result = ServerRecordSchema.safeParse(raw);
      const key = result.success ? result.data.name.toLowerCase() : undefined;
      if (key === undefined || seen.has(key)) {
        texts.close();
        return undefined;
      }
      seen.add(key);
      records.push(indexedPartOf(result.data!));
      texts.add(JSON.stringify(inSchemaOrder(raw, ServerRecordSchema)));
    }
  } catch (error) {
    texts.close();
    throw error;
  }
  if (fileRecords === 0) return undefined;
  return {
    records,
    texts,
    files: [...files],
    inputHash: inputHash.digest('hex'),
    checkedBy: 'worker',
    fileRecords,
  };
}

/** Read and validate on this thread, collecting every problem (up to MAX_REPORTED_PROBLEMS). */
async function validateDataset(glob: string, files: string[], cwd: string, score: RecordScorer): Promise<DatasetInput> {
  const inputHash = createHash('sha256');
  const collector = new RecordCollector();
  for (const file of files) {
    const fileHash = createHash('sha256');
    reading: for await (const batch of rawRecords(file, path.resolve(cwd, file), fileHash)) {
      for (const { raw, position } of batch) {
        if (collector.full) break reading;
        collector.add(score(raw), file, position);
      }
    }
    inputHash.update(`${file}\0${fileHash.digest('hex')}\n`);
  }
  const fileRecords = collector.records.length;
  if (!collector.full) {
    score
      .catalogRecords()
      .forEach((raw, index) => collector.add(raw, score.catalogFile ?? '(catalog)', `catalog record #${index + 1}`));
  }
  const { records, texts } = collector.result();
  if (fileRecords === 0) {
    // A snapshot of nothing would answer every lookup with 404 and report an average score of 0.
    throw new InputError([`${glob}: the files hold no server records; a snapshot needs at least one`]);
  }
  return { records, texts, files, inputHash: inputHash.digest('hex'), checkedBy: 'this thread', fileRecords };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
