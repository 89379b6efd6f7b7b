/**
 * The `public/` folder over Node's `http` for `npm start` (on Vercel the platform serves it): GET and HEAD
 * only, `index.html` for a folder, content types by extension, and no way out of the folder: the decoded
 * path is resolved against the root and refused unless it stays inside it; hidden files are not served;
 * and a file is served only when its real path (every symbolic link followed) is inside the root's.
 */
import { createReadStream, promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { SITE_NOT_FOUND_PAGE } from './site-not-found.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.yml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};
const DEFAULT_TYPE = 'application/octet-stream';

/**
 * The site's Content-Security-Policy: the page's own files and the API on the same host, nothing else. The
 * same policy sits in `index.html` as a `<meta>` (which cannot carry `frame-ancestors`) and in `vercel.json`
 * for the platform's static files.
 */
export const SITE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** On every answer of the site: no type sniffing, no framing or foreign loads, no referrer sent onwards. */
export const SITE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': SITE_CSP,
  'referrer-policy': 'no-referrer',
};

function sendText(response: ServerResponse, status: number, text: string, extra: Record<string, string> = {}) {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...SITE_SECURITY_HEADERS,
    ...extra,
  });
  response.end(text);
}

/** The site's 404: a small page that says where the explorer and the API are (the API's own 404 is JSON). */
function sendNotFound(response: ServerResponse): void {
  sendText(response, 404, SITE_NOT_FOUND_PAGE, { 'content-type': 'text/html; charset=utf-8' });
}

/**
 * The site's answer for a path it has no file for, whatever the path: 405 for a method other than GET and
 * HEAD, else the 404 page. The Vercel functions answer with it for an `/api/...` path asked directly.
 */
export function answerSiteNotFound(request: IncomingMessage, response: ServerResponse): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    sendText(response, 405, 'Method not allowed\n', { allow: 'GET, HEAD' });
    return;
  }
  sendNotFound(response);
}

/** The file under `root` that `pathname` names, or undefined when it would leave `root` or is hidden. */
export function resolveStaticPath(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment.startsWith('.'))) return undefined; // also refuses `..`
  const resolved = path.resolve(root, ...segments);
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return undefined;
  return resolved;
}

/** `file`'s real path when it lies inside `realRoot` (the root's real path), else undefined. */
async function realPathInside(realRoot: string, file: string): Promise<string | undefined> {
  const real = await fs.realpath(file).catch(() => undefined);
  if (real === undefined || !real.startsWith(realRoot + path.sep)) return undefined;
  return real;
}

/** A Node listener serving the files under `root`. */
export function createStaticHandler(root: string) {
  const base = path.resolve(root);
  let realBase: Promise<string> | undefined;
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendText(response, 405, 'Method not allowed\n', { allow: 'GET, HEAD' });
      return;
    }
    const url = request.url ?? '/';
    const question = url.indexOf('?');
    const pathname = question === -1 ? url : url.slice(0, question);
    let file = resolveStaticPath(base, pathname);
    if (file === undefined) {
      sendNotFound(response);
      return;
    }
    let stat = await fs.stat(file).catch(() => undefined);
    if (stat?.isDirectory()) {
      if (!pathname.endsWith('/')) {
        // Relative links in the folder's index.html resolve against the folder only with the slash. The
        // location is rebuilt from the resolved folder, never copied from the request (`//host` would
        // otherwise redirect to another site).
        const relative = path.relative(base, file).split(path.sep).map(encodeURIComponent).join('/');
        const location = `/${relative}/`;
        sendText(response, 301, 'Moved permanently\n', { location });
        return;
      }
      file = path.join(file, 'index.html');
      stat = await fs.stat(file).catch(() => undefined);
    }
    // A symbolic link inside the folder may point anywhere: what it points to must be inside too.
    realBase ??= fs.realpath(base).catch(() => base);
    const real = stat?.isFile() ? await realPathInside(await realBase, file) : undefined;
    if (stat === undefined || real === undefined) {
      sendNotFound(response);
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? DEFAULT_TYPE,
      'content-length': String(stat.size),
      'cache-control': 'no-cache',
      ...SITE_SECURITY_HEADERS,
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const stream = createReadStream(real);
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  };
}
