/**
 * Fetching a bundle's files: GET over http(s) through the address-filtering agents the webhooks use
 * (`src/notify/address-filter.ts`), so no update ever reaches this machine's own network, with one deadline
 * for the whole update and a size bound on every file. No redirect is followed: the bundle's URL is the
 * deployment's own static folder. `TRUST_SNAPSHOT_ALLOW_HTTP=true` and `TRUST_SNAPSHOT_ALLOW_PRIVATE=true`
 * lift the https and address rules, for a local stand-in only.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { receiverAgents, refusedRule } from '../notify/address-filter.js';
import { BundleError } from './verify-bundle.js';

export interface DownloadRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export function downloadRules(env: Readonly<Record<string, string | undefined>>): DownloadRules {
  return {
    allowHttp: env.TRUST_SNAPSHOT_ALLOW_HTTP === 'true',
    allowPrivate: env.TRUST_SNAPSHOT_ALLOW_PRIVATE === 'true',
  };
}

/** The bundle's folder URL (ending in `/`) from what the user gave; a BundleError naming the rule otherwise. */
export function bundleBaseUrl(text: string, rules: DownloadRules): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BundleError('the snapshot URL is not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp))
    throw new BundleError('the snapshot URL must start with https://');
  if (url.username !== '' || url.password !== '') throw new BundleError('the snapshot URL must not carry user info');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!rules.allowPrivate && isIP(host) !== 0 && refusedRule(host) !== undefined)
    throw new BundleError(`the snapshot URL points at a ${refusedRule(host)} address`);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}

export interface Downloader {
  /** The file's bytes; a BundleError when it is not answered with 200, is larger than `maxBytes`, or time runs out. */
  get(name: string, maxBytes: number): Promise<Buffer>;
  close(): void;
}

/** A downloader of the files under `base`, all within `timeoutMs` from now. */
export function createDownloader(base: URL, rules: DownloadRules, timeoutMs: number): Downloader {
  const agents = receiverAgents(rules.allowPrivate);
  const signal = AbortSignal.timeout(timeoutMs);
  const where = base.origin;
  function get(name: string, maxBytes: number): Promise<Buffer> {
    const url = new URL(encodeURIComponent(name), base);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Buffer>((resolve, reject) => {
      const fail = (reason: string) => reject(new BundleError(`${name} from ${where}: ${reason}`));
      if (signal.aborted) return fail(`no answer within ${timeoutMs} ms`);
      const request = client.get(url, {
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        headers: { accept: '*/*', 'user-agent': 'mcp-trust-score-update/1' },
        signal,
      });
      request.on('error', (error: Error & { code?: string }) => {
        if (signal.aborted || error.name === 'AbortError') fail(`no answer within ${timeoutMs} ms`);
        else if (/is not allowed/.test(error.message)) fail('the address is not on the public internet');
        else fail(`the connection failed (${error.code ?? 'error'})`);
      });
      request.on('response', (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return fail(`answered ${response.statusCode ?? 'nothing'}`);
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          response.destroy();
          return fail(`${declared} bytes, more than the ${maxBytes} expected`);
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) {
            response.destroy();
            request.destroy();
            return fail(`more than the ${maxBytes} bytes expected`);
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (!response.complete) return fail('the download was cut short');
          resolve(Buffer.concat(chunks));
        });
        response.on('aborted', () => fail('the download was cut short'));
        response.on('error', () =>
          fail(signal.aborted ? `no answer within ${timeoutMs} ms` : 'the download was cut short'),
        );
      });
    });
  }
  return { get, close: () => agents.destroy() };
}
