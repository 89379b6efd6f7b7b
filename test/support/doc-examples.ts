/**
 * The documented examples of README.md and docs/*.md, read from the Markdown itself, and the rules that
 * compare what a document shows with a real answer. A documented example is one of:
 *
 * - a fenced `sh` block holding `curl` commands, then (after blank lines only) a fenced block with the
 *   answer: `HTTP/1.1 <status> <reason>`, the headers and a blank line before the body (what `curl -i`
 *   prints), or the body alone. A `sh` block with no answer after it holds one or more commands that must
 *   each succeed. The `sh` fence's info string may add `env=NAME=value` (the server is started with it) and
 *   `nth=N` (the command is sent N times and the last answer is the one shown);
 * - a plain fenced block of `$ curl …` lines, each followed by its answer's body.
 *
 * Values that differ on every run are compared by their form: keys, timestamps, snapshot ids, ETags, the
 * rate-limit counters and reset, `Retry-After`; everything else exactly. In JSON, an object with the member
 * `"...": "..."` shows only some of its members (in the order the answer has them).
 */
import { countWord } from '../../scripts/lib/route-docs.js';

export interface Example {
  /** `docs/api.md:148` */
  where: string;
  command: string;
  env: Record<string, string>;
  nth: number;
  /** Undefined: the command must succeed (2xx), nothing more is shown. */
  shown?: { status?: { code: number; reason: string }; headers?: Array<[string, string]>; body: string };
}

interface Fence {
  info: string;
  text: string;
  line: number;
  /** The line after the closing fence. */
  end: number;
}

/** Every fenced block of a Markdown text, with the line its content starts on (1-based). */
export function fences(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i + 1;
    let close = start;
    while (close < lines.length && lines[close] !== '```') close++;
    found.push({
      info: (open[1] ?? '').trim(),
      text: lines.slice(start, close).join('\n'),
      line: start + 1,
      end: close + 1,
    });
    i = close;
  }
  return found;
}

/** The commands of a shell block: lines joined where a quote is still open or a line ends with `\`. */
function commands(text: string): string[] {
  const result: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    current = current === '' ? line : `${current}\n${line}`;
    const quotes = (current.match(/'/g) ?? []).length;
    if (quotes % 2 === 0 && !current.endsWith('\\')) {
      if (current.trim() !== '') result.push(current.trim());
      current = '';
    }
  }
  return result;
}

/** Split `HTTP/1.1 …`, headers and body; or the body alone. */
function parseShown(text: string): NonNullable<Example['shown']> {
  const status = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(text.split('\n')[0] ?? '');
  if (!status) return { body: text.trim() };
  const [head = '', ...rest] = text.split('\n\n');
  const headers = head
    .split('\n')
    .slice(1)
    .map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
  return { status: { code: Number(status[1]), reason: status[2] ?? '' }, headers, body: rest.join('\n\n').trim() };
}

/** True when only blank lines stand between the fences `first` and `second`. */
function follows(lines: string[], first: Fence, second: Fence): boolean {
  return lines.slice(first.end, second.line - 2).every((line) => line.trim() === '');
}

/** The documented examples of one Markdown file (`file` is its path relative to the repository). */
export function examplesOf(file: string, markdown: string): Example[] {
  const blocks = fences(markdown);
  const lines = markdown.split('\n');
  const examples: Example[] = [];
  blocks.forEach((block, index) => {
    const [language = '', ...attributes] = block.info.split(/\s+/);
    if (language === 'sh' && /^curl\b/m.test(block.text)) {
      const env: Record<string, string> = {};
      let nth = 1;
      for (const attribute of attributes) {
        const envMatch = /^env=([A-Z_]+)=(.*)$/.exec(attribute);
        if (envMatch) env[envMatch[1] ?? ''] = envMatch[2] ?? '';
        const nthMatch = /^nth=(\d+)$/.exec(attribute);
        if (nthMatch) nth = Number(nthMatch[1]);
      }
      const next = blocks[index + 1];
      const answered = next !== undefined && next.info.split(/\s+/)[0] !== 'sh' && follows(lines, block, next);
      const cmds = commands(block.text).filter((command) => command.startsWith('curl'));
      if (answered && cmds.length !== 1) throw new Error(`${file}:${block.line}: one command per answered example`);
      let shown = answered && next ? parseShown(next.text) : undefined;
      // `curl -i`'s status line and headers in one block, the JSON body in the next (so it can be formatted).
      const body = blocks[index + 2];
      if (next && shown?.status && shown.body === '' && body?.info === 'json' && follows(lines, next, body))
        shown = { ...shown, body: body.text };
      for (const command of cmds) examples.push({ where: `${file}:${block.line}`, command, env, nth, shown });
    } else if (language === '' && /^\$ curl/m.test(block.text)) {
      const parts = block.text.split(/^\$ /m).filter((part) => part.trim() !== '');
      for (const part of parts) {
        const [command = '', ...output] = part.split('\n');
        const line = block.line + block.text.slice(0, block.text.indexOf(`$ ${command}`)).split('\n').length - 1;
        examples.push({
          where: `${file}:${line}`,
          command,
          env: {},
          nth: 1,
          shown: { body: output.join('\n').trim() },
        });
      }
    }
  });
  return examples;
}

/** Every `curl` command that starts a line of a fenced block: what the examples above must account for. */
export function curlCount(markdown: string): number {
  return fences(markdown).reduce((sum, block) => sum + (block.text.match(/^(\$ )?curl\b/gm) ?? []).length, 0);
}

export interface CurlRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** `-i`: the status line and headers are part of what is shown. */
  include: boolean;
}

/** Shell words of a command (single and double quotes, `\` line continuations), with `$NAME` expanded. */
function words(command: string, vars: Record<string, string>): string[] {
  const result: string[] = [];
  let word: string | undefined;
  const expand = (text: string) => text.replace(/\$([A-Z_]+)/g, (_, name: string) => vars[name] ?? `$${name}`);
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\\\n)|(\s+)|([^\s'"\\]+)/gy;
  let match: RegExpExecArray | null;
  while ((match = re.exec(command)) !== null) {
    if (match[1] !== undefined) word = (word ?? '') + match[1];
    else if (match[2] !== undefined) word = (word ?? '') + expand(match[2].replace(/\\(.)/g, '$1'));
    else if (match[5] !== undefined) word = (word ?? '') + expand(match[5]);
    else if (word !== undefined) {
      result.push(word);
      word = undefined;
    }
  }
  if (word !== undefined) result.push(word);
  return result;
}

/** The request a `curl` command sends (the options the documents use: -i, -H, -X, -d). */
export function parseCurl(command: string, vars: Record<string, string>): CurlRequest {
  const args = words(command, vars).slice(1);
  const request: CurlRequest = { method: 'GET', path: '', headers: {}, include: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-i') request.include = true;
    else if (arg === '-H') {
      const header = args[++i] ?? '';
      const colon = header.indexOf(':');
      request.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (arg === '-X') request.method = args[++i] ?? '';
    else if (arg === '-d') {
      request.body = args[++i] ?? '';
      if (request.method === 'GET') request.method = 'POST';
    } else if (arg.startsWith('-')) throw new Error(`curl option ${arg} is not one the examples may use`);
    else request.path = new URL(arg).pathname + new URL(arg).search;
  }
  return request;
}

/** The words of 0 to 99 as the generated docs write them ("seventeen", "twenty-two"), to their numbers. */
const COUNT_BY_WORD = new Map(Array.from({ length: 100 }, (_, count) => [countWord(count), count] as const));

/**
 * Every count of routes a text states ("Five routes", "17 endpoints", "the seventeen paths"), as numbers, with
 * the words that state it: a document that says how many routes there are must say the route table's number.
 */
export function routeCountClaims(text: string): { count: number; words: string }[] {
  const claims: { count: number; words: string }[] = [];
  // Longest first, so `twenty-two routes` is read as one count, not as `two routes`.
  const words = [...COUNT_BY_WORD.keys()].sort((a, b) => b.length - a.length).join('|');
  const pattern = new RegExp(`\\b(\\d+|${words})\\s+(?:api\\s+)?(routes|paths|endpoints)\\b`, 'gi');
  for (const match of text.matchAll(pattern)) {
    const said = (match[1] ?? '').toLowerCase();
    const count = /^\d+$/.test(said) ? Number(said) : (COUNT_BY_WORD.get(said) ?? -1);
    claims.push({ count, words: match[0] });
  }
  return claims;
}

/** Every Node version range a text states ("Node 20+", "Node 20.19 or later", "Node 20.19 to 22"). */
export function nodeVersionClaims(text: string): string[] {
  return [
    ...text.matchAll(/\bNode(?:\.js)? \d+(?:\.\d+)*(?:\+| or later| and later| or newer| to \d+(?:\.\d+)*)/g),
  ].map((match) => match[0]);
}

/** How the documents state `package.json`'s `engines.node` (`>=20.19 <23` → `Node 20.19 to 22`). */
export function nodeVersionPhrase(engines: string): string {
  const match = /^>=(\d+(?:\.\d+)*) <(\d+)$/.exec(engines.trim());
  if (!match) throw new Error(`engines.node "${engines}" is not of the form ">=A <B"`);
  return `Node ${match[1]} to ${Number(match[2]) - 1}`;
}
