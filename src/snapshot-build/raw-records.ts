/**
 * The records of one input file as parsed, before any validation, with their positions for messages:
 * `.json`, one array of records; `.ndjson`, one record per line, streamed so a file may be larger than a
 * string can hold. The build's own thread and the schema check's worker read input through this alone, so
 * both see the same records in the same order.
 */
import type { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { InputError, readOrFail } from './input-files.js';

/** Above this a `.json` file cannot be parsed as one string; NDJSON has no such limit. */
const MAX_JSON_FILE_BYTES = 400 * 1024 * 1024;
/** A line of an NDJSON file longer than this is refused: a valid record is far shorter. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

/** A raw record and where it is, for messages. */
export interface RawRecord {
  raw: unknown;
  position: string;
}

/**
 * Yields the raw records of a file in batches, with their positions, and adds the file's bytes to `hash`
 * when given (the input hash of the manifest). An NDJSON file is read in chunks and
 * split into lines here (a line may span chunks), so a file larger than a string can hold still reads, and
 * the per-line cost is a `JSON.parse`, not an async step per line.
 */
export async function* rawRecords(
  file: string,
  absolute: string,
  hash?: ReturnType<typeof createHash>,
): AsyncGenerator<RawRecord[]> {
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
        throw new InputError([
          `${file}: line ${lineNumber + 1} is longer than ${MAX_LINE_CHARS} characters; no record is that long`,
        ]);
      }
      return batch;
    };
    /** One segment between line feeds: one line, or several where a lone \r breaks lines as readline does. */
    const parseSegment = (segment: string, batch: RawRecord[]): void => {
      const lines = segment.includes('\r')
        ? (segment.endsWith('\r') ? segment.slice(0, -1) : segment).split('\r')
        : [segment];
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
        hash?.update(chunk as Buffer);
        yield parseLines(decoder.write(chunk as Buffer));
      }
      const last = rest + decoder.end();
      const batch: RawRecord[] = [];
      if (last !== '') parseSegment(last, batch);
      yield batch;
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError([
        `${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      ]);
    }
    return;
  }
  const size = (await stat(absolute).catch(() => undefined))?.size ?? 0;
  if (size > MAX_JSON_FILE_BYTES) {
    throw new InputError([
      `${file}: a .json file may be at most ${MAX_JSON_FILE_BYTES} bytes; split it or use .ndjson`,
    ]);
  }
  const bytes = await readOrFail(absolute);
  hash?.update(bytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new InputError([`${file}: not valid JSON (${(error as Error).message})`]);
  }
  if (!Array.isArray(parsed))
    throw new InputError([`${file}: a .json input file must hold a JSON array of server records`]);
  yield parsed.map((raw: unknown, index) => ({ raw, position: `record #${index + 1}` }));
}
