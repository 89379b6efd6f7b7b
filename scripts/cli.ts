/**
 * `npx mcp-trust-score check [files...]` (and `npm run cli -- check ...`): the command-line checks. The bin
 * sends `check` here and everything else to the MCP wrapper. See src/cli/check.ts for the options.
 */
import { createTrustApiClient } from '../src/client/client.js';
import { loadMcpConfig, McpConfigError } from '../src/client/config.js';
import { CHECK_USAGE, CheckError, checkCommand } from '../src/cli/check.js';
import { OperatorError } from '../src/errors/operator-error.js';
import { runMain } from './lib/main.js';

const KEY_HELP =
  'Set TRUST_API_KEY to your API key (in CI, from a secret), and TRUST_API_URL to the API, ending in /v1';

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(CHECK_USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'check') throw new CheckError(`unknown command "${command}"\n${CHECK_USAGE}`);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(CHECK_USAGE);
    return 0;
  }
  try {
    return await checkCommand(args, () => {
      try {
        return createTrustApiClient(loadMcpConfig(process.env, KEY_HELP));
      } catch (error) {
        if (error instanceof McpConfigError) throw new CheckError(error.message.split('\n').join('; '));
        throw error;
      }
    });
  } catch (error) {
    if (error instanceof OperatorError || (error instanceof TypeError && 'code' in error)) throw error;
    // A failure of the checker itself is still "the check could not be made" (2), never a verdict (1).
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 2;
  }
}

runMain(main);
