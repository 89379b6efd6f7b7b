/**
 * HTTP/1.1 by hand over a plain `net` socket, for tests that must send what no HTTP client would: raw bytes
 * in the request line, broken headers, truncated requests, abrupt closes. It reads back one response (or
 * the close) and says how long that took, so a test can bound it.
 */
import net from 'node:net';

/** How the client ends its side once the bytes are written. */
export type Ending =
  /** Keep the connection open and wait for the answer. */
  | 'wait'
  /** Half-close (FIN) after writing, then wait: the server sees the request end there. */
  | 'half-close'
  /** Reset the connection right after writing and read nothing: the server must cope on its own. */
  | 'abort';

export interface RawAnswer {
  /** The status of the first response; undefined when the connection closed (or was aborted) without one. */
  status?: number;
  /** Its headers, names lower-case (a repeated header keeps the last value). */
  headers: Record<string, string>;
  /** Its body as latin1 text (as many bytes as `content-length` says, or what arrived before the close). */
  body: string;
  /** Whether the server closed the connection (rather than the answer being complete on an open one). */
  closed: boolean;
  /** True when neither an answer nor a close came within the bound. */
  hung: boolean;
  /** Milliseconds from connecting to the answer or the close. */
  ms: number;
}

export interface ExchangeOptions {
  ending?: Ending;
  /** Give up (and report `hung`) after this many milliseconds. Default 15 s. */
  boundMs?: number;
  /** After the headers, how long to wait for a body that may never come (a HEAD answer). Default 300 ms. */
  bodyGraceMs?: number;
}

/** Send `bytes` to 127.0.0.1:`port` and read one response, the close, or nothing within the bound. */
export function exchange(port: number, bytes: Buffer | string, options: ExchangeOptions = {}): Promise<RawAnswer> {
  const { ending = 'wait', boundMs = 15_000, bodyGraceMs = 300 } = options;
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const bound = setTimeout(() => finish({ hung: true, closed: false }), boundMs);

    function finish(state: { hung: boolean; closed: boolean }) {
      if (settled) return;
      settled = true;
      clearTimeout(bound);
      clearTimeout(grace);
      socket.destroy();
      resolve({ ...parse(data), ...state, ms: performance.now() - started });
    }

    socket.on('connect', () => {
      socket.write(bytes);
      if (ending === 'half-close') socket.end();
      if (ending === 'abort') {
        socket.resetAndDestroy();
        finish({ hung: false, closed: true });
      }
    });
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const { status, headers, body } = parse(data);
      if (status === undefined) return;
      const length = Number(headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(length) && body.length >= length) finish({ hung: false, closed: false });
      else if (grace === undefined) grace = setTimeout(() => finish({ hung: false, closed: false }), bodyGraceMs);
    });
    socket.on('close', () => finish({ hung: false, closed: true }));
    socket.on('error', () => finish({ hung: false, closed: true }));
  });
}

/** The first final response in `data`: interim ones (`100 Continue` to `Expect: 100-continue`) are skipped. */
function parse(data: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  let text = data.toString('latin1');
  while (/^HTTP\/1\.[01] 1\d\d /.test(text) && text.includes('\r\n\r\n'))
    text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const head = text.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (match === null || head === -1) return { headers, body: '' };
  for (const line of text.slice(0, head).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? Number.NaN);
  let rest = text.slice(head + 4);
  // A HEAD answer announces a length but has no body: what follows it is the next response, not its body.
  if (/^HTTP\/1\.[01] \d{3} /.test(rest)) rest = '';
  return { status: Number(match[1]), headers, body: Number.isFinite(length) ? rest.slice(0, length) : rest };
}
