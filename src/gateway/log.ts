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

export type RequestLogger = (line: RequestLogLine) => void;

export interface BufferedLineWriter {
  write(line: object): void;
  /** Write out what is buffered now (at shutdown). */
  flush(): void;
}

/**
 * A writer of JSON lines that gathers the lines of one turn of the event loop into one write: under load
 * that is one system call for many requests instead of one each (stdout to a pipe or file is synchronous).
 */
export function createBufferedLineWriter(
  write: (text: string) => void = (text) => process.stdout.write(text),
): BufferedLineWriter {
  let buffer: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer.length === 0) return;
    const text = buffer.join('');
    buffer = [];
    write(text);
  };
  return {
    write(line) {
      buffer.push(`${JSON.stringify(line)}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
