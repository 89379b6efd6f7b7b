/**
 * A stand-in for an OCI registry (the OCI distribution specification's pull API, `/v2/`) with a token service,
 * as Docker Hub and GHCR work: a request without a token gets a 401 with
 * `WWW-Authenticate: Bearer realm="<url>/token",service="<name>",scope="repository:<repo>:pull"`; the realm
 * gives an anonymous pull token for that scope; with it, `GET /v2/<repo>/manifests/<tag|digest>` answers an
 * image index (several platforms) or an image manifest with its `Content-Type` and `Docker-Content-Digest`, and
 * `GET /v2/<repo>/blobs/<digest>` the config, whose `config.Labels` carry the OCI annotations. Unknown names
 * are a 404 with the specification's error body (`MANIFEST_UNKNOWN`, `NAME_UNKNOWN`).
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { listenLocally } from './local-server.js';

export interface StandInImage {
  repository: string;
  tag: string;
  labels: Record<string, string>;
  created: string;
  /** Served behind an image index with an arm64 and an amd64 image (the labels are the amd64 one's). */
  multiPlatform?: boolean;
}

export interface OciRegistryStandIn {
  url: string;
  /** `127.0.0.1:<port>`: the host an identifier names. */
  host: string;
  images: StandInImage[];
  log: { path: string; status: number; authorized: boolean }[];
  close(): Promise<void>;
}

const digestOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

export async function startOciRegistryStandIn(images: StandInImage[]): Promise<OciRegistryStandIn> {
  const tokens = new Map<string, string>(); // token → scope
  const stand: Omit<OciRegistryStandIn, 'url' | 'host' | 'close'> = { images, log: [] };
  let base = '';
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      stand.log.push({ path: url.pathname, status, authorized: bearer !== undefined && tokens.has(bearer) });
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(body);
    };
    if (url.pathname === '/token') {
      const token = randomBytes(12).toString('hex');
      tokens.set(token, url.searchParams.get('scope') ?? '');
      return send(200, JSON.stringify({ token, access_token: token, expires_in: 300 }));
    }
    const match = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(url.pathname);
    if (!match) return send(404, JSON.stringify({ errors: [{ code: 'NAME_UNKNOWN', message: 'unknown' }] }));
    const [, repository, kind, reference] = match as unknown as [string, string, string, string];
    const scope = `repository:${repository}:pull`;
    if (bearer === undefined || tokens.get(bearer) !== scope) {
      return send(401, JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }), {
        'www-authenticate': `Bearer realm="${base}/token",service="standin.registry",scope="${scope}"`,
      });
    }
    const image = stand.images.find((i) => i.repository === repository);
    if (!image) return send(404, JSON.stringify({ errors: [{ code: 'NAME_UNKNOWN', message: 'repository unknown' }] }));
    const config = JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      created: image.created,
      config: { Labels: image.labels },
      rootfs: { type: 'layers', diff_ids: [] },
    });
    const armConfig = JSON.stringify({
      architecture: 'arm64',
      os: 'linux',
      config: { Labels: {} },
      rootfs: { type: 'layers', diff_ids: [] },
    });
    const manifestOf = (cfg: string) =>
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digestOf(cfg), size: cfg.length },
        layers: [],
      });
    const manifest = manifestOf(config);
    const armManifest = manifestOf(armConfig);
    const index = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          digest: digestOf(armManifest),
          size: armManifest.length,
          platform: { os: 'linux', architecture: 'arm64' },
        },
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          digest: digestOf(manifest),
          size: manifest.length,
          platform: { os: 'linux', architecture: 'amd64' },
        },
      ],
    });
    if (kind === 'blobs') {
      const blob = [config, armConfig].find((b) => digestOf(b) === reference);
      return blob
        ? send(200, blob, { 'content-type': 'application/octet-stream' })
        : send(404, JSON.stringify({ errors: [{ code: 'BLOB_UNKNOWN', message: 'blob unknown' }] }));
    }
    const top = image.multiPlatform ? index : manifest;
    const byReference = new Map([
      [image.tag, top],
      [digestOf(top), top],
      [digestOf(manifest), manifest],
      [digestOf(armManifest), armManifest],
    ]);
    const body = byReference.get(reference);
    if (!body)
      return send(404, JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown' }] }));
    return send(200, body, {
      'content-type': (JSON.parse(body) as { mediaType: string }).mediaType,
      'docker-content-digest': digestOf(body),
    });
  });
  const { url, port, close } = await listenLocally(server);
  base = url;
  return Object.assign(stand, { url, host: `127.0.0.1:${port}`, close });
}
