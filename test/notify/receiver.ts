/**
 * A webhook receiver on 127.0.0.1 for the tests: a real HTTP server that keeps every request it gets (method,
 * headers, body) and answers each with the next status of a script (default 200), with optional headers.
 */
import http from 'node:http';
import { listenLocally } from '../support/local-server.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Answers for the next requests, in order; once used up, every request gets `fallback`. */
  script: ScriptedAnswer[];
  fallback: ScriptedAnswer;
  close(): Promise<void>;
}

export async function startReceiver(fallback: ScriptedAnswer = { status: 200 }): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const receiver = { received, script: [] as ScriptedAnswer[], fallback } as Receiver;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = receiver.script.shift() ?? receiver.fallback;
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body ?? '');
    });
  });
  ({ port: receiver.port, url: receiver.url, close: receiver.close } = await listenLocally(server));
  return receiver;
}
