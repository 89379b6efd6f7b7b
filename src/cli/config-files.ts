/**
 * MCP client configuration files, as the clients write them: `.mcp.json` (Claude Code), `.cursor/mcp.json`
 * (Cursor) and `claude_desktop_config.json` (Claude Desktop) keep servers under `mcpServers`;
 * `.vscode/mcp.json` (VS Code) under `servers`, in JSON with comments and trailing commas, read by
 * `jsonc-parser` (VS Code's own). Each server entry keeps the line it is declared on, so a report can point at
 * it; the lines come from one table of line starts made once per file, so a file of many thousands of entries
 * is read in time proportional to its size. Runs in the browser too (`browser.ts`): no Node modules here.
 */
import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { OperatorError } from '../errors/operator-error.js';
import { printable } from '../model/printable.js';

/** The files looked for in the working folder when none is named. */
export const DEFAULT_CONFIG_FILES = ['.mcp.json', '.vscode/mcp.json', '.cursor/mcp.json', 'claude_desktop_config.json'];

/** One server entry of a configuration file. */
export interface ConfigEntry {
  /** The file it was read from, as given. */
  file: string;
  /** The entry's key: the name the configuration gives the server. */
  name: string;
  /** 1-based line of the entry's key in the file. */
  line: number;
  command?: string;
  args: string[];
  url?: string;
}

/** A configuration file that cannot be read or understood: exit code 2, one line naming the file, escaped. */
export class ConfigFileError extends OperatorError {
  override name = 'ConfigFileError';
  constructor(message: string) {
    super(printable(message), { exitCode: 2 });
  }
}

/** 1-based line of a character offset, by binary search in the offsets where lines start (made once). */
export function lineTable(text: string): (offset: number) => number {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * What a server entry runs or connects to, whichever client wrote it: `command` + `args` (most clients), a
 * `command` array (opencode), a `command` object `{path, args}` (Zed), and `url`, `serverUrl` (Windsurf) or
 * `httpUrl` (Gemini CLI) for a remote.
 */
export function entryFields(value: unknown): Pick<ConfigEntry, 'command' | 'args' | 'url'> {
  const entry = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const url = text(entry.url) ?? text(entry.serverUrl) ?? text(entry.httpUrl);
  let command = text(entry.command);
  let args = stringList(entry.args);
  if (Array.isArray(entry.command)) {
    const [first, ...rest] = stringList(entry.command);
    command = first;
    args = [...rest, ...args];
  } else if (entry.command !== null && typeof entry.command === 'object') {
    const inner = entry.command as Record<string, unknown>;
    command = text(inner.path) ?? text(inner.command);
    args = stringList(inner.args);
  }
  return { ...(command === undefined ? {} : { command }), args, ...(url === undefined ? {} : { url }) };
}

/** A JSON-with-comments document's tree; a ConfigFileError naming the first syntax error and its line. */
export function parseJsoncTree(file: string, source: string): { root: Node; lineOf: (offset: number) => number } {
  const body = source.replace(/^\uFEFF/, '');
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    // The parser recurses once per level of nesting: a file of a million `[` is refused, not a crash.
    if (error instanceof RangeError) throw new ConfigFileError(`${file}: not valid JSON (nested too deeply)`);
    throw error;
  }
  const lineOf = lineTable(body);
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    const where = first === undefined ? '' : ` at line ${lineOf(first.offset)}`;
    const what = first === undefined ? 'empty' : printParseErrorCode(first.error);
    throw new ConfigFileError(`${file}: not valid JSON (${what}${where})`);
  }
  return { root, lineOf };
}

/** The member `key` of an object node. */
export function member(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') return undefined;
  const property = node.children?.find((child) => child.children?.[0]?.value === key);
  return property?.children?.[1];
}

/** The server entries of an object node whose members are servers. */
export function entriesOf(file: string, servers: Node, lineOf: (offset: number) => number): ConfigEntry[] {
  return (servers.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    if (key === undefined || typeof key.value !== 'string') return [];
    const plain = nodeValue(value, 0);
    if (plain === TOO_DEEP) {
      throw new ConfigFileError(
        `${file}: the server "${key.value.slice(0, 80)}" is nested more than ${MAX_DEPTH} levels deep`,
      );
    }
    return [{ file, name: key.value, line: lineOf(key.offset), ...entryFields(plain) }];
  });
}

/** How deep a server's value may nest: far more than any client writes, far less than the stack allows. */
const MAX_DEPTH = 64;
const TOO_DEEP = Symbol('too deep');

/** A node's value as plain JSON (jsonc-parser's `getNodeValue`, kept to what an entry needs). */
function nodeValue(node: Node | undefined, depth: number): unknown {
  if (node === undefined) return undefined;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (node.type === 'array') {
    const items = (node.children ?? []).map((child) => nodeValue(child, depth + 1));
    return items.includes(TOO_DEEP) ? TOO_DEEP : items;
  }
  if (node.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (typeof key?.value !== 'string') continue;
      const member = nodeValue(value, depth + 1);
      if (member === TOO_DEEP) return TOO_DEEP;
      out[key.value] = member;
    }
    return out;
  }
  return node.value;
}

/** Parse the text of a configuration file into its server entries. */
export function parseConfigFile(file: string, source: string): ConfigEntry[] {
  const { root, lineOf } = parseJsoncTree(file, source);
  if (root.type !== 'object') {
    throw new ConfigFileError(`${file}: expected a JSON object with "mcpServers" or "servers"`);
  }
  const key = member(root, 'mcpServers') !== undefined ? 'mcpServers' : 'servers';
  const servers = member(root, key);
  if (servers === undefined) throw new ConfigFileError(`${file}: no "mcpServers" or "servers" object in it`);
  if (servers.type !== 'object') throw new ConfigFileError(`${file}: "${key}" must be an object of server entries`);
  return entriesOf(file, servers, lineOf);
}
