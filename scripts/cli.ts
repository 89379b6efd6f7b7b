/**
 * `npx mcp-trust-score <command>` other than the MCP wrapper (which the bin starts with no command):
 * `check [files...]`, `--help` and `--version`, for the bin and for `check`. See src/cli/check.ts for the
 * check's options. Answers come from the live API when TRUST_API_URL is set, else from the snapshot shipped
 * in the package (src/client/open-source.ts).
 */
import { fileURLToPath } from 'node:url';
import { McpConfigError } from '../src/client/config.js';
import { openTrustSource } from '../src/client/open-source.js';
import { CHECK_USAGE, CheckError, checkCommand } from '../src/cli/check.js';
import { UPDATE_USAGE, updateCommand } from '../src/cli/update.js';
import { BundleError } from '../src/update/verify-bundle.js';
import { OperatorError } from '../src/errors/operator-error.js';
import { TOOL_VERSION } from '../src/model/version.js';
import { runMain } from './lib/main.js';

/** The snapshot shipped in the package: `embedded-snapshot/` beside dist/ and scripts/, whichever runs. */
const EMBEDDED_DIR = new URL('../embedded-snapshot/', import.meta.url);

const KEY_HELP =
  'Set TRUST_API_KEY to your API key (in CI, from a secret), or unset TRUST_API_URL to check offline with the ' +
  'scores shipped in the package';

export const USAGE = `usage: mcp-trust-score [command]

  (no command), mcp   run the MCP server on stdio, for an MCP client's configuration
  check [files...]    check the MCP servers of configuration files against a policy (check --help)
  update [--from URL] fetch and verify the newest signed snapshot of the scores, for offline use (update --help)
  --help, -h          this help
  --version, -v       the version

Answers come from the newest verified snapshot held (offline, no key: the one shipped in this package, or a
newer one installed by update, tried automatically when the held one is more than 7 days old) unless
TRUST_API_URL is set: then from that API (with or without /v1 at its end), with the key in TRUST_API_KEY.
--offline on check, or TRUST_OFFLINE=1, never touches the network.`;

const MCP_USAGE = `usage: mcp-trust-score [mcp]

Runs the MCP server on stdio with four tools: check_server_trust, search_servers, list_servers and
get_ecosystem_stats. Offline by default; set TRUST_API_URL and TRUST_API_KEY (and optionally
TRUST_API_TIMEOUT_MS) in the server's "env" block for live scores.`;

const isHelp = (arg: string) => arg === '--help' || arg === '-h' || arg === 'help';
const isVersion = (arg: string) => arg === '--version' || arg === '-v' || arg === '-V';

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command === undefined) {
    console.error(USAGE);
    return 2;
  }
  if (isHelp(command)) return print(USAGE);
  if (isVersion(command)) return print(TOOL_VERSION);
  if (command === 'mcp') {
    if (args.some(isHelp)) return print(MCP_USAGE);
    throw new CheckError(`mcp takes no options (got ${JSON.stringify(args[0])}); see mcp-trust-score mcp --help`);
  }
  if (command === 'update') {
    if (args.some(isHelp)) return print(UPDATE_USAGE);
    try {
      return print(await updateCommand(args, fileURLToPath(EMBEDDED_DIR)));
    } catch (error) {
      if (error instanceof BundleError) throw new CheckError(`update failed: ${error.message}`);
      if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
        throw new CheckError(`update: ${error.message.split('\n')[0] ?? ''}; see mcp-trust-score update --help`);
      throw error;
    }
  }
  if (command !== 'check') {
    const what = command.startsWith('-') ? 'option' : 'command';
    throw new CheckError(`unknown ${what} ${JSON.stringify(command)}; see mcp-trust-score --help`);
  }
  if (args.includes('--help') || args.includes('-h')) return print(CHECK_USAGE);
  if (args.includes('--version')) return print(TOOL_VERSION);
  try {
    return await checkCommand(args, async ({ offline }) => {
      try {
        return await openTrustSource({ embeddedDir: fileURLToPath(EMBEDDED_DIR), keyHelp: KEY_HELP, offline });
      } catch (error) {
        if (error instanceof McpConfigError) throw new CheckError(error.message.split('\n').join('; '));
        throw error;
      }
    });
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']*)'/.exec(error.message)?.[1] ?? '';
      throw new CheckError(`unknown option ${JSON.stringify(option)} for check; see mcp-trust-score check --help`);
    }
    if (error instanceof OperatorError || (error instanceof TypeError && 'code' in error)) throw error;
    // A failure of the checker itself is still "the check could not be made" (2), never a verdict (1).
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 2;
  }
}

function print(text: string): number {
  console.log(text);
  return 0;
}

runMain(main);
