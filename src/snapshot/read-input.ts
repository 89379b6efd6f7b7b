/**
 * Reads the dataset: finds the input files with a glob, parses them (`.json`: one array of records;
 * `.ndjson`: one record per line, streamed so a file may be larger than a string can hold), and validates
 * every record with the one schema. Everything the decisions say to reject is collected and reported at
 * once, naming the file, the record and the rule; nothing is written when anything is wrong.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { type ServerRecord } from '../model/schema.js';
import { ServerRecordSchema } from '../model/record-schema.js';
import { findInputFiles, InputError, readOrFail } from './input-files.js';

export { combineRegistryHash, filesInOneFolder, findInputFiles, hashInput, hashInputs, InputError } from './input-files.js';

/** Above this a `.json` file cannot be parsed as one string; NDJSON has no such limit. */
const MAX_JSON_FILE_BYTES = 400 * 1024 * 1024;
/** A line of an NDJSON file longer than this is refused: a valid record is far shorter. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** Stop collecting after this many bad records: the first ones are enough to act on. */
const MAX_REPORTED_PROBLEMS = 50;

export interface DatasetInput {
  records: ServerRecord[];
  files: string[];
  /** Hash of the input files' relative paths and bytes, recorded in the manifest. */
  inputHash: string;
}

/** Where a record came from, for messages: `data/servers.json: record #12 ("io.github.x/y")`. */
function where(file: string, position: string, raw: unknown): string {
  const name =
    raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string'
      ? ` ("${String((raw as { name: string }).name).slice(0, 200)}")`
      : '';
  return `${file}: ${position}${name}`;
}

/** A raw record and where it is, for messages. */
interface RawRecord {
  raw: unknown;
  position: string;
}

/**
 * Yields the raw records of a file in batches, with their positions. An NDJSON file is read in chunks and
 * split into lines here (a line may span chunks), so a file larger than a string can hold still reads, and
 * the per-line cost is a `JSON.parse`, not an async step per line.
 */
async function* rawRecords(file: string, absolute: string, hash: ReturnType<typeof createHash>): AsyncGenerator<RawRecord[]> {
  if (/\.ndjson$/i.test(file)) {
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let lineNumber = 0;
    /** The records of the complete lines of `text`; what follows the last line break waits for more. */
    const parseLines = (decoded: string): RawRecord[] => {
      const batch: RawRecord[] = [];
      const text = rest + decoded;
      let start = 0;
      // What was left over holds no line feed: the search starts after it.
      for (let end = text.indexOf('\n', rest.length); end >= 0; end = text.indexOf('\n', start)) {
        parseSegment(text.slice(start, end), batch);
        start = end + 1;
      }
      rest = text.slice(start);
      if (rest.length > MAX_LINE_CHARS) {
        throw new InputError([`${file}: line ${lineNumber + 1} is longer than ${MAX_LINE_CHARS} characters; no record is that long`]);
      }
      return batch;
    };
    /** One segment between line feeds: one line, or several where a lone \r breaks lines as readline does. */
    const parseSegment = (segment: string, batch: RawRecord[]): void => {
      const lines = segment.includes('\r') ? (segment.endsWith('\r') ? segment.slice(0, -1) : segment).split('\r') : [segment];
      for (const line of lines) {
        lineNumber++;
        if (line.trim() === '') continue;
        try {
          batch.push({ raw: JSON.parse(line), position: `line ${lineNumber}` });
        } catch (error) {
          throw new InputError([`${file}: line ${lineNumber} is not valid JSON (${(error as Error).message})`]);
        }
      }
    };
    try {
      for await (const chunk of createReadStream(absolute, { highWaterMark: 1 << 20 })) {
        hash.update(chunk as Buffer);
        yield parseLines(decoder.write(chunk as Buffer));
      }
      const last = rest + decoder.end();
      const batch: RawRecord[] = [];
      if (last !== '') parseSegment(last, batch);
      yield batch;
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError([`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
    }
    return;
  }
  const size = (await stat(absolute).catch(() => undefined))?.size ?? 0;
  if (size > MAX_JSON_FILE_BYTES) {
    throw new InputError([`${file}: a .json file may be at most ${MAX_JSON_FILE_BYTES} bytes; split it or use .ndjson`]);
  }
  const bytes = await readOrFail(absolute);
  hash.update(bytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new InputError([`${file}: not valid JSON (${(error as Error).message})`]);
  }
  if (!Array.isArray(parsed)) throw new InputError([`${file}: a .json input file must hold a JSON array of server records`]);
  yield parsed.map((raw: unknown, index) => ({ raw, position: `record #${index + 1}` }));
}

/**
 * Validates records one by one, keeping the good ones and a message for each bad one: the schema, a
 * duplicate name (case-insensitively), a name that is not `<namespace>/<id>`.
 */
export class RecordCollector {
  readonly records: ServerRecord[] = [];
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
      this.problems.push(`${where(file, position, raw)}: duplicate name (names are compared case-insensitively; first seen at ${first})`);
      return;
    }
    this.seen.set(key, `${file} ${position}`);
    this.records.push(record);
  }

  /** The valid records, or an InputError listing every problem. */
  result(): ServerRecord[] {
    if (this.problems.length === 0) return this.records;
    const more = this.full ? [`(stopped after ${MAX_REPORTED_PROBLEMS} problems)`] : [];
    throw new InputError([...this.problems, ...more]);
  }
}

/**
 * Read and validate every record of the files matching `glob`. Throws InputError listing every rejected
 * record (schema, duplicate name case-insensitively, a name that is not `<namespace>/<id>`).
 */
export async function readDataset(glob: string, cwd = process.cwd()): Promise<DatasetInput> {
  const files = await findInputFiles(glob, cwd);
  const inputHash = createHash('sha256');
  const collector = new RecordCollector();
  for (const file of files) {
    const fileHash = createHash('sha256');
    reading: for await (const batch of rawRecords(file, path.resolve(cwd, file), fileHash)) {
      for (const { raw, position } of batch) {
        if (collector.full) break reading;
        collector.add(raw, file, position);
      }
    }
    inputHash.update(`${file}\0${fileHash.digest('hex')}\n`);
  }
  const records = collector.result();
  if (records.length === 0) {
    // A snapshot of nothing would answer every lookup with 404 and report an average score of 0.
    throw new InputError([`${glob}: the files hold no server records; a snapshot needs at least one`]);
  }
  return { records, files, inputHash: inputHash.digest('hex') };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
