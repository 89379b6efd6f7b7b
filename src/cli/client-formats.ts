/**
 * The user-level configuration files of MCP clients, each read in its own format by a maintained parser
 * (`jsonc-parser` for JSON with comments, `yaml`, `smol-toml`) and its own shape: where the servers are kept
 * and how an entry names what it runs (`entryFields`). Each entry keeps the line it is declared on.
 */
import { LineCounter, parseDocument, isMap, isScalar, isSeq } from 'yaml';
import { parse as parseToml, TomlError } from 'smol-toml';
import { type ConfigEntry, ConfigFileError, entriesOf, entryFields, member, parseJsoncTree } from './config-files.js';

/**
 * Where a client keeps its servers: `mcpServers` (Claude Desktop, Cursor, Windsurf, Gemini CLI), Claude Code's
 * `~/.claude.json` (`mcpServers` and each project's), VS Code's `mcp.json` (`servers`) and `settings.json`
 * (`mcp.servers`), Zed (`context_servers`), opencode (`mcp`), Continue's YAML (`mcpServers`, a list), Codex's
 * TOML (`mcp_servers`).
 */
export type ClientShape =
  | 'mcpServers'
  | 'claude-code'
  | 'vscode-mcp'
  | 'vscode-settings'
  | 'zed'
  | 'opencode'
  | 'amp'
  | 'continue-yaml'
  | 'codex-toml';

/** The path of members, from the root, to each object of servers a JSON shape keeps. */
const JSON_PATHS: Record<Exclude<ClientShape, 'continue-yaml' | 'codex-toml' | 'claude-code'>, string[]> = {
  mcpServers: ['mcpServers'],
  'vscode-mcp': ['servers'],
  'vscode-settings': ['mcp', 'servers'],
  zed: ['context_servers'],
  opencode: ['mcp'],
  // Amp keeps its servers under one dotted key of its settings file.
  amp: ['amp.mcpServers'],
};

function jsonEntries(file: string, text: string, shape: ClientShape): ConfigEntry[] {
  const { root, lineOf } = parseJsoncTree(file, text);
  if (root.type !== 'object') throw new ConfigFileError(`${file}: expected a JSON object`);
  if (shape === 'claude-code') {
    // Servers of the user, then those Claude Code keeps for each project folder.
    const entries = [];
    const top = member(root, 'mcpServers');
    if (top?.type === 'object') for (const entry of entriesOf(file, top, lineOf)) entries.push(entry);
    for (const project of member(root, 'projects')?.children ?? []) {
      const [key, value] = project.children ?? [];
      const servers = member(value, 'mcpServers');
      if (typeof key?.value !== 'string' || servers?.type !== 'object') continue;
      for (const entry of entriesOf(file, servers, lineOf)) {
        entries.push({ ...entry, name: `${entry.name} (project ${key.value})` });
      }
    }
    return entries;
  }
  let node: typeof root | undefined = root;
  for (const key of JSON_PATHS[shape as keyof typeof JSON_PATHS]) node = member(node, key);
  return node?.type === 'object' ? entriesOf(file, node, lineOf) : [];
}

/** Continue's YAML: `mcpServers` is a list of `{name, command, args}` or `{name, url}`. */
function yamlEntries(file: string, text: string): ConfigEntry[] {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false });
  const error = document.errors[0];
  if (error !== undefined) {
    throw new ConfigFileError(
      `${file}: not valid YAML (${error.code} at line ${lineCounter.linePos(error.pos[0]).line})`,
    );
  }
  const servers = isMap(document.contents) ? document.contents.get('mcpServers', true) : undefined;
  if (!isSeq(servers)) return [];
  return servers.items.flatMap((item, index) => {
    const value: unknown = isMap(item) ? item.toJSON() : undefined;
    if (value === undefined || value === null || typeof value !== 'object') return [];
    const name = (value as { name?: unknown }).name;
    const line = lineCounter.linePos((isMap(item) || isScalar(item) ? item.range?.[0] : undefined) ?? 0).line;
    return [{ file, name: typeof name === 'string' ? name : `#${index + 1}`, line, ...entryFields(value) }];
  });
}

/**
 * A TOML basic string's text (`"a\\u00e9\\U0001F600"`): TOML's escapes are JSON's plus `\\U` with eight hex
 * digits, which JSON lacks. Undefined when it is not one (the parser already accepted the file; this only
 * finds a header's line).
 */
function tomlBasicString(quoted: string): string | undefined {
  const json = quoted.replace(
    /\\(\\|U([0-9A-Fa-f]{8}))/g,
    (whole: string, _escape: string, hex: string | undefined) => {
      if (hex === undefined) return whole;
      const code = Number.parseInt(hex, 16);
      return code <= 0x10ffff ? JSON.stringify(String.fromCodePoint(code)).slice(1, -1) : whole;
    },
  );
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Codex's TOML: a table `[mcp_servers.<name>]` per server, with `command`, `args` or `url`. */
function tomlEntries(file: string, text: string): ConfigEntry[] {
  let root: Record<string, unknown>;
  try {
    root = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    throw new ConfigFileError(`${file}: not valid TOML (${error.message.split('\n')[0]} at line ${error.line})`);
  }
  const servers = root.mcp_servers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return [];
  // The line of each `[mcp_servers.<name>]` header, found in one pass over the lines.
  const headers = new Map<string, number>();
  text.split('\n').forEach((line, index) => {
    const match = /^\s*\[\s*mcp_servers\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*\]/.exec(line);
    if (match?.[1] === undefined) return;
    const key = match[1].startsWith('"') ? tomlBasicString(match[1]) : match[1].replace(/^'|'$/g, '');
    if (key === undefined) return;
    if (!headers.has(key)) headers.set(key, index + 1);
  });
  return Object.entries(servers as Record<string, unknown>).map(([name, value]) => ({
    file,
    name,
    line: headers.get(name) ?? 1,
    ...entryFields(value),
  }));
}

/** The server entries of a client's configuration file; a ConfigFileError (one line) when it cannot be read. */
export function parseClientConfig(file: string, text: string, shape: ClientShape): ConfigEntry[] {
  if (shape === 'continue-yaml') return yamlEntries(file, text);
  if (shape === 'codex-toml') return tomlEntries(file, text);
  return jsonEntries(file, text, shape);
}
