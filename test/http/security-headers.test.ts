/**
 * The site's security headers: `nosniff`, the Content-Security-Policy and `Referrer-Policy: no-referrer` on
 * every answer of the static handler (the real `public/` folder), and the same policy in `vercel.json`
 * (where the platform serves the folder) and in the page's own `<meta>`.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler, SITE_CSP } from '../../src/http/static-files.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let server: http.Server;
let port: number;

function get(pathText: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: pathText, method }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  const handler = createStaticHandler(path.join(ROOT, 'public'));
  server = http.createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the site served by npm start', () => {
  it('sends nosniff, the policy and no-referrer on the page, its files, redirects and errors alike', async () => {
    const answers = [
      ['/', 200],
      ['/index.html', 200],
      ['/app.js', 200],
      ['/style.css', 200],
      ['/openapi.json', 200],
      ['/missing.html', 404],
      ['/%2e%2e/package.json', 404],
      ['/', 405],
    ] as const;
    for (const [target, status] of answers) {
      const response = await get(target, status === 405 ? 'POST' : 'GET');
      expect(response.status, target).toBe(status);
      expect(response.headers['x-content-type-options'], target).toBe('nosniff');
      expect(response.headers['content-security-policy'], target).toBe(SITE_CSP);
      expect(response.headers['referrer-policy'], target).toBe('no-referrer');
    }
  });

  it('allows nothing but this host: no source other than self (and data: images), no framing, no base or form target', () => {
    const directives = new Map(
      SITE_CSP.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(Object.fromEntries(directives)).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
  });

  it("matches the page's own <meta> policy, which only lacks frame-ancestors (a <meta> cannot carry it)", async () => {
    const html = await readFile(path.join(ROOT, 'public', 'index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(`${meta}; frame-ancestors 'none'`).toBe(SITE_CSP);
  });
});

describe('vercel.json', () => {
  interface HeaderRule {
    source: string;
    headers: { key: string; value: string }[];
  }

  /** Vercel's `source` patterns, as a regular expression over the whole path (enough for these two). */
  const matches = (source: string, pathname: string) => new RegExp(`^${source}$`).test(pathname);

  it('sends nosniff everywhere and the same policy and no-referrer on every path of the site, not the API', async () => {
    const config = JSON.parse(await readFile(path.join(ROOT, 'vercel.json'), 'utf8')) as { headers: HeaderRule[] };
    const headersFor = (pathname: string) => {
      const found: Record<string, string> = {};
      for (const rule of config.headers) {
        if (!matches(rule.source, pathname)) continue;
        for (const { key, value } of rule.headers) found[key.toLowerCase()] = value;
      }
      return found;
    };
    for (const pathname of ['/', '/index.html', '/app.js', '/openapi.json', '/v1x']) {
      expect(headersFor(pathname), pathname).toEqual({
        'x-content-type-options': 'nosniff',
        'content-security-policy': SITE_CSP,
        'referrer-policy': 'no-referrer',
      });
    }
    for (const pathname of ['/v1', '/v1/stats', '/v1/servers/a/b']) {
      expect(headersFor(pathname), pathname).toEqual({ 'x-content-type-options': 'nosniff' });
    }
  });
});
