/**
 * The MCP registry API, version v0.1 (`GET /v0.1/servers`, `/v0.1/servers/{serverName}/versions` and
 * `/v0.1/servers/{serverName}/versions/{version}`), as the registry's OpenAPI document of 2025-12-01
 * describes it, over the snapshot's registry entries, each with its trust data under `_meta`. Keyless and
 * never counted, like the badge: a client pointed at a registry sends no key, and the data is public.
 * Answers are public documents (cached by browsers for minutes and by shared caches for an hour), with an
 * ETag per snapshot, request and policy; errors take the document's shape (`{"error": "..."}`, made by the
 * gateway for every `/v0.1` path).
 */
import type { ServerRecord } from '../../model/schema.js';
import type { QueryEngine } from '../../query/types.js';
import { createRegistryFeed, isCursor, type RegistryFeed } from '../../registry/feed.js';
import { RegistryListParamsSchema } from '../../registry/params.js';
import { OPEN_POLICY, policyKey, type RegistryPolicy } from '../../registry/policy.js';
import { ApiError, quote } from '../errors.js';
import { assertNoParams, parse, spec } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';
import { BADGE_CACHE_CONTROL } from './badge.js';

const JSON_TYPE = 'application/json; charset=utf-8';

const LIST = spec(
  RegistryListParamsSchema,
  ['cursor', 'limit', 'search', 'updated_since', 'version', 'min_score'],
  ['limit', 'min_score'],
  [],
);

/** The feed of each engine (a new snapshot is a new engine, so its feed is made anew). */
const feeds = new WeakMap<QueryEngine, RegistryFeed>();

function feedOf(engine: QueryEngine): RegistryFeed {
  let feed = feeds.get(engine);
  if (feed === undefined) {
    const recordOf = (name: string) => {
      const json = engine.getJson(name);
      return json === undefined ? undefined : (JSON.parse(json) as ServerRecord);
    };
    feed = createRegistryFeed(engine.registry() ?? { servers: [] }, recordOf, engine.snapshot.id);
    feeds.set(engine, feed);
  }
  return feed;
}

const document = (key: string, policy: RegistryPolicy, body: string): Answer => ({
  kind: 'document',
  key: `registry\n${key}\n${policyKey(policy)}`,
  status: 200,
  contentType: JSON_TYPE,
  cacheControl: BADGE_CACHE_CONTROL,
  body,
});

/** `GET /v0.1/servers`: a page of the feed (`ServerList`), in name order, with the next page's cursor. */
export function registryServers({ engine, query, registryPolicy = OPEN_POLICY }: HandlerContext): Answer {
  const params = parse(query, LIST);
  if (params.cursor !== undefined && !isCursor(params.cursor)) {
    throw new ApiError(
      'invalid_parameter',
      'Invalid query: cursor is not one this registry gave (use metadata.nextCursor of the previous page as it is)',
    );
  }
  const page = feedOf(engine).list(params, registryPolicy);
  const metadata = page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
  const body = `{"servers":[${page.servers.join(',')}],"metadata":${JSON.stringify({ ...metadata, count: page.servers.length })}}`;
  return document(`list\n${JSON.stringify(params)}`, registryPolicy, body);
}

/** The server name of the path (`io.github.owner%2Fname`), decoded; a bad escape is a 400. */
function serverNameOf(pathParams: Readonly<Record<string, string>>): string {
  try {
    return decodeURIComponent(pathParams.serverName ?? '');
  } catch {
    throw new ApiError('invalid_parameter', 'Invalid path: serverName is not valid percent-encoding');
  }
}

function versionOf(pathParams: Readonly<Record<string, string>>): string {
  try {
    return decodeURIComponent(pathParams.version ?? '');
  } catch {
    throw new ApiError('invalid_parameter', 'Invalid path: version is not valid percent-encoding');
  }
}

const notFound = (name: string) =>
  new ApiError(
    'server_not_found',
    `Server not found: ${quote(name, 100)} is not in this registry (it holds scored servers that have a registry entry and meet its policy; the name is URL-encoded, / as %2F)`,
  );

/** `GET /v0.1/servers/{serverName}/versions`: the one version held, as a `ServerList`. */
export function registryVersions({ engine, query, pathParams, registryPolicy = OPEN_POLICY }: HandlerContext): Answer {
  assertNoParams(query);
  const name = serverNameOf(pathParams);
  const found = feedOf(engine).get(name, registryPolicy);
  if (found === undefined) throw notFound(name);
  return document(
    `versions\n${name.toLowerCase()}`,
    registryPolicy,
    `{"servers":[${found.json}],"metadata":{"count":1}}`,
  );
}

/** `GET /v0.1/servers/{serverName}/versions/{version}`: `latest` or the held version's exact string. */
export function registryVersion({ engine, query, pathParams, registryPolicy = OPEN_POLICY }: HandlerContext): Answer {
  assertNoParams(query);
  const name = serverNameOf(pathParams);
  const version = versionOf(pathParams);
  const found = feedOf(engine).get(name, registryPolicy);
  if (found === undefined) throw notFound(name);
  if (version !== 'latest' && version !== found.version) {
    throw new ApiError(
      'server_not_found',
      `Server version not found: ${quote(name, 100)} has version ${quote(found.version, 60)} here (only the latest is held; ask for it by that or by "latest")`,
    );
  }
  return document(`version\n${name.toLowerCase()}\n${version}`, registryPolicy, found.json);
}
