/**
 * `npm run bench -- --only probes` (or `npx tsx scripts/bench/probes.ts [--remotes N] [--hanging H]
 * [--concurrency C] [--timeout-ms T]`): the night's probe step (`src/pipeline/probe/probe-night.ts`) over N
 * remotes (default 10,000), each its own path of a real MCP server made with the SDK (Streamable HTTP,
 * stateless, three tools listed) in a child process on 127.0.0.1, H of them (default 50) hanging until the
 * per-server deadline. Reports the step's time against its bound (⌈N ÷ C⌉ × T would be every remote hanging),
 * what it saw, and this process's peak RSS and heap (the server's are its own process's).
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { probeNight, type ProbeTarget } from '../../src/pipeline/probe/probe-night.js';
import { judged } from './targets.js';
import { runMain } from '../lib/main.js';

export interface ProbeBench {
  remotes: number;
  hanging: number;
  concurrency: number;
  timeoutMs: number;
  seconds: number;
  boundSeconds: number;
  open: number;
  timeouts: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  heapPeakMb: number;
}

/** Peak RSS of the probing process, MB: the step must not hold more than a slot's worth per probe in flight. */
export const PROBE_RSS_PEAK_MB = 400;

const TOOLS: Tool[] = [
  {
    name: 'read_file',
    description: 'Reads a file from the allowed directories.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    annotations: { readOnlyHint: true },
  },
  { name: 'list_directory', description: 'Lists a directory.', inputSchema: { type: 'object' } },
  { name: 'search_files', description: 'Searches files by name.', inputSchema: { type: 'object' } },
];

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The child: one HTTP server, `/s/<n>/mcp` an open MCP server, `/hang/<n>/mcp` never answering. */
async function serve(): Promise<void> {
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith('/hang/')) return;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const mcp = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      response.on('close', () => void mcp.close());
      const text = Buffer.concat(chunks).toString('utf8');
      void mcp
        .connect(transport)
        .then(() => transport.handleRequest(request, response, text === '' ? undefined : JSON.parse(text)))
        .catch(() => response.destroy());
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send?.({ port: (server.address() as AddressInfo).port });
}

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const child = fork(import.meta.filename, ['--serve'], { execArgv: process.execArgv, stdio: 'inherit' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the bench's MCP server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

export async function benchProbes(
  options: { remotes?: number; hanging?: number; concurrency?: number; timeoutMs?: number } = {},
): Promise<ProbeBench> {
  const remotes = options.remotes ?? 10_000;
  const hanging = Math.min(options.hanging ?? 50, remotes);
  const concurrency = options.concurrency ?? 16;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const { child, base } = await startServer();
  try {
    // Hanging remotes spread through the list, as a night meets them.
    const every = hanging === 0 ? Infinity : Math.floor(remotes / hanging);
    const targets: ProbeTarget[] = Array.from({ length: remotes }, (_, i) => ({
      name: `io.github.bench${i}/server-${i}`,
      version: '1.0.0',
      remotes: [
        {
          type: 'streamable-http',
          url: i % every === 0 && i / every < hanging ? `${base}/hang/${i}/mcp` : `${base}/s/${i}/mcp`,
        },
      ],
    }));
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let heapPeak = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      rssPeak = Math.max(rssPeak, now.rss);
      heapPeak = Math.max(heapPeak, now.heapUsed);
    }, 100);
    const start = performance.now();
    const night = await probeNight(targets, {
      concurrency,
      allowPrivate: true,
      allowHttp: true,
      timeoutMs,
      probedAt: new Date().toISOString(),
    });
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    return {
      remotes,
      hanging,
      concurrency,
      timeoutMs,
      seconds,
      boundSeconds: (Math.ceil(remotes / concurrency) * timeoutMs) / 1000,
      open: night.counts.open,
      timeouts: night.counts.failures.timeout ?? 0,
      rssBeforeMb: mb(rssBefore),
      rssPeakMb: mb(Math.max(rssPeak, process.memoryUsage().rss)),
      heapPeakMb: mb(heapPeak),
    };
  } finally {
    child.kill();
  }
}

export function formatProbeBench(b: ProbeBench): string {
  return [
    '| remotes | hanging | at once | deadline (s) | probe step (s) | bound if all hung (s) | open, listed | timeouts | RSS before / peak (MB) | heap peak (MB) |',
    '| ------: | ------: | ------: | -----------: | -------------: | --------------------: | -----------: | -------: | ---------------------: | -------------: |',
    `| ${b.remotes} | ${b.hanging} | ${b.concurrency} | ${b.timeoutMs / 1000} | ${b.seconds.toFixed(1)} | ${b.boundSeconds} | ${b.open} | ${b.timeouts} | ${b.rssBeforeMb} / ${b.rssPeakMb} | ${b.heapPeakMb} |`,
    '',
    `probe step within its bound: ${judged(b.seconds, b.boundSeconds, ' s')}; every hanging remote cut at the deadline: ${b.timeouts === b.hanging ? 'PASS' : 'FAIL'}; every other remote listed: ${b.open === b.remotes - b.hanging ? 'PASS' : 'FAIL'}; peak RSS ${judged(b.rssPeakMb, PROBE_RSS_PEAK_MB, ' MB')}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  runMain(async () => {
    const { values } = parseArgs({
      options: {
        serve: { type: 'boolean', default: false },
        remotes: { type: 'string', default: '10000' },
        hanging: { type: 'string', default: '50' },
        concurrency: { type: 'string', default: '16' },
        'timeout-ms': { type: 'string', default: '2000' },
      },
      strict: true,
    });
    if (values.serve) await serve();
    else
      console.log(
        formatProbeBench(
          await benchProbes({
            remotes: Number(values.remotes),
            hanging: Number(values.hanging),
            concurrency: Number(values.concurrency),
            timeoutMs: Number(values['timeout-ms']),
          }),
        ),
      );
  });
