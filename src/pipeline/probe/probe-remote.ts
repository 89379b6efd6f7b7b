/**
 * One probe of one remote with the MCP SDK's own client, as a client with no credentials meets it: Streamable
 * HTTP first, then the deprecated SSE transport when the remote answers the first with an HTTP 4xx other than
 * 401 (the specification's backwards-compatibility rule). A 401 is an answer: the remote asks for authorisation,
 * `oauth` when it publishes OAuth protected-resource metadata (RFC 9728: its `WWW-Authenticate` names
 * `resource_metadata`, or `/.well-known/oauth-protected-resource` answers), `bare-401` when it does not. A remote
 * that initialises without one is `open`, and its `tools/list` is read page by page, bounded, and pinned
 * (`src/model/tools.ts`). Every exchange goes through `probe-fetch.ts` under one deadline and one byte budget:
 * a hanging or flooding remote costs its probe's time bound and nothing more.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  discoverOAuthProtectedResourceMetadata,
  extractResourceMetadataUrl,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type AUTH_STATES, MAX_SERVER_INFO_TEXT, type ProbeFailure } from '../../model/probes.js';
import {
  MAX_INPUT_SCHEMA_BYTES,
  MAX_TOOL_DESCRIPTION,
  MAX_TOOL_NAME,
  MAX_TOOLS_PER_SERVER,
  type PinnedTool,
  type ToolAnnotations,
} from '../../model/tools.js';
import type { ReceiverAgents } from '../../notify/address-filter.js';
import { checkProbeUrl, ProbeError, type ProbeExchange, probeFetch } from './probe-fetch.js';

export type ProbeTransport = 'streamable-http' | 'sse';

export interface ProbeLimits {
  /** The whole probe of one remote, every attempt and page included. */
  timeoutMs: number;
  /** Bytes of answers one probe may read. */
  maxBytes: number;
  /** Pages of `tools/list` one probe may ask for. */
  maxToolPages: number;
}

export const DEFAULT_PROBE_LIMITS: ProbeLimits = { timeoutMs: 20_000, maxBytes: 4 * 1024 * 1024, maxToolPages: 10 };

export interface ProbeSetup extends ProbeLimits {
  agents: ReceiverAgents;
  allowHttp: boolean;
}

/** What one probe saw. */
export interface RemoteProbe {
  reachable: boolean;
  auth: (typeof AUTH_STATES)[number] | null;
  failure: ProbeFailure | null;
  http_status?: number;
  transport: ProbeTransport;
  protocol_version: string | null;
  server_info: { name: string; version: string } | null;
  /** The tools it listed without credentials, pinned; null when none were listed. */
  tools: { tools: PinnedTool[]; truncated: boolean; count: number } | null;
}

/**
 * The SDK's own request timeout, past the probe's deadline: the deadline (which records `timeout` and ends
 * every exchange) always comes first, so the two never race to say why a probe ended.
 */
const sdkTimeout = (remainingMs: number) => Math.max(1, remainingMs) + 1_000;

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** One tool as pinned: bounded, annotations under the names `src/model/tools.ts` gives them. */
export function pinTool(tool: Tool): { pinned: PinnedTool; truncated: boolean } {
  let truncated = false;
  const description = tool.description ?? null;
  if (description !== null && description.length > MAX_TOOL_DESCRIPTION) truncated = true;
  let inputSchema: Record<string, unknown> | null = tool.inputSchema as Record<string, unknown>;
  if (JSON.stringify(inputSchema).length > MAX_INPUT_SCHEMA_BYTES) {
    inputSchema = null;
    truncated = true;
  }
  if (tool.name.length > MAX_TOOL_NAME) truncated = true;
  const hints = tool.annotations ?? {};
  const annotations: ToolAnnotations = {};
  if (typeof hints.title === 'string') annotations.title = cut(hints.title, MAX_TOOL_NAME);
  if (typeof hints.readOnlyHint === 'boolean') annotations.read_only = hints.readOnlyHint;
  if (typeof hints.destructiveHint === 'boolean') annotations.destructive = hints.destructiveHint;
  if (typeof hints.idempotentHint === 'boolean') annotations.idempotent = hints.idempotentHint;
  if (typeof hints.openWorldHint === 'boolean') annotations.open_world = hints.openWorldHint;
  return {
    pinned: {
      name: cut(tool.name, MAX_TOOL_NAME),
      description: description === null ? null : cut(description, MAX_TOOL_DESCRIPTION),
      input_schema: inputSchema,
      annotations,
    },
    truncated,
  };
}

/** Whether the 401 came with OAuth protected-resource metadata (RFC 9728), asked through the probe's fetch. */
async function authKind(exchange: ProbeExchange, url: URL): Promise<'oauth' | 'bare-401'> {
  const fetchFn = probeFetch(exchange);
  const header = exchange.unauthorized?.wwwAuthenticate ?? null;
  const resourceMetadataUrl =
    header === null
      ? undefined
      : extractResourceMetadataUrl(new Response(null, { headers: { 'www-authenticate': header } }));
  try {
    await discoverOAuthProtectedResourceMetadata(url, resourceMetadataUrl ? { resourceMetadataUrl } : {}, fetchFn);
    return 'oauth';
  } catch {
    return 'bare-401';
  }
}

interface Connected {
  client: Client;
  transport: ProbeTransport;
  protocolVersion: string | null;
}

/** Connects with one transport; the protocol version is what the client hands the transport after `initialize`. */
async function connectWith(
  kind: ProbeTransport,
  url: URL,
  exchange: ProbeExchange,
  remainingMs: () => number,
  clients: Client[],
): Promise<Connected> {
  const fetch = probeFetch(exchange);
  // Redirects are followed by the probe's fetch, which checks every hop; the SDK is told to leave them to it.
  const transport: Transport =
    kind === 'streamable-http'
      ? new StreamableHTTPClientTransport(url, { fetch, redirectPolicy: 'follow' })
      : new SSEClientTransport(url, { fetch, redirectPolicy: 'follow' });
  let protocolVersion: string | null = null;
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version: string) => {
    protocolVersion = version;
    setVersion?.(version);
  };
  const client = new Client({ name: 'mcp-trust-score-probe', version: '1' }, { capabilities: {} });
  clients.push(client);
  await client.connect(transport, { signal: exchange.signal, timeout: sdkTimeout(remainingMs()) });
  return { client, transport: kind, protocolVersion };
}

/** `tools/list`, page by page, at most `maxToolPages` pages and `MAX_TOOLS_PER_SERVER` tools. */
async function listTools(
  client: Client,
  exchange: ProbeExchange,
  limits: ProbeLimits,
  remainingMs: () => number,
): Promise<NonNullable<RemoteProbe['tools']>> {
  if (client.getServerCapabilities()?.tools === undefined) return { tools: [], truncated: false, count: 0 };
  const tools: PinnedTool[] = [];
  let truncated = false;
  let count = 0;
  let cursor: string | undefined;
  for (let page = 0; page < limits.maxToolPages; page++) {
    const answer = await client.listTools(cursor === undefined ? {} : { cursor }, {
      signal: exchange.signal,
      timeout: sdkTimeout(remainingMs()),
    });
    for (const tool of answer.tools) {
      count++;
      if (tool.name === '') continue;
      if (tools.length >= MAX_TOOLS_PER_SERVER || tools.some((kept) => kept.name === cut(tool.name, MAX_TOOL_NAME))) {
        truncated = true;
        continue;
      }
      const pinned = pinTool(tool);
      tools.push(pinned.pinned);
      truncated ||= pinned.truncated;
    }
    cursor = answer.nextCursor;
    if (cursor === undefined) return { tools, truncated, count };
  }
  return { tools, truncated: true, count };
}

const serverInfoOf = (client: Client): RemoteProbe['server_info'] => {
  const info = client.getServerVersion();
  if (info === undefined) return null;
  return {
    name: cut(String(info.name), MAX_SERVER_INFO_TEXT),
    version: cut(String(info.version), MAX_SERVER_INFO_TEXT),
  };
};

/** Probes `text` (a remote's URL) within `setup`'s bounds; never throws. */
export async function probeRemote(text: string, setup: ProbeSetup): Promise<RemoteProbe> {
  const controller = new AbortController();
  const started = Date.now();
  const remainingMs = () => setup.timeoutMs - (Date.now() - started);
  const exchange: ProbeExchange = {
    agents: setup.agents,
    allowHttp: setup.allowHttp,
    bytesLeft: setup.maxBytes,
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
  };
  const timer = setTimeout(() => {
    exchange.failure ??= new ProbeError('timeout', 'the probe ran out of time');
    controller.abort(exchange.failure);
  }, setup.timeoutMs);
  const clients: Client[] = [];
  const unreachable = (failure: ProbeFailure, transport: ProbeTransport, status?: number): RemoteProbe => ({
    reachable: false,
    auth: null,
    failure,
    ...(status === undefined ? {} : { http_status: status }),
    transport,
    protocol_version: null,
    server_info: null,
    tools: null,
  });
  try {
    let url: URL;
    try {
      url = checkProbeUrl(text, setup.allowHttp);
    } catch (error) {
      return unreachable((error as ProbeError).kind, 'streamable-http');
    }
    let connected: Connected | undefined;
    let firstStatus: number | undefined;
    for (const kind of ['streamable-http', 'sse'] as const) {
      exchange.lastErrorStatus = undefined;
      try {
        connected = await connectWith(kind, url, exchange, remainingMs, clients);
        break;
      } catch {
        if (exchange.unauthorized !== undefined) {
          return {
            reachable: true,
            auth: await authKind(exchange, url),
            failure: null,
            transport: kind,
            protocol_version: null,
            server_info: null,
            tools: null,
          };
        }
        if (exchange.failure !== undefined) return unreachable(exchange.failure.kind, kind);
        const status = exchange.lastErrorStatus;
        firstStatus ??= status;
        // Only a 4xx to the Streamable HTTP request sends the client to the SSE transport.
        if (kind === 'sse' || status === undefined || status < 400 || status >= 500) {
          return status === undefined ? unreachable('protocol', kind) : unreachable('http-status', kind, firstStatus);
        }
      }
    }
    if (connected === undefined) return unreachable('protocol', 'sse');
    const seen = {
      reachable: true,
      auth: 'open' as const,
      transport: connected.transport,
      protocol_version: connected.protocolVersion,
      server_info: serverInfoOf(connected.client),
    };
    try {
      const tools = await listTools(connected.client, exchange, setup, remainingMs);
      return { ...seen, failure: null, tools };
    } catch {
      return { ...seen, failure: exchange.failure?.kind ?? 'protocol', tools: null };
    }
  } finally {
    clearTimeout(timer);
    // Whatever is still open (a stream the SDK keeps, a late answer) ends with the probe.
    if (!controller.signal.aborted) controller.abort(new ProbeError('timeout', 'the probe is over'));
    await Promise.allSettled(clients.map((client) => client.close()));
  }
}
