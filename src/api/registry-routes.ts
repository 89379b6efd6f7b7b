/**
 * The rows of the route table (`routes.ts`) for the MCP registry API, version v0.1 (the registry's OpenAPI
 * document of 2025-12-01): keyless, public, cached, never counted; errors in the document's shape.
 */
import { registryServers, registryVersion, registryVersions } from './handlers/registry.js';
import {
  REGISTRY_LIMIT,
  type RegistryListParams,
  RegistryListParamsSchema,
  RegistryNamePathSchema,
  RegistryVersionPathSchema,
} from '../registry/params.js';
import { ROUTE_PATHS } from './paths.js';
import type { Route } from './route.js';

const REGISTRY_PARAMS: Record<keyof RegistryListParams, string> = {
  cursor: 'The `metadata.nextCursor` of the previous page, exactly as given (opaque; stable within a snapshot).',
  limit: 'Servers per page.',
  search: 'Only servers whose name contains this text (any case).',
  updated_since: 'Only servers whose registry entry was updated at or after this RFC 3339 time.',
  version: '`latest` (every server: only the latest version is held) or an exact version string.',
  min_score: "Only servers whose trust score is at least this; narrows the deployment's `REGISTRY_MIN_SCORE`.",
};
const SERVER_NAME = { serverName: 'The server name, URL-encoded (`io.github.owner%2Fname`), in any case.' };
const REGISTRY_DESCRIPTION =
  "Keyless and never counted; `Cache-Control: public` (5 minutes, 1 hour in shared caches), an ETag per snapshot, request and policy. Only servers that have a registry entry and meet this deployment's policy (`REGISTRY_*` settings) are held; each answer carries the server's trust data under `_meta`.";

/** The registry routes, in the order the 404 lists them and the OpenAPI document describes them. */
export const REGISTRY_ROUTES: readonly Route[] = [
  {
    id: 'registryList',
    needs: 'registry',
    path: ROUTE_PATHS.registryList,
    keyed: false,
    handler: registryServers,
    doc: {
      operationId: 'listRegistryServers',
      summary: 'Registry: List Servers',
      description: `The MCP registry's \`GET /v0.1/servers\`: a page of servers in name order (${REGISTRY_LIMIT.default} by default), with \`metadata.nextCursor\` until the last page. ${REGISTRY_DESCRIPTION}`,
      tag: 'Registry',
      body: 'RegistryServerList',
      query: { schema: RegistryListParamsSchema, descriptions: REGISTRY_PARAMS },
      registry: true,
    },
  },
  {
    id: 'registryVersions',
    needs: 'registry',
    path: ROUTE_PATHS.registryVersions,
    keyed: false,
    handler: registryVersions,
    doc: {
      operationId: 'listRegistryServerVersions',
      summary: 'Registry: Server Versions',
      description: `The versions of a server: the latest, the only one held. 404 for a server not in this registry. ${REGISTRY_DESCRIPTION}`,
      tag: 'Registry',
      body: 'RegistryServerList',
      path: { schema: RegistryNamePathSchema, descriptions: SERVER_NAME },
      notFound: true,
      registry: true,
    },
  },
  {
    id: 'registryVersion',
    needs: 'registry',
    path: ROUTE_PATHS.registryVersion,
    keyed: false,
    handler: registryVersion,
    doc: {
      operationId: 'getRegistryServerVersion',
      summary: 'Registry: Server Version',
      description: `One version of a server: \`latest\`, or the held version's exact string; any other is a 404. ${REGISTRY_DESCRIPTION}`,
      tag: 'Registry',
      body: 'RegistryServerResponse',
      path: { schema: RegistryVersionPathSchema, descriptions: { ...SERVER_NAME, version: '`latest`, or a version, URL-encoded.' } },
      notFound: true,
      registry: true,
    },
  },
];
