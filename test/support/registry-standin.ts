/**
 * A stand-in for the official MCP registry's read API on 127.0.0.1 (`GET /v0.1/servers`, API 2025-12-01), for
 * the rescoring pipeline's tests: cursor paging in name order, `limit`, `version=latest` (entries marked
 * `isLatest`), `updated_since` (entries whose official `updatedAt` is later), and faults a test asks for on a
 * given page (any status with an optional Retry-After, a page that is not the documented shape, a body that is
 * not JSON, a socket closed mid-answer). Every page it sends is checked against the registry's schemas
 * (`ServerList`); `invalid` lists any that failed.
 */
import http from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { REGISTRY_SCHEMA_ID, REGISTRY_SCHEMAS } from '../registry/registry-schemas.js';
import { listenLocally } from './local-server.js';

export type RegistryFault =
  | { kind: 'status'; status: number; retryAfter?: number }
  | { kind: 'bad-shape' }
  | { kind: 'not-json' }
  | { kind: 'close-mid-answer' }
  /** A page of `entries` made-up servers, whatever `limit` asked (a registry that hands out everything). */
  | { kind: 'huge-page'; entries: number };

/** A registry `ServerResponse` as JSON. */
export interface StandInEntry {
  server: { name: string } & Record<string, unknown>;
  _meta?: Record<string, Record<string, unknown> | undefined>;
}

export interface RegistryStandIn {
  url: string;
  /** The registry's entries; tests may change them between runs. */
  entries: StandInEntry[];
  /** Faults for the n-th page of a listing (1-based), each used `times` times (default: every time). */
  faults: { page: number; fault: RegistryFault; times?: number }[];
  /** Every request's path and query, and the status answered. */
  log: { url: string; status: number }[];
  invalid: string[];
  close(): Promise<void>;
}

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
(formats as unknown as { default: (instance: Ajv2020) => void }).default(ajv);
ajv.addSchema(REGISTRY_SCHEMAS);
const validateList = ajv.getSchema(`${REGISTRY_SCHEMA_ID}#/$defs/ServerList`)!;

const cursorOf = (name: string) => Buffer.from(name, 'utf8').toString('base64url');
const nameOf = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

export interface RegistryStandInOptions {
  /**
   * The entries will not change: each listing (by `version` and `updated_since`) is selected and sorted once,
   * not per page, so a benchmark can page through 100,000 servers.
   */
  fixed?: boolean;
}

export async function startRegistryStandIn(
  entries: StandInEntry[],
  options: RegistryStandInOptions = {},
): Promise<RegistryStandIn> {
  const stand: Omit<RegistryStandIn, 'url' | 'close'> = { entries, faults: [], log: [], invalid: [] };
  const listings = new Map<string, StandInEntry[]>();
  const select = (latestOnly: boolean, since: string | null) =>
    stand.entries
      .filter((entry) => !latestOnly || entry._meta?.[OFFICIAL]?.isLatest === true)
      .filter((entry) => since === null || Date.parse(String(entry._meta?.[OFFICIAL]?.updatedAt)) > Date.parse(since))
      .sort((a, b) => (a.server.name < b.server.name ? -1 : a.server.name > b.server.name ? 1 : 0));
  const listing = (latestOnly: boolean, since: string | null) => {
    if (!options.fixed) return select(latestOnly, since);
    const key = `${latestOnly}|${since}`;
    let selected = listings.get(key);
    if (selected === undefined) listings.set(key, (selected = select(latestOnly, since)));
    return selected;
  };
  /** Index of the first entry named after `name` in a sorted listing. */
  const firstAfter = (selected: StandInEntry[], name: string) => {
    let low = 0;
    let high = selected.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (selected[middle]!.server.name > name) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      stand.log.push({ url: `${url.pathname}${url.search}`, status });
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (url.pathname !== '/v0.1/servers' || request.method !== 'GET') return send(404, { error: 'Not found' });
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 30), 100);
    const cursor = url.searchParams.get('cursor');
    const since = url.searchParams.get('updated_since');
    const latestOnly = url.searchParams.get('version') === 'latest';
    const selected = listing(latestOnly, since);
    const start = cursor === null ? 0 : firstAfter(selected, nameOf(cursor));
    const pageNumber = Math.floor(start / limit) + 1;
    const servers = selected.slice(start, start + limit);
    const more = selected.length - start > limit;
    const body = {
      servers,
      metadata: { count: servers.length, ...(more ? { nextCursor: cursorOf(servers.at(-1)!.server.name) } : {}) },
    };
    const fault = stand.faults.find((f) => f.page === pageNumber && (f.times === undefined || f.times > 0));
    if (fault) {
      if (fault.times !== undefined) fault.times--;
      const f = fault.fault;
      if (f.kind === 'status') {
        return send(
          f.status,
          { error: `status ${f.status}` },
          f.retryAfter === undefined ? {} : { 'retry-after': String(f.retryAfter) },
        );
      }
      if (f.kind === 'bad-shape')
        return send(200, { servers: servers.map((entry) => entry.server.name), metadata: body.metadata });
      if (f.kind === 'not-json') return send(200, '<html>Bad gateway</html>');
      if (f.kind === 'huge-page') {
        const made = Array.from({ length: f.entries }, (_, i) => ({
          server: { name: `io.example.flood/s${i}`, description: 'flood', version: '1.0.0' },
          _meta: { [OFFICIAL]: { status: 'active', isLatest: true } },
        }));
        return send(200, { servers: made, metadata: { count: made.length } });
      }
      stand.log.push({ url: `${url.pathname}${url.search}`, status: 200 });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      response.write('{"servers": [');
      return setTimeout(() => response.socket?.destroy(), 5);
    }
    if (!validateList(body)) stand.invalid.push(`${url.search}: ${ajv.errorsText(validateList.errors)}`);
    return send(200, body);
  });
  const { url, close } = await listenLocally(server);
  return Object.assign(stand, { url, close });
}
