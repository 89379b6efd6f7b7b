/**
 * A stand-in for OSV's API (https://google.github.io/osv.dev/api/) on 127.0.0.1:
 * - `POST /v1/querybatch` `{ queries: [{ package: { ecosystem, name }, version?, page_token? }] }` answers
 *   `{ results: [{ vulns: [{ id, modified }], next_page_token? }] }` in the queries' order (a result with no
 *   advisory is `{}`, as the service writes it), a page of `pageSize` ids at a time, each query's next page
 *   asked with its `page_token`; more than 1000 queries is a 400;
 * - `GET /v1/vulns/{id}` answers the OSV record, or a 404 with the service's error body.
 * Every query it is sent and every answer it sends is checked against OSV's published description
 * (`test/support/osv-openapi.ts`); a check that fails is kept in `errors` (a test expects none) and answered
 * 500. A test can ask for 429s with a Retry-After, a status for every request to a path, or a body that is
 * not JSON. Every request is logged.
 */
import http from 'node:http';
import { isAffected } from '../../src/model/advisories.js';
import { listenLocally } from './local-server.js';
import { osvSchemaErrors, type OsvDefinition } from './osv-openapi.js';

/** An OSV record as the service writes it (snake_case members). */
export type OsvRecord = { id: string; modified: string; affected?: OsvAffected[] } & Record<string, unknown>;
interface OsvAffected {
  package: { ecosystem: string; name: string; purl?: string };
  database_specific?: Record<string, unknown>;
  ranges?: Array<{ type: string; events: Array<Record<string, string>> }>;
  versions?: string[];
}

export interface OsvStandIn {
  url: string;
  records: OsvRecord[];
  /** Ids per page of one query's answer. */
  pageSize: number;
  /** Every request: method, path, status, and for a batch the number of queries, of page tokens, and the packages asked. */
  log: { method: string; path: string; status: number; queries?: number; pageTokens?: number; packages?: string[] }[];
  /** Answer 429 with `retryAfter` seconds to the next `times` requests for `path`. */
  limits: { path: string; times: number; retryAfter: number }[];
  /** Answer `status` to every request for `path`. */
  failures: { path: string; status: number }[];
  /** Ids whose record is answered as a body that is not JSON. */
  garbled: Set<string>;
  /** Answers or queries that break the published description. */
  errors: string[];
  close(): Promise<void>;
}

/** OSV compares PyPI names as PEP 503 normalises them; npm and crates.io names as written. */
const sameName = (ecosystem: string, a: string, b: string) =>
  ecosystem === 'PyPI' ? a.toLowerCase().replace(/[-_.]+/g, '-') === b.toLowerCase().replace(/[-_.]+/g, '-') : a === b;

function matches(record: OsvRecord, ecosystem: string, name: string, version: string | undefined): boolean {
  if (record.withdrawn !== undefined) return false;
  return (record.affected ?? []).some((affected) => {
    if (affected.package.ecosystem !== ecosystem || !sameName(ecosystem, affected.package.name, name)) return false;
    if (version === undefined) return true;
    const ranges = (affected.ranges ?? []).filter((r) => r.type !== 'GIT') as never;
    return isAffected({ ranges, versions: affected.versions ?? [] }, version);
  });
}

export async function startOsvStandIn(records: OsvRecord[], pageSize = 1000): Promise<OsvStandIn> {
  const stand: Omit<OsvStandIn, 'url' | 'close'> = {
    records,
    pageSize,
    log: [],
    limits: [],
    failures: [],
    garbled: new Set(),
    errors: [],
  };
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: OsvStandIn['log'][number] = { method: request.method ?? '', path, status: 0 };
      stand.log.push(entry);
      const send = (
        status: number,
        body: unknown,
        definition?: OsvDefinition,
        headers: Record<string, string> = {},
      ) => {
        const errors = definition ? osvSchemaErrors(definition, body) : [];
        if (errors.length > 0) {
          stand.errors.push(`${path}: ${errors.join('; ')}`);
          status = 500;
          body = { code: 13, message: 'the stand-in broke the description' };
        }
        entry.status = status;
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const limit = stand.limits.find((l) => l.path === path && l.times > 0);
      if (limit) {
        limit.times--;
        return send(429, { code: 8, message: 'Quota exceeded.' }, 'rpcStatus', {
          'retry-after': String(limit.retryAfter),
        });
      }
      const failure = stand.failures.find((f) => f.path === path);
      if (failure) return send(failure.status, { code: 13, message: 'Internal error.' }, 'rpcStatus');

      if (path === '/v1/querybatch' && request.method === 'POST') {
        let body: {
          queries?: Array<{ package?: { ecosystem?: string; name?: string }; version?: string; page_token?: string }>;
        };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        } catch {
          return send(400, { code: 3, message: 'Invalid JSON.' }, 'rpcStatus');
        }
        const queryErrors = osvSchemaErrors('v1BatchQuery', body);
        if (queryErrors.length > 0) {
          stand.errors.push(`query: ${queryErrors.join('; ')}`);
          return send(400, { code: 3, message: 'Invalid query.' }, 'rpcStatus');
        }
        const queries = body.queries ?? [];
        entry.queries = queries.length;
        entry.pageTokens = queries.filter((q) => q.page_token !== undefined).length;
        entry.packages = queries.map((q) => `${q.package?.ecosystem ?? ''}:${q.package?.name ?? ''}`);
        if (queries.length > 1000) return send(400, { code: 3, message: 'Too many queries.' }, 'rpcStatus');
        const results = queries.map((query) => {
          const { ecosystem = '', name = '' } = query.package ?? {};
          const ids = stand.records
            .filter((record) => matches(record, ecosystem, name, query.version))
            .map((record) => ({ id: record.id, modified: record.modified }))
            .sort((a, b) => (a.id < b.id ? -1 : 1));
          const start =
            query.page_token === undefined ? 0 : Number(Buffer.from(query.page_token, 'base64url').toString());
          const page = ids.slice(start, start + stand.pageSize);
          const more = start + stand.pageSize < ids.length;
          return {
            ...(page.length > 0 ? { vulns: page } : {}),
            ...(more ? { next_page_token: Buffer.from(String(start + stand.pageSize)).toString('base64url') } : {}),
          };
        });
        return send(200, { results }, 'v1BatchVulnerabilityList');
      }
      const vuln = /^\/v1\/vulns\/([^/]+)$/.exec(path);
      if (vuln && request.method === 'GET') {
        const id = decodeURIComponent(vuln[1]!);
        if (stand.garbled.has(id)) return send(200, '<html>oops</html>');
        const record = stand.records.find((r) => r.id === id);
        if (record === undefined) return send(404, { code: 5, message: 'Bug not found.' }, 'rpcStatus');
        return send(200, record, 'osvVulnerability');
      }
      return send(404, { code: 5, message: 'Not Found' }, 'rpcStatus');
    });
  });
  const local = await listenLocally(server);
  return Object.assign(stand, { url: local.url, close: local.close });
}
