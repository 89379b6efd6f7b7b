/**
 * A JSON file of one object whose one large member is an array or an object (a cache at registry scale: the
 * collection's entries, the GitHub answers) read a record at a time: the small members and each item of the
 * large one are handed over as they are read, each parsed by `JSON.parse` from its own bytes, so the file is
 * never one string nor one parsed value. The file is read a megabyte at a time and scanned as bytes: every
 * character JSON's structure uses is ASCII, and a byte of a multi-byte UTF-8 character is never one of them.
 *
 * Anything that is not such a JSON text (a truncated file, a bad value, text after the object, the large
 * member twice) throws `JsonRecordsError` when it is reached; a reader that must be all or nothing keeps what
 * it was handed only once the generator has ended.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK_BYTES = 1 << 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const END = -1;

/** The file is not a JSON object of the shape read here; the message says where. */
export class JsonRecordsError extends Error {
  override readonly name = 'JsonRecordsError';
}

/**
 * One piece of the file: a small member; the large member opened (an array or an object), then each of its
 * items (with its key in an object).
 */
export type JsonRecord =
  { member: string; value: unknown } | { opened: 'array' | 'object' } | { item: unknown; key?: string };

/** A file's bytes, read a chunk at a time, with the bytes of one value kept from where it begins. */
class Bytes {
  #buffer = Buffer.alloc(0);
  #at = 0;
  /** The chunks a value spans so far, while one is kept; its start in the current chunk. */
  #kept: Buffer[] | undefined;
  #keptFrom = 0;

  constructor(readonly fd: number) {}

  peek(): number {
    if (this.#at >= this.#buffer.length && !this.#fill()) return END;
    return this.#buffer[this.#at]!;
  }

  take(): number {
    const byte = this.peek();
    if (byte !== END) this.#at++;
    return byte;
  }

  /** Starts keeping the bytes from the next one. */
  keep(): void {
    this.peek();
    this.#kept = [];
    this.#keptFrom = this.#at;
  }

  /** The bytes kept since `keep`, as text. */
  kept(): string {
    const chunks = this.#kept ?? [];
    chunks.push(this.#buffer.subarray(this.#keptFrom, this.#at));
    this.#kept = undefined;
    return (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
  }

  #fill(): boolean {
    this.#kept?.push(this.#buffer.subarray(this.#keptFrom));
    // A new buffer each time: the kept chunks still point into the last one.
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const read = readSync(this.fd, buffer, 0, CHUNK_BYTES, null);
    this.#buffer = buffer.subarray(0, read);
    this.#at = 0;
    this.#keptFrom = 0;
    return read > 0;
  }
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

function nextByte(bytes: Bytes): number {
  while (isSpace(bytes.peek())) bytes.take();
  return bytes.peek();
}

function expectByte(bytes: Bytes, byte: number, what: string): void {
  if (nextByte(bytes) !== byte) throw new JsonRecordsError(`expected ${what}`);
  bytes.take();
}

function skipString(bytes: Bytes): void {
  for (;;) {
    const byte = bytes.take();
    if (byte === END) throw new JsonRecordsError('the file ends inside a string');
    if (byte === BACKSLASH) bytes.take();
    else if (byte === QUOTE) return;
  }
}

/** Moves past one value; what it is is checked when its bytes are parsed. */
function skipValue(bytes: Bytes): void {
  const first = bytes.take();
  if (first === END) throw new JsonRecordsError('the file ends where a value was expected');
  if (first === QUOTE) return skipString(bytes);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    for (let depth = 1; depth > 0;) {
      const byte = bytes.take();
      if (byte === END) throw new JsonRecordsError('the file ends inside a value');
      if (byte === QUOTE) skipString(bytes);
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
    }
    return;
  }
  for (;;) {
    const byte = bytes.peek();
    if (byte === END || byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) return;
    bytes.take();
  }
}

function readValue(bytes: Bytes): unknown {
  nextByte(bytes);
  bytes.keep();
  skipValue(bytes);
  const text = bytes.kept();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new JsonRecordsError(`a value that is not JSON: ${(error as Error).message}`);
  }
}

function readKey(bytes: Bytes): string {
  if (nextByte(bytes) !== QUOTE) throw new JsonRecordsError('expected a member name');
  return readValue(bytes) as string;
}

/** The members of `{...}` as they are read, after its opening brace: `read` reads each one's value. */
function* members(bytes: Bytes, read: (key: string) => Iterable<JsonRecord>): Generator<JsonRecord> {
  if (nextByte(bytes) === CLOSE_OBJECT) return void bytes.take();
  for (;;) {
    const key = readKey(bytes);
    expectByte(bytes, COLON, "':'");
    yield* read(key);
    const after = nextByte(bytes);
    bytes.take();
    if (after === CLOSE_OBJECT) return;
    if (after !== COMMA) throw new JsonRecordsError("expected ',' or '}'");
  }
}

/** The items of `[...]` as they are read, after its opening bracket. */
function* items(bytes: Bytes): Generator<JsonRecord> {
  if (nextByte(bytes) === CLOSE_ARRAY) return void bytes.take();
  for (;;) {
    yield { item: readValue(bytes) };
    const after = nextByte(bytes);
    bytes.take();
    if (after === CLOSE_ARRAY) return;
    if (after !== COMMA) throw new JsonRecordsError("expected ',' or ']'");
  }
}

/**
 * The records of `file`, a JSON object whose member `large` is read an item at a time (an array's items, or
 * an object's members with their keys); every other member is handed over whole. Throws `JsonRecordsError`
 * where the file stops being such a text, and the file system's error when it cannot be opened.
 */
export function* readJsonRecords(file: string, large: string): Generator<JsonRecord> {
  const bytes = new Bytes(openSync(file, 'r'));
  try {
    expectByte(bytes, OPEN_OBJECT, "'{'");
    let seen = false;
    yield* members(bytes, function* (key) {
      const opening = nextByte(bytes);
      if (key !== large || (opening !== OPEN_ARRAY && opening !== OPEN_OBJECT)) {
        yield { member: key, value: readValue(bytes) };
        return;
      }
      if (seen) throw new JsonRecordsError(`the member ${JSON.stringify(large)} twice`);
      seen = true;
      bytes.take();
      yield { opened: opening === OPEN_ARRAY ? 'array' : 'object' };
      if (opening === OPEN_ARRAY) return yield* items(bytes);
      yield* members(bytes, function* (name) {
        yield { key: name, item: readValue(bytes) };
      });
    });
    if (nextByte(bytes) !== END) throw new JsonRecordsError('text after the object');
  } finally {
    closeSync(bytes.fd);
  }
}
