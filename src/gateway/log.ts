/**
 * One structured JSON line per request on stdout: method, path, status, duration, whether the body came
 * from the cache, and the first 8 hex characters of the key's hash. Never a key, never a query string (a
 * client may put anything there).
 */

export interface RequestLogLine {
  /** ISO 8601 UTC time the request arrived. */
  time: string;
  method: string;
  /** The path only, cut to 200 characters. */
  path: string;
  status: number;
  duration_ms: number;
  cached: boolean;
  /** First 8 hex characters of the SHA-256 of the key; null when no valid key was presented. */
  key: string | null;
}

/** The longest path written to a log line. */
export const MAX_LOGGED_PATH = 200;

let memoMs = Number.NaN;
let memoTime = '';

/**
 * `new Date(ms).toISOString()`, remembered for the last millisecond asked: under load a dozen requests
 * arrive within one, and making the string was much of a log line's cost.
 */
export function logTime(ms: number): string {
  if (ms !== memoMs) {
    memoMs = ms;
    memoTime = new Date(ms).toISOString();
  }
  return memoTime;
}

export type RequestLogger = (line: RequestLogLine) => void;

/** `text` as a JSON string: as is between quotes unless it holds what JSON.stringify escapes. */
function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A control character, a quote, a backslash, or a surrogate (a lone one is escaped).
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff))
      return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * The line exactly as `JSON.stringify` writes it (the same members in the same order), made by hand: in
 * half its time, and every request writes one.
 */
export function formatRequestLogLine(line: RequestLogLine): string {
  const key = line.key === null ? 'null' : jsonString(line.key);
  return (
    `{"time":${jsonString(line.time)},"method":${jsonString(line.method)},"path":${jsonString(line.path)},` +
    `"status":${line.status},"duration_ms":${line.duration_ms},"cached":${line.cached},"key":${key}}`
  );
}

export interface BufferedLineWriter {
  /** Write one line (`text` without its newline). */
  write(text: string): void;
  /** Write out what is buffered now (at shutdown). */
  flush(): void;
}

/** How long a line may wait in the buffer, and how much may gather before it is written at once. */
export interface LineWriterOptions {
  maxDelayMs: number;
  maxBytes: number;
}

export const DEFAULT_LINE_WRITER_OPTIONS: LineWriterOptions = { maxDelayMs: 100, maxBytes: 64 * 1024 };

/**
 * A writer of JSON lines that gathers lines and writes them together, at most `maxDelayMs` after the first
 * one or once `maxBytes` have gathered. Under load that is one system call (and one wake-up of whatever
 * reads the pipe) for hundreds of requests instead of one each: measured with the HTTP benchmark, writing
 * each turn of the event loop to a pipe cost a third of Get Server's throughput. `flush` writes what is
 * left (at shutdown).
 */
export function createBufferedLineWriter(
  write: (text: string) => void = (text) => process.stdout.write(text),
  options: LineWriterOptions = DEFAULT_LINE_WRITER_OPTIONS,
): BufferedLineWriter {
  let buffer: string[] = [];
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (buffer.length === 0) return;
    const text = buffer.join('');
    buffer = [];
    bytes = 0;
    write(text);
  };
  return {
    write(text) {
      buffer.push(text, '\n');
      bytes += text.length + 1;
      if (bytes >= options.maxBytes) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, options.maxDelayMs);
        timer.unref(); // a pending log line never keeps a stopping process alive; shutdown flushes
      }
    },
    flush,
  };
}
