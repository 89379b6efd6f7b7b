/**
 * Stand-ins for three package registries' read APIs on 127.0.0.1, as their documentation describes them:
 * - npm (https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md): `GET /<name>` and `GET /@scope%2Fname`
 *   give the full packument (`name`, `dist-tags`, `versions` with `dist` and, for a version published with
 *   provenance, `dist.attestations` `{url, provenance: {predicateType}}`, `time`, `maintainers`, `repository`);
 * - PyPI (https://docs.pypi.org/api/json/): `GET /pypi/<project>/json` gives `info` (`name`, `version`,
 *   `project_urls`, `yanked`), `releases` (files with `upload_time_iso_8601`, `yanked`) and `urls`;
 * - crates.io (https://crates.io/data-access): `GET /api/v1/crates/<name>` gives `crate` (`name`,
 *   `max_version`, `max_stable_version`, `repository`) and `versions` (`num`, `created_at`, `yanked`).
 * Each answer carries a strong ETag and answers `If-None-Match` with a 304; an unknown name is a 404 with each
 * registry's error body; a test can ask for 429s with a Retry-After. Every request is logged.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { listenLocally } from './local-server.js';

export interface StandInVersion {
  version: string;
  publishedAt: string;
  yanked?: boolean;
  provenance?: boolean;
  deprecated?: string;
}

export interface StandInPackage {
  registry: 'npm' | 'pypi' | 'cargo';
  name: string;
  repository?: string;
  maintainers?: string[];
  /** Oldest first; the last is the latest. */
  versions: StandInVersion[];
}

export interface PackageRegistriesStandIn {
  url: string;
  packages: StandInPackage[];
  /** Every request: path, status, when it arrived (ms) and its user agent. */
  log: { path: string; status: number; at: number; userAgent: string }[];
  /** Answer 429 with `retryAfter` seconds to the next `times` requests for `path`. */
  limits: { path: string; times: number; retryAfter: number }[];
  close(): Promise<void>;
}

function npmDocument(p: StandInPackage) {
  const latest = p.versions.at(-1)!;
  const repository = p.repository ? { type: 'git', url: `git+${p.repository}.git` } : undefined;
  return {
    _id: p.name,
    name: p.name,
    'dist-tags': { latest: latest.version },
    versions: Object.fromEntries(
      p.versions.map((v) => [
        v.version,
        {
          name: p.name,
          version: v.version,
          ...(repository ? { repository } : {}),
          ...(v.deprecated ? { deprecated: v.deprecated } : {}),
          dist: {
            tarball: `https://registry.npmjs.org/${p.name}/-/${p.name.split('/').at(-1)}-${v.version}.tgz`,
            shasum: createHash('sha1').update(v.version).digest('hex'),
            ...(v.provenance
              ? {
                  attestations: {
                    url: `https://registry.npmjs.org/-/npm/v1/attestations/${p.name}@${v.version}`,
                    provenance: { predicateType: 'https://slsa.dev/provenance/v1' },
                  },
                }
              : {}),
          },
        },
      ]),
    ),
    time: {
      created: p.versions[0]!.publishedAt,
      modified: latest.publishedAt,
      ...Object.fromEntries(p.versions.map((v) => [v.version, v.publishedAt])),
    },
    maintainers: (p.maintainers ?? []).map((name) => ({ name, email: `${name}@example.com` })),
    ...(repository ? { repository } : {}),
  };
}

function pypiDocument(p: StandInPackage) {
  const latest = p.versions.at(-1)!;
  const file = (v: StandInVersion) => ({
    filename: `${p.name}-${v.version}.tar.gz`,
    packagetype: 'sdist',
    upload_time_iso_8601: v.publishedAt.replace('Z', '.000000Z').replace(/\.\d{3}\.000000Z$/, '.000000Z'),
    yanked: v.yanked ?? false,
    yanked_reason: v.yanked ? 'broken' : null,
  });
  return {
    info: {
      name: p.name,
      version: latest.version,
      summary: `${p.name} summary`,
      project_urls: p.repository ? { Homepage: 'https://example.com', Source: p.repository } : null,
      yanked: latest.yanked ?? false,
      yanked_reason: latest.yanked ? 'broken' : null,
    },
    last_serial: 1,
    releases: Object.fromEntries(p.versions.map((v) => [v.version, [file(v)]])),
    urls: [file(latest)],
    vulnerabilities: [],
  };
}

function crateDocument(p: StandInPackage) {
  const latest = p.versions.at(-1)!;
  return {
    crate: {
      id: p.name,
      name: p.name,
      max_version: latest.version,
      max_stable_version: latest.version,
      newest_version: latest.version,
      repository: p.repository ?? null,
      updated_at: latest.publishedAt.replace('Z', '+00:00'),
    },
    versions: [...p.versions].reverse().map((v, i) => ({
      id: i + 1,
      crate: p.name,
      num: v.version,
      created_at: v.publishedAt.replace('Z', '+00:00'),
      yanked: v.yanked ?? false,
    })),
  };
}

const NOT_FOUND = {
  npm: { error: 'Not found' },
  pypi: { message: 'Not Found' },
  cargo: { errors: [{ detail: 'crate `x` does not exist' }] },
};

export async function startPackageRegistriesStandIn(packages: StandInPackage[]): Promise<PackageRegistriesStandIn> {
  const stand: Omit<PackageRegistriesStandIn, 'url' | 'close'> = { packages, log: [], limits: [] };
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      stand.log.push({ path, status, at: Date.now(), userAgent: request.headers['user-agent'] ?? '' });
      response.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const limit = stand.limits.find((l) => l.path === path && l.times > 0);
    if (limit) {
      limit.times--;
      return send(429, { error: 'rate limited' }, { 'retry-after': String(limit.retryAfter) });
    }
    let registry: StandInPackage['registry'];
    let name: string;
    let match: RegExpExecArray | null;
    if ((match = /^\/pypi\/([^/]+)\/json$/.exec(path))) [registry, name] = ['pypi', decodeURIComponent(match[1]!)];
    else if ((match = /^\/api\/v1\/crates\/([^/]+)$/.exec(path)))
      [registry, name] = ['cargo', decodeURIComponent(match[1]!)];
    else if ((match = /^\/((?:@[^/]+(?:\/|%2[Ff]))?[^/@][^/]*)$/.exec(path)))
      [registry, name] = ['npm', decodeURIComponent(match[1]!)];
    else return send(404, { error: 'Not found' });
    const normal = (n: string) => (registry === 'npm' ? n : n.toLowerCase().replace(/[-_.]+/g, '-'));
    const found = stand.packages.find((p) => p.registry === registry && normal(p.name) === normal(name));
    if (!found) return send(404, NOT_FOUND[registry]);
    const body =
      registry === 'npm' ? npmDocument(found) : registry === 'pypi' ? pypiDocument(found) : crateDocument(found);
    const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32)}"`;
    if (request.headers['if-none-match'] === etag) return send(304, undefined, { etag });
    return send(200, body, { etag });
  });
  const { url, close } = await listenLocally(server);
  return Object.assign(stand, { url, close });
}
