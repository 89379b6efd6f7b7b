/** The `public/` folder as `npm start` serves it: index.html, content types, no way out of the folder. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler, resolveStaticPath } from '../../src/http/static-files.js';

let dir: string;
let root: string;
let server: http.Server;
let port: number;

function get(
  pathText: string,
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: pathText, method }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-static-'));
  root = path.join(dir, 'public');
  await mkdir(path.join(root, 'docs'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<h1>home</h1>');
  await writeFile(path.join(root, 'openapi.json'), '{"openapi":"3.1.0"}');
  await writeFile(path.join(root, 'app.js'), 'console.log(1)');
  await writeFile(path.join(root, 'docs', 'index.html'), '<h1>docs</h1>');
  await writeFile(path.join(root, '.secret'), 'hidden');
  await writeFile(path.join(dir, 'outside.txt'), 'outside');
  await mkdir(path.join(dir, 'elsewhere'));
  await writeFile(path.join(dir, 'elsewhere', 'index.html'), 'outside folder');
  // Links inside the folder: to a file and a folder outside it, and to a file inside it.
  await symlink(path.join(dir, 'outside.txt'), path.join(root, 'leak.txt'));
  await symlink(path.join(dir, 'elsewhere'), path.join(root, 'linked'));
  await symlink(path.join(root, 'app.js'), path.join(root, 'alias.js'));
  const handler = createStaticHandler(root);
  server = http.createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('static files', () => {
  it('serves index.html at / and in a folder, with the HTML content type', async () => {
    const home = await get('/');
    expect(home).toMatchObject({ status: 200, body: '<h1>home</h1>' });
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get('/docs/')).body).toBe('<h1>docs</h1>');
  });

  it('redirects a folder without its trailing slash to the folder', async () => {
    const response = await get('/docs?x=1');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('/docs/');
  });

  it('sends the content type of the extension and the length', async () => {
    const json = await get('/openapi.json');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-length']).toBe(String('{"openapi":"3.1.0"}'.length));
    expect((await get('/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('answers HEAD without a body and refuses other methods with 405', async () => {
    const head = await get('/openapi.json', 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    const post = await get('/openapi.json', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('answers 404 for a missing file, a hidden file and every way out of the folder', async () => {
    for (const attempt of [
      '/missing.html',
      '/.secret',
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/docs/..%2f..%2foutside.txt',
      '/..\\outside.txt',
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      const response = await get(attempt);
      expect(response.status, attempt).toBe(404);
      expect(response.body).not.toContain('outside');
    }
  });

  it('serves no file whose real path is outside the folder, whatever link leads to it', async () => {
    for (const attempt of ['/leak.txt', '/linked/', '/linked/index.html']) {
      const response = await get(attempt);
      expect(response.status, attempt).toBe(404);
      expect(response.body).not.toContain('outside');
    }
    const inside = await get('/alias.js');
    expect(inside.status).toBe(200);
    expect(inside.body).toBe('console.log(1)');
  });

  it('resolves only paths inside the root', () => {
    expect(resolveStaticPath(root, '/docs/index.html')).toBe(path.join(root, 'docs', 'index.html'));
    expect(resolveStaticPath(root, '/')).toBe(root);
    expect(resolveStaticPath(root, '/a/../../outside.txt')).toBeUndefined();
  });
});
