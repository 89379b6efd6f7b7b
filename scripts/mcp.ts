/**
 * `npm run mcp` / `npx mcp-trust-score`: the MCP wrapper over stdio. An MCP client (Claude Code, Claude
 * Desktop, Cursor, VS Code, an agent) starts this process and talks JSON-RPC on its stdin/stdout, so stdout
 * carries the protocol only: every log line goes to stderr.
 *
 * Environment: none needed: with no TRUST_API_URL the tools answer offline from the snapshot shipped in the
 * package. TRUST_API_URL (with or without /v1) and TRUST_API_KEY: the live API; TRUST_API_TIMEOUT_MS (default
 * 10000) bounds each call. A missing or bad value is one message on stderr and exit code 1.
 */
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpConfigError } from '../src/client/config.js';
import { openTrustSource } from '../src/client/open-source.js';
import { offlineNotice, type TrustSource } from '../src/client/trust-source.js';
import { createTrustMcpServer } from '../src/mcp/server.js';
import { runMain } from './lib/main.js';

/** The snapshot shipped in the package: `embedded-snapshot/` beside dist/ and scripts/, whichever runs. */
const EMBEDDED_DIR = fileURLToPath(new URL('../embedded-snapshot/', import.meta.url));

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
  let client: TrustSource;
  try {
    client = await openTrustSource({ embeddedDir: EMBEDDED_DIR });
  } catch (error) {
    if (error instanceof McpConfigError) {
      log(error.message);
      process.exit(1);
    }
    throw error;
  }

  const server = createTrustMcpServer(client);
  const transport = new StdioServerTransport();
  // The key is never logged; the URL is shown without any credentials it may hold.
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  const origin = client.origin;
  log(`ready on stdio; ${origin.kind === 'live' ? `API ${origin.url}` : (offlineNotice(origin) ?? '')}`);

  // The client closing our stdin is the normal way to stop; signals stop us too.
  process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void server.close().finally(() => process.exit(0)));
  }
}

runMain(main);
