/**
 * `npm run mcp` / `npx mcp-trust-score`: the MCP wrapper over stdio. An MCP client (Claude Code, Claude
 * Desktop, Cursor, VS Code, an agent) starts this process and talks JSON-RPC on its stdin/stdout, so stdout
 * carries the protocol only: every log line goes to stderr.
 *
 * Environment: TRUST_API_KEY (required), TRUST_API_URL (default http://127.0.0.1:3000/v1),
 * TRUST_API_TIMEOUT_MS (default 10000). A missing or bad value is one message on stderr and exit code 1.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTrustApiClient } from '../src/client/client.js';
import { loadMcpConfig, McpConfigError } from '../src/client/config.js';
import { createTrustMcpServer } from '../src/mcp/server.js';

const PREFIX = 'mcp-trust-score:';

/** One line on stderr per line of `message`, each prefixed, so a client's log shows where it came from. */
function log(message: string): void {
  process.stderr.write(
    message
      .split('\n')
      .map((line) => `${PREFIX} ${line}\n`)
      .join(''),
  );
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadMcpConfig();
  } catch (error) {
    if (error instanceof McpConfigError) {
      log(error.message);
      process.exit(1);
    }
    throw error;
  }

  const client = createTrustApiClient(config);
  const server = createTrustMcpServer(client);
  const transport = new StdioServerTransport();
  // The key is never logged; the URL is shown without any credentials it may hold.
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  log(`ready on stdio; API ${client.baseUrl}`);

  // The client closing our stdin is the normal way to stop; signals stop us too.
  process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void server.close().finally(() => process.exit(0)));
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
