/**
 * The MCP server: the four tools of `tools.ts` registered on the SDK's `McpServer`, each answering with a
 * short text and the same data as `structuredContent`, or with an `isError` result whose text tells the
 * model what to do next. Transport-free: `scripts/mcp.ts` connects it to stdio.
 */
import { TOOL_VERSION } from '../model/version.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { adviceFor } from './advice.js';
import { dataForModel } from './publisher-values.js';
import { offlineNotice, type TrustSource } from '../client/trust-source.js';
import { READ_ONLY_ANNOTATIONS, SERVER_INSTRUCTIONS, TRUST_TOOLS, type TrustTool } from './tools.js';

/** The name and version the server reports to clients at initialisation. */
export const SERVER_INFO = { name: 'mcp-trust-score', version: TOOL_VERSION } as const;

/** Runs one tool call: the API answer as text plus structured content, or a failure as advice. */
async function callTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: TrustTool<Input, Output>,
  client: TrustSource,
  args: z.output<Input>,
): Promise<CallToolResult> {
  try {
    const { data, lead, tail } = await tool.run(client, args);
    // The text and the structured result are made from the same checked data (`publisher-values.ts`).
    const shown = dataForModel(data);
    const notice = offlineNotice(client.origin);
    const text = [lead, tool.text(shown), tail, notice === undefined ? undefined : `(${notice})`].filter(
      (part) => part !== undefined,
    );
    return { content: [{ type: 'text', text: text.join('\n') }], structuredContent: shown as Record<string, unknown> };
  } catch (error) {
    return { content: [{ type: 'text', text: adviceFor(error, tool.context?.(args)) }], isError: true };
  }
}

/** A tool with its own types erased: the registry holds tools of different shapes side by side. */
type AnyTrustTool = TrustTool<z.ZodObject, z.ZodObject>;

function register(server: McpServer, tool: AnyTrustTool, client: TrustSource): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { title: tool.title, ...READ_ONLY_ANNOTATIONS },
    },
    // The SDK has validated `args` against `tool.input` (defaults applied) before this runs.
    (args) => callTool(tool, client, args),
  );
}

/** Creates the MCP server with the four trust tools, calling the API through `client`. */
export function createTrustMcpServer(client: TrustSource): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: SERVER_INSTRUCTIONS });
  for (const tool of TRUST_TOOLS) register(server, tool as AnyTrustTool, client);
  return server;
}
