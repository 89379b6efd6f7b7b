/**
 * Large JSON artifacts written as lines, so a reader can parse them a slice at a time instead of in one
 * `JSON.parse` that holds the event loop for as long as the file is big. Each line is one member of a top-level object, or a chunk of one: `{"k":name,"v":value}`
 * for a small member, `{"k":name,"a":[items]}` for a chunk of an array, `{"k":name,"o":[[key,value],...]}`
 * for a chunk of an object (read back without a prototype). Chunks of one member are joined in order.
 */
import { nextSlice, type Slicer } from './slicer.js';

/** About this many bytes per line: one line parses well within a slice. */
const BYTES_PER_LINE = 128 * 1024;

/** `items` in lines of about BYTES_PER_LINE each (an item bigger than that is a line of its own). */
function* chunked(name: string, kind: 'a' | 'o', items: Iterable<unknown>): Generator<string> {
  let chunk: string[] = [];
  let size = 0;
  let lines = 0;
  const line = () => {
    const text = `{"k":${JSON.stringify(name)},"${kind}":[${chunk.join(',')}]}`;
    chunk = [];
    size = 0;
    lines++;
    return text;
  };
  for (const item of items) {
    const text = JSON.stringify(item);
    chunk.push(text);
    size += text.length;
    if (size >= BYTES_PER_LINE) yield line();
  }
  // An empty member is one line too, so that it is read back.
  if (chunk.length > 0 || lines === 0) yield line();
}

/** A plain object's own entries one at a time, in `Object.entries` order, without making them all at once. */
function* entriesOf(value: Readonly<Record<string, unknown>>): Generator<[string, unknown]> {
  for (const key in value) if (Object.hasOwn(value, key)) yield [key, value[key]];
}

/** The lines of `value` (a plain object) with the members named in `split` written in chunks. */
export function* jsonLinesOf(value: Readonly<Record<string, unknown>>, split: readonly string[]): Generator<string> {
  for (const [name, member] of Object.entries(value)) {
    if (!split.includes(name)) yield JSON.stringify({ k: name, v: member });
    else if (Array.isArray(member)) yield* chunked(name, 'a', member);
    else yield* chunked(name, 'o', entriesOf(member as Record<string, unknown>));
  }
}

/** The text of `value` in one string: `jsonLinesOf`'s lines, each ending in a line feed. */
export function toJsonLines(value: Readonly<Record<string, unknown>>, split: readonly string[]): string {
  return [...jsonLinesOf(value, split)].join('\n') + '\n';
}

/** Why a file is not JSON lines; the caller names the file. */
export class JsonLinesError extends Error {}

type Line = { k: string; v?: unknown; a?: unknown[]; o?: [string, unknown][] };

/** What one line holds: a whole member (`v`), or a chunk of an array member (`a`) or of an object member (`o`). */
export type JsonLine =
  | { name: string; value: unknown }
  | { name: string; items: unknown[] }
  | { name: string; entries: [string, unknown][] };

function parseLine(text: string): JsonLine {
  let line: Line;
  try {
    line = JSON.parse(text) as Line;
  } catch {
    throw new JsonLinesError('not valid JSON lines');
  }
  if (typeof line?.k !== 'string') throw new JsonLinesError('a line without a member name');
  if (line.a !== undefined) {
    if (!Array.isArray(line.a)) throw new JsonLinesError('an array chunk that is not an array');
    return { name: line.k, items: line.a };
  }
  if (line.o !== undefined) {
    if (!Array.isArray(line.o)) throw new JsonLinesError('an object chunk that is not a list of entries');
    return { name: line.k, entries: line.o };
  }
  return { name: line.k, value: line.v };
}

/** The lines of `bytes` parsed, one at a time; throws when the last line has no newline (a truncated file). */
function* linesOf(bytes: Buffer): Generator<JsonLine> {
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start))
    yield parseLine(bytes.toString('utf8', start, end));
  if (start !== bytes.length) throw new JsonLinesError('the last line has no newline (truncated)');
}

function addLine(into: Record<string, unknown>, line: JsonLine): void {
  // Objects without a prototype: a member or key called `__proto__` is data like any other.
  if ('items' in line) {
    if (!Object.hasOwn(into, line.name)) into[line.name] = [];
    const target = into[line.name] as unknown[];
    for (const item of line.items) target.push(item);
  } else if ('entries' in line) {
    if (!Object.hasOwn(into, line.name)) into[line.name] = Object.create(null);
    const target = into[line.name] as Record<string, unknown>;
    for (const [key, value] of line.entries) target[key] = value;
  } else {
    into[line.name] = line.value;
  }
}

/**
 * Each line of `bytes`, parsed and handed to `visit`, yielding to the event loop between slices: for a reader
 * that keeps its own compact form of the members instead of the objects.
 */
export async function forEachJsonLine(bytes: Buffer, slicer: Slicer, visit: (line: JsonLine) => void): Promise<void> {
  for (const line of linesOf(bytes)) {
    visit(line);
    await nextSlice(slicer);
  }
}

/** The object `bytes` holds, parsed a line at a time, yielding to the event loop between slices. */
export async function parseJsonLines(bytes: Buffer, slicer: Slicer): Promise<Record<string, unknown>> {
  const value = Object.create(null) as Record<string, unknown>;
  await forEachJsonLine(bytes, slicer, (line) => addLine(value, line));
  return value;
}

/** The same, in one go (for a build or a tool, where nothing else waits). */
export function parseJsonLinesSync(bytes: Buffer): Record<string, unknown> {
  const value = Object.create(null) as Record<string, unknown>;
  for (const line of linesOf(bytes)) addLine(value, line);
  return value;
}
