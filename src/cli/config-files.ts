/**
 * MCP client configuration files, as the clients write them: `.mcp.json` (Claude Code), `.cursor/mcp.json`
 * (Cursor) and `claude_desktop_config.json` (Claude Desktop) keep servers under `mcpServers`;
 * `.vscode/mcp.json` (VS Code) under `servers`, in JSON with comments and trailing commas. Each server entry
 * keeps the line it is declared on, so a report can point at it.
 */
import { OperatorError } from '../errors/operator-error.js';

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

/** A configuration file that cannot be read or understood: exit code 2, one line naming the file. */
export class ConfigFileError extends OperatorError {
  override name = 'ConfigFileError';
  constructor(message: string) {
    super(message, { exitCode: 2 });
  }
}

/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas → JSON, keeping every newline so positions and line
 * numbers stay those of the file. Strings are copied as they are, whatever they hold.
 */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end === -1 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, ' ');
      i = end === -1 ? text.length : end + 2;
    } else {
      out += char;
      i++;
    }
  }
  // A comma followed only by white space and a closing bracket is a trailing comma: drop it.
  return out.replace(/,(\s*[}\]])/g, '$1');
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The line of the key `"name"` of the entry, searched after the servers object's key. */
function lineOf(text: string, name: string, from: number): number {
  const key = JSON.stringify(name);
  const at = text.indexOf(key, from);
  return at === -1 ? 1 : lineAt(text, at);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Parse the text of a configuration file into its server entries. */
export function parseConfigFile(file: string, text: string): ConfigEntry[] {
  const json = stripJsonc(text.replace(/^\uFEFF/, ''));
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ConfigFileError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigFileError(`${file}: expected a JSON object with "mcpServers" or "servers"`);
  }
  const root = parsed as Record<string, unknown>;
  const key = 'mcpServers' in root ? 'mcpServers' : 'servers' in root ? 'servers' : undefined;
  if (key === undefined) throw new ConfigFileError(`${file}: no "mcpServers" or "servers" object in it`);
  const servers = root[key];
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new ConfigFileError(`${file}: "${key}" must be an object of server entries`);
  }
  const from = json.indexOf(`"${key}"`);
  return Object.entries(servers as Record<string, unknown>).map(([name, value]) => {
    const entry = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const url =
      typeof entry.url === 'string' ? entry.url : typeof entry.serverUrl === 'string' ? entry.serverUrl : undefined;
    return {
      file,
      name,
      line: lineOf(json, name, from),
      ...(typeof entry.command === 'string' ? { command: entry.command } : {}),
      args: stringList(entry.args),
      ...(url === undefined ? {} : { url }),
    };
  });
}
