/**
 * `check --user`: the user-level configuration files of the common MCP clients, on Linux, macOS and Windows.
 * Every place any of the three systems uses is looked at (a macOS path on Linux simply does not exist), from
 * `HOME` (or `USERPROFILE`), `APPDATA` and `XDG_CONFIG_HOME`, so a test points them at a fixture tree. Each
 * file found is read with the rules of `read-config.ts` (a regular file, capped) but may be anywhere (a
 * dotfile manager's link); one that cannot be read or parsed is reported, and the others are still checked.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { type ClientShape, parseClientConfig } from './client-formats.js';
import { type ConfigEntry, ConfigFileError } from './config-files.js';
import { readConfigText } from './read-config.js';

export interface ClientConfigPlace {
  client: string;
  file: string;
  shape: ClientShape;
}

/** What reading one file gave: its entries, or why it could not be read. */
export type FileOutcome =
  | { file: string; client: string; read: true; servers: number }
  | { file: string; client: string; read: false; reason: string };

type Env = Readonly<Record<string, string | undefined>>;

/** Every place a client keeps its user-level configuration, for this environment, each once. */
export function userConfigPlaces(env: Env = process.env): ClientConfigPlace[] {
  const home = env.HOME || env.USERPROFILE || homedir();
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const appData = env.APPDATA;
  const macSupport = path.join(home, 'Library', 'Application Support');
  const perSystem = (linuxAndMac: string[], windows: string[]) => [
    ...linuxAndMac,
    ...(appData === undefined || appData === '' ? [] : windows.map((part) => path.join(appData, part))),
  ];
  const places: [string, string[], ClientShape][] = [
    [
      'Claude Desktop',
      perSystem(
        [
          path.join(macSupport, 'Claude', 'claude_desktop_config.json'),
          path.join(xdg, 'Claude', 'claude_desktop_config.json'),
        ],
        [path.join('Claude', 'claude_desktop_config.json')],
      ),
      'mcpServers',
    ],
    ['Claude Code', [path.join(home, '.claude.json')], 'claude-code'],
    ['Cursor', [path.join(home, '.cursor', 'mcp.json')], 'mcpServers'],
    [
      'VS Code',
      perSystem(
        [path.join(macSupport, 'Code', 'User', 'mcp.json'), path.join(xdg, 'Code', 'User', 'mcp.json')],
        [path.join('Code', 'User', 'mcp.json')],
      ),
      'vscode-mcp',
    ],
    [
      'VS Code',
      perSystem(
        [path.join(macSupport, 'Code', 'User', 'settings.json'), path.join(xdg, 'Code', 'User', 'settings.json')],
        [path.join('Code', 'User', 'settings.json')],
      ),
      'vscode-settings',
    ],
    ['Windsurf', [path.join(home, '.codeium', 'windsurf', 'mcp_config.json')], 'mcpServers'],
    ['Gemini CLI', [path.join(home, '.gemini', 'settings.json')], 'mcpServers'],
    ['Zed', perSystem([path.join(xdg, 'zed', 'settings.json')], [path.join('Zed', 'settings.json')]), 'zed'],
    ['Continue', [path.join(home, '.continue', 'config.yaml')], 'continue-yaml'],
    ['Codex', [path.join(env.CODEX_HOME || path.join(home, '.codex'), 'config.toml')], 'codex-toml'],
    // The clients Snyk Agent Scan discovers (snyk/agent-scan, src/agent_scan/well_known_clients.py and
    // agents/github_copilot.py): Kiro, Antigravity, Amazon Q Developer (its MCP file and its agents' files),
    // GitHub Copilot (COPILOT_HOME, ~/.copilot by default); each keeps `mcpServers`.
    ['Kiro', [path.join(home, '.kiro', 'settings', 'mcp.json')], 'mcpServers'],
    ['Antigravity', [path.join(home, '.gemini', 'antigravity', 'mcp_config.json')], 'mcpServers'],
    [
      'Amazon Q Developer',
      [
        path.join(home, '.aws', 'amazonq', 'mcp.json'),
        path.join(home, '.aws', 'amazonq', 'agents', 'default.json'),
        path.join(home, '.aws', 'amazonq', 'agents', 'mcp.json'),
      ],
      'mcpServers',
    ],
    ['GitHub Copilot', [path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'mcp-config.json')], 'mcpServers'],
    // Amp's settings (its manual: ~/.config/amp/settings.json, servers under "amp.mcpServers").
    ['Amp', [path.join(xdg, 'amp', 'settings.json')], 'amp'],
    // Cline and Roo Code keep their servers in VS Code's global storage of the extension.
    ...(['Cline', 'Roo Code'] as const).map((client): [string, string[], ClientShape] => {
      const [extension, file] =
        client === 'Cline'
          ? ['saoudrizwan.claude-dev', 'cline_mcp_settings.json']
          : ['rooveterinaryinc.roo-cline', 'mcp_settings.json'];
      const inCode = (base: string) => path.join(base, 'User', 'globalStorage', extension, 'settings', file);
      return [
        client,
        perSystem([inCode(path.join(macSupport, 'Code')), inCode(path.join(xdg, 'Code'))], [inCode('Code')]),
        'mcpServers',
      ];
    }),
    [
      'opencode',
      [path.join(xdg, 'opencode', 'opencode.json'), path.join(xdg, 'opencode', 'opencode.jsonc')],
      'opencode',
    ],
  ];
  const seen = new Set<string>();
  return places.flatMap(([client, files, shape]) =>
    files.flatMap((file) => {
      const key = `${path.resolve(file)}\n${shape}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ client, file, shape }];
    }),
  );
}

/** Continue's server blocks: every YAML (or JSON) file of `~/.continue/mcpServers/`. */
async function continueBlocks(env: Env): Promise<ClientConfigPlace[]> {
  const folder = path.join(env.HOME || env.USERPROFILE || homedir(), '.continue', 'mcpServers');
  const names = await readdir(folder).catch(() => [] as string[]);
  return names
    .filter((name) => /\.(ya?ml|json)$/i.test(name))
    .sort()
    .map((name) => ({
      client: 'Continue',
      file: path.join(folder, name),
      shape: name.toLowerCase().endsWith('.json') ? 'mcpServers' : 'continue-yaml',
    }));
}

/** A path as the report shows it: `~/...` under the home folder. */
export function displayPath(file: string, env: Env = process.env): string {
  const home = env.HOME || env.USERPROFILE || homedir();
  const relative = path.relative(home, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? `~${path.sep}${relative}` : file;
}

/** Read every user-level configuration file that exists: the entries, and what each file gave. */
export async function readUserConfigs(
  env: Env = process.env,
): Promise<{ entries: ConfigEntry[]; files: FileOutcome[] }> {
  const entries: ConfigEntry[] = [];
  const files: FileOutcome[] = [];
  for (const place of [...userConfigPlaces(env), ...(await continueBlocks(env))]) {
    const shown = displayPath(place.file, env);
    if (!existsSync(place.file)) continue;
    let text: string;
    try {
      text = await readConfigText(place.file, { name: shown });
    } catch (error) {
      if (!(error instanceof ConfigFileError)) throw error;
      files.push({ file: shown, client: place.client, read: false, reason: error.message });
      continue;
    }
    try {
      const found = parseClientConfig(shown, text, place.shape);
      for (const entry of found) entries.push(entry);
      files.push({ file: shown, client: place.client, read: true, servers: found.length });
    } catch (error) {
      // A RangeError is a parser recursing past the stack on input it accepts (JSONC nested thousands deep):
      // that file is reported, the others still read.
      if (error instanceof RangeError) {
        files.push({ file: shown, client: place.client, read: false, reason: `${shown}: refused: nested too deep` });
        continue;
      }
      if (!(error instanceof ConfigFileError)) throw error;
      files.push({ file: shown, client: place.client, read: false, reason: error.message });
    }
  }
  return { entries, files };
}
