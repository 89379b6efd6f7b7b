/**
 * A stand-in for the deployment's static snapshot bundle (`/snapshot-bundle/`): serves the files of a bundle
 * folder with GET as a static host does (200 with Content-Length, 404 otherwise), on 127.0.0.1. `hang: true`
 * accepts connections and never answers; `truncate` cuts the named file short mid-body. Every connection is
 * counted, so a test can show that none was made.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { listenLocally, type LocalServer } from './local-server.js';

export interface BundleStandin extends LocalServer {
  connections: () => number;
}

export async function startBundleStandin(
  dir: string,
  options: { hang?: boolean; truncate?: string } = {},
): Promise<BundleStandin> {
  let connections = 0;
  const server = createServer((request, response) => {
    if (options.hang) return;
    const name = decodeURIComponent(
      new URL(request.url ?? '/', 'http://x').pathname.replace(/^\/snapshot-bundle\//, ''),
    );
    if (request.method !== 'GET' || name.includes('/') || name.startsWith('.')) {
      response.writeHead(404).end();
      return;
    }
    readFile(path.join(dir, name)).then(
      (bytes) => {
        response.writeHead(200, { 'content-length': String(bytes.length), 'content-type': 'application/octet-stream' });
        if (options.truncate === name) {
          response.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
          response.socket?.destroy();
        } else response.end(bytes);
      },
      () => response.writeHead(404).end(),
    );
  });
  server.on('connection', () => connections++);
  const local = await listenLocally(server);
  return { ...local, connections: () => connections };
}
