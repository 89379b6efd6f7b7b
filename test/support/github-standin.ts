/**
 * A stand-in for GitHub's REST API on 127.0.0.1, for the rescoring pipeline's tests: the three operations the
 * method reads (`GET /repos/{owner}/{repo}`, `.../community/profile`, `.../stats/participation`), with what the
 * real API does around them: ETags and `If-None-Match` → 304 (not counted against the limit), `x-ratelimit-*`
 * headers and a primary rate limit that answers 403 when spent, 202 while statistics are "computing", 301 for a
 * moved repository, 404, 401 for a token it does not know, and faults a test asks for (a secondary limit,
 * a body that is not JSON, a socket closed mid-answer, any status). Every body it sends is checked against
 * GitHub's OpenAPI description; `invalid` lists any that failed (a test expects it empty).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { gitHubExample, gitHubSchemaErrors, type GitHubSchemaName } from './github-openapi.js';
import { listenLocally } from './local-server.js';

export interface StandInRepository {
  owner: string;
  name: string;
  stars: number;
  forks: number;
  watchers: number;
  archived: boolean;
  spdxId: string | null;
  createdAt: string;
  pushedAt: string;
  hasCodeOfConduct: boolean;
  /** Commits per week, oldest first; `computing` answers 202 every time. */
  participation: { all: number[]; owner: number[] } | 'computing';
  /** Answer 202 this many times before the statistics (then 200). */
  computingFor?: number;
  /** The repository now lives at this owner/name: its old path answers 301. */
  movedTo?: { owner: string; name: string };
}

export type GitHubFault =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'secondary-limit'; retryAfter: number }
  | { kind: 'not-json' }
  | { kind: 'close-mid-answer' };

export interface GitHubStandInOptions {
  /** The token it accepts (`Authorization: token|Bearer <token>`); any other, or none, is a 401. */
  token?: string;
  /** Requests per window before the primary limit answers 403 (304s are free). Default 5000. */
  rateLimit?: number;
  /** Seconds from the first request of a window to its reset. Default 3600. */
  windowSeconds?: number;
}

export interface GitHubStandIn {
  url: string;
  /** By `owner/name` lower-cased; tests may change it between runs. */
  repositories: Map<string, StandInRepository>;
  /** Every request: path, status answered. */
  log: { path: string; status: number }[];
  /** Bodies that failed GitHub's schemas (empty in a correct stand-in). */
  invalid: string[];
  /** Faults for paths matching `path`, each used `times` times (default: every time). */
  faults: { path: RegExp; fault: GitHubFault; times?: number }[];
  rate: { limit: number; remaining: number; reset: number };
  close(): Promise<void>;
}

const DOCS = 'https://docs.github.com/rest';

function fullRepository(repo: StandInRepository, id: number): Record<string, unknown> {
  const answer = gitHubExample('full-repository-default-response');
  const owner = answer.owner as Record<string, unknown>;
  owner.login = repo.owner;
  Object.assign(answer, {
    id,
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    stargazers_count: repo.stars,
    watchers_count: repo.stars,
    watchers: repo.stars,
    forks_count: repo.forks,
    forks: repo.forks,
    subscribers_count: repo.watchers,
    archived: repo.archived,
    license:
      repo.spdxId === null
        ? null
        : {
            key: repo.spdxId.toLowerCase(),
            name: repo.spdxId,
            spdx_id: repo.spdxId,
            url: null,
            node_id: 'MDc6TGljZW5zZTA=',
          },
    created_at: repo.createdAt,
    pushed_at: repo.pushedAt,
    // The description's example leaves out members its own schema requires.
    language: 'TypeScript',
  });
  for (const key of ['source', 'parent'] as const) {
    const related = answer[key] as Record<string, unknown> | undefined;
    if (related !== undefined && !('language' in related)) related.language = null;
  }
  return answer;
}

function communityProfile(repo: StandInRepository): Record<string, unknown> {
  const answer = gitHubExample('community-profile');
  const files = answer.files as Record<string, unknown>;
  if (!repo.hasCodeOfConduct) files.code_of_conduct = null;
  return answer;
}

export async function startGitHubStandIn(
  repositories: Iterable<StandInRepository>,
  options: GitHubStandInOptions = {},
): Promise<GitHubStandIn> {
  const limit = options.rateLimit ?? 5000;
  const windowSeconds = options.windowSeconds ?? 3600;
  const stand: Omit<GitHubStandIn, 'url' | 'close'> = {
    repositories: new Map([...repositories].map((repo) => [`${repo.owner}/${repo.name}`.toLowerCase(), repo])),
    log: [],
    invalid: [],
    faults: [],
    rate: { limit, remaining: limit, reset: 0 },
  };
  const served = new Map<string, number>(); // 202s served per path
  const ids = new Map<string, number>();

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const now = Math.floor(Date.now() / 1000);
    if (stand.rate.reset <= now) stand.rate = { limit, remaining: limit, reset: now + windowSeconds };
    const rateHeaders = () => ({
      'x-ratelimit-limit': String(stand.rate.limit),
      'x-ratelimit-remaining': String(stand.rate.remaining),
      'x-ratelimit-reset': String(stand.rate.reset),
      'x-ratelimit-used': String(stand.rate.limit - stand.rate.remaining),
      'x-ratelimit-resource': 'core',
    });
    const send = (
      status: number,
      body: unknown,
      schema: GitHubSchemaName | null,
      extra: Record<string, string> = {},
    ) => {
      stand.log.push({ path, status });
      if (schema !== null) {
        const errors = gitHubSchemaErrors(schema, body);
        if (errors.length > 0) stand.invalid.push(`${path} ${status}: ${errors.slice(0, 3).join('; ')}`);
      }
      const text = body === undefined ? '' : JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...rateHeaders(), ...extra });
      response.end(status === 304 ? undefined : text);
    };
    const error = (status: number, message: string, extra: Record<string, string> = {}) =>
      send(status, { message, documentation_url: DOCS, status: String(status) }, 'basic-error', extra);

    const auth = request.headers.authorization;
    if (options.token !== undefined && auth !== `token ${options.token}` && auth !== `Bearer ${options.token}`) {
      return error(401, 'Bad credentials');
    }
    const fault = stand.faults.find((f) => f.path.test(path) && (f.times === undefined || f.times > 0));
    if (fault) {
      if (fault.times !== undefined) fault.times--;
      const f = fault.fault;
      if (f.kind === 'status') return send(f.status, f.body ?? { message: `status ${f.status}` }, null, f.headers);
      if (f.kind === 'secondary-limit') {
        return error(403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', {
          'retry-after': String(f.retryAfter),
        });
      }
      if (f.kind === 'not-json') {
        stand.log.push({ path, status: 200 });
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...rateHeaders() });
        return response.end('<html><body>Unicorn! This page is taking too long to load.</body></html>');
      }
      stand.log.push({ path, status: 200 });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': '5000' });
      response.write('{"id": 1, "name": "half');
      return setTimeout(() => response.socket?.destroy(), 5);
    }
    if (stand.rate.remaining <= 0) return error(403, 'API rate limit exceeded for 127.0.0.1.');

    const match = /^\/repos\/([^/]+)\/([^/]+)(\/community\/profile|\/stats\/participation)?$/.exec(path);
    if (request.method !== 'GET' || match === null) return error(404, 'Not Found');
    const [, owner, name, tail = ''] = match;
    const key = `${owner}/${name}`.toLowerCase();
    const repo = stand.repositories.get(key);
    if (repo?.movedTo) {
      stand.rate.remaining--;
      const location = `/repos/${repo.movedTo.owner}/${repo.movedTo.name}${tail}`;
      return error(301, 'Moved Permanently', { location: `http://${request.headers.host ?? '127.0.0.1'}${location}` });
    }
    if (repo === undefined) {
      stand.rate.remaining--;
      return error(404, 'Not Found');
    }
    let body: unknown;
    let schema: GitHubSchemaName;
    if (tail === '') {
      if (!ids.has(key)) ids.set(key, ids.size + 1);
      body = fullRepository(repo, ids.get(key)!);
      schema = 'full-repository';
    } else if (tail === '/community/profile') {
      body = communityProfile(repo);
      schema = 'community-profile';
    } else {
      const computed = served.get(path) ?? 0;
      if (repo.participation === 'computing' || computed < (repo.computingFor ?? 0)) {
        served.set(path, computed + 1);
        stand.rate.remaining--;
        stand.log.push({ path, status: 202 });
        response.writeHead(202, { 'content-type': 'application/json; charset=utf-8', ...rateHeaders() });
        return response.end('{}');
      }
      body = repo.participation;
      schema = 'participation-stats';
    }
    const etag = `W/"${createHash('sha256').update(JSON.stringify(body)).digest('hex')}"`;
    if (request.headers['if-none-match'] === etag) return send(304, undefined, null, { etag });
    stand.rate.remaining--;
    return send(200, body, schema, { etag });
  });
  const { url, close } = await listenLocally(server);
  return Object.assign(stand, { url, close });
}
