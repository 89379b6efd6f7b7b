/**
 * The route table: every route of the API, once. The gateway matches against it (and lists it in its 404),
 * the OpenAPI document's `paths` are made from it, `scripts/generated-files.ts` writes `vercel.json`'s
 * rewrites and the `api/` files from it, and the MCP client requests its paths. Adding a route is a row here
 * plus its handler.
 */
import type { z } from 'zod';
import type { CheckRequest } from '../model/check.js';
import { CHECK_LIMITS } from '../model/check-limits.js';
import {
  type ChangesParams,
  ChangesParamsSchema,
  LIMITS,
  type ListParams,
  ListParamsSchema,
  type LookupParams,
  LookupParamsSchema,
  type SearchParams,
  SearchParamsSchema,
  ServerPathSchema,
} from '../model/schema.js';
import { badge } from './handlers/badge.js';
import { issueKey } from './handlers/keys.js';
import { IssueKeyRequestSchema } from './key-request.js';
import { changesAtom, serverAtom } from './handlers/feeds.js';
import { changes, serverExplanation, serverHistory } from './handlers/history.js';
import { lookupServers } from './handlers/lookup.js';
import { unknownFlagsProblem } from '../model/flag-names.js';
import { knownFlags } from '../query/known-flags.js';
import { REGISTRY_ROUTES } from './registry-routes.js';
import { WEBHOOK_ROUTES } from './webhook-routes.js';
import { getServer, listServers, searchServers } from './handlers/servers.js';
import { health, stats } from './handlers/service.js';
import { serverTools } from './handlers/tools.js';
import { ROUTE_PATHS, type RouteId } from './paths.js';
import type { Route } from './route.js';

// Parameter descriptions are typed by the schemas' keys, so a new parameter cannot be left undocumented.

const LIST_PARAMS: Record<keyof ListParams, string> = {
  limit: 'Results per page.',
  offset: 'How many records to skip. An offset past the end gives an empty page with the true `meta.total`.',
  sort: 'Sort field. Ties are always broken by name ascending, so pages never overlap or skip a record; `namespace` sorts by namespace, then name.',
  order: 'Sort order of the sort field (accepted in any case); ties stay name ascending.',
  min_score: 'Only servers whose trust score is at least this.',
  flags: 'Only servers carrying this flag; several flags separated by commas mean all of them. Case-insensitive.',
  target: 'Only servers with this platform target (for example `GitHub`, `PostgreSQL`). Case-insensitive.',
  namespace: 'Only servers of this publisher namespace (the part of the name before `/`). Case-insensitive.',
};

const SEARCH_PARAMS: Record<keyof SearchParams, string> = {
  q: 'Words to find in server names (at least 2 characters after trimming). Prefix matching (`postg` finds `postgres`), typo tolerance for words of 4 or more characters; several words must all match; the id weighs more than the namespace.',
  limit: 'Maximum number of results.',
  offset: 'How many matches to skip, to page through every match (`meta.total` says how many there are).',
  in: 'Where to look: `name` (the default, as the specification says), `description` (the registry description each record carries, split into words as names are), or `name,description`: each word may match the name or the description, and every server whose name matches ranks above every server that matches only by its description. Case-insensitive; an extension of this service.',
};

const LOOKUP_PARAMS: Record<keyof LookupParams, string> = {
  package:
    '`<registry_type>:<identifier>` with registry_type one of npm, pypi, oci, nuget, mcpb, cargo (for example `npm:@modelcontextprotocol/server-filesystem`, `pypi:mcp-server-git`, `oci:docker.io/mcp/github`).',
  url: 'The URL of a remote MCP server (http or https), as a client configuration gives it.',
  purl: 'A package URL (purl, ECMA-427) of type npm, pypi, oci (with `repository_url`), docker, nuget or cargo (for example `pkg:npm/%40modelcontextprotocol/server-filesystem`, `pkg:pypi/mcp-server-git`, `pkg:oci/github?repository_url=docker.io/mcp/github`); a version is ignored.',
  repo: 'A source repository URL on GitHub or GitLab (for example `https://github.com/modelcontextprotocol/servers`); case, `www.`, `.git`, a trailing slash, `git+`/ssh forms and `/tree/...` paths are ignored. Finds the servers whose record names that repository.',
};

const CHANGES_PARAMS: Record<keyof ChangesParams, string> = {
  since: 'The snapshot id to compare with (the `meta.snapshot_id` of an earlier answer, or `/v1/health`).',
  limit: 'Changes per page.',
  offset: 'How many changes to skip.',
};

const SERVER_PATH: Record<keyof z.infer<typeof ServerPathSchema>, string> = {
  namespace: 'Publisher namespace, the part of the name before `/` (matched case-insensitively), percent-encoded.',
  id: 'Server id, the part of the name after `/` (matched case-insensitively), percent-encoded.',
};

/** Every route, in the order the 404 lists them and the OpenAPI document describes them. */
export const ROUTES: readonly Route[] = [
  {
    id: 'health',
    path: ROUTE_PATHS.health,
    keyed: false,
    handler: health,
    doc: {
      operationId: 'getHealth',
      summary: 'Health Check',
      description: 'Whether the service is up, the snapshot it serves and the state of its counter store. Needs no key and never counts against a limit.',
      tag: 'Service',
      body: 'HealthResponse',
    },
  },
  {
    id: 'stats',
    path: ROUTE_PATHS.stats,
    keyed: true,
    handler: stats,
    doc: {
      operationId: 'getStats',
      summary: 'Ecosystem Statistics',
      description: 'Total servers, average and median score, servers per trust label and per flag, and verified publishers. Takes no parameters.',
      tag: 'Service',
      body: 'StatsResponse',
    },
  },
  {
    id: 'list',
    needs: 'lists',
    path: ROUTE_PATHS.list,
    keyed: true,
    handler: listServers,
    doc: {
      operationId: 'listServers',
      summary: 'List Servers',
      description: `Filter, sort and page the scored servers. Default sort \`trust_score\` \`desc\`; ${LIMITS.list.default} per page. A filter that matches nothing gives an empty page with \`meta.total\` 0.`,
      tag: 'Servers',
      body: 'ServerListResponse',
      query: { schema: ListParamsSchema, descriptions: LIST_PARAMS },
    },
  },
  {
    id: 'get',
    path: ROUTE_PATHS.get,
    keyed: true,
    handler: getServer,
    doc: {
      operationId: 'getServer',
      summary: 'Get Server',
      description: 'The trust record of the server named `<namespace>/<id>`, matched case-insensitively and answered with its stored spelling.',
      tag: 'Servers',
      body: 'ServerResponse',
      path: { schema: ServerPathSchema, descriptions: SERVER_PATH },
      notFound: true,
    },
  },
  {
    id: 'search',
    needs: 'search',
    path: ROUTE_PATHS.search,
    keyed: true,
    listedAs: '/v1/search?q={query}',
    handler: searchServers,
    doc: {
      operationId: 'searchServers',
      summary: 'Search',
      description: `Search servers by name; best matches first (ties go to the higher trust score), at most \`limit\` (default ${LIMITS.search.default}). A query whose words all equal a server's id ranks that server first. \`offset\` pages through every match; \`in=name,description\` also finds servers by what their registry description says, after every name match.`,
      tag: 'Servers',
      body: 'SearchResponse',
      query: { schema: SearchParamsSchema, descriptions: SEARCH_PARAMS },
    },
  },
  {
    id: 'lookup',
    needs: 'lookup',
    path: ROUTE_PATHS.lookup,
    keyed: true,
    listedAs: '/v1/lookup?package={registry_type}:{identifier} or ?purl={package url} or ?url={url} or ?repo={repository url}',
    handler: lookupServers,
    doc: {
      operationId: 'lookupServers',
      summary: 'Reverse Lookup',
      description:
        "The servers a package or a remote URL belongs to, as a client's configuration names them, most trusted first (a package may belong to several servers). Exactly one of `package`, `purl` (a package URL) or `url`; a malformed package URL is a 400 that says which part is wrong. Identifiers are compared the way each ecosystem compares them: npm names as published (a version suffix is ignored), PyPI names normalised as PEP 503 says, OCI references with the default registry and `library/` made explicit and no tag or digest, NuGet ids in any case, URLs with scheme and host in lower case and a trailing slash ignored. No match is an empty list.",
      tag: 'Servers',
      body: 'LookupResponse',
      query: { schema: LookupParamsSchema, descriptions: LOOKUP_PARAMS },
    },
  },
  {
    id: 'check',
    needs: 'lookup',
    path: ROUTE_PATHS.check,
    method: 'POST',
    keyed: true,
    listedAs: 'POST /v1/check',
    // The check's verdict rules, its body schema and packageurl-js (an `Intl.Collator` made as it loads) are
    // loaded on the first check, not at every start.
    handler: async (context) => (await import('./handlers/check.js')).checkServers(context),
    body: {
      schema: async () => (await import('../model/check.js')).CheckRequestSchema,
      cost: (body) => (body as CheckRequest).servers.length,
      refuse: (body, engine) =>
        unknownFlagsProblem('policy.deny_flags', (body as CheckRequest).policy.deny_flags ?? [], knownFlags(engine)),
    },
    doc: {
      operationId: 'checkServers',
      summary: 'Policy Check',
      description: `A verdict on a whole MCP configuration: each item of \`servers\` (a server name, \`{"package": "<registry_type>:<identifier>"}\`, \`{"purl": "<package url>"}\` or \`{"url": "<remote url>"}\`, 1 to ${CHECK_LIMITS.maxItems}) is resolved as Get Server and Reverse Lookup resolve it and judged by \`policy\`: \`allow\` and \`deny\` (server names) override everything; otherwise an item fails below \`min_score\` (default 40), with a flag of \`deny_flags\` (a flag no scored server has ever carried is a 400 naming the closest known ones), or without a verified publisher when \`require_verified_publisher\` is true; an item that matches no scored server gets \`unknown\` (default \`fail\`). Results keep the order of the input, each with reasons a person can act on; \`verdict\` is \`fail\` when any result fails. Each item counts as one request; a call with more items than the key has left is a 429 that counts nothing. The body is \`application/json\`, at most 64 KB. Never cached.`,
      tag: 'Servers',
      body: 'CheckResponse',
    },
  },
  {
    id: 'keys',
    path: ROUTE_PATHS.keys,
    method: 'POST',
    keyed: false,
    listedAs: 'POST /v1/keys',
    handler: issueKey,
    body: { schema: () => Promise.resolve(IssueKeyRequestSchema), cost: () => 0 },
    doc: {
      operationId: 'issueKey',
      summary: 'Get Access',
      description:
        'Issue a free-plan API key, shown once in this answer and never again (only its hash is kept), as the specification\'s "Get Access" step asks. No key is needed. The JSON body may carry a `label` (up to 100 characters). Each client address may be issued a few keys a day (3 by default; 429 past that); a deployment may turn self-service off (403 `self_service_disabled`). Never cached.',
      tag: 'Service',
      body: 'IssuedKeyResponse',
      successStatus: 201,
      extraErrors: ['Forbidden', 'TooManyRequests', 'BadGateway'],
    },
  },
  {
    id: 'history',
    needs: 'history',
    path: ROUTE_PATHS.history,
    keyed: true,
    handler: serverHistory,
    doc: {
      operationId: 'getServerHistory',
      summary: 'Score History',
      description:
        "The server's score over time: each point is a snapshot in which its score, label, sub-scores or flags changed (with when it was scored), newest first, over the snapshots the service keeps (at least the last 90 republishes); `removed` marks a snapshot it had left. 404 as Get Server for an unknown name.",
      tag: 'Servers',
      body: 'HistoryResponse',
      path: { schema: ServerPathSchema, descriptions: SERVER_PATH },
      notFound: true,
    },
  },
  {
    id: 'explain',
    path: ROUTE_PATHS.explain,
    keyed: true,
    handler: serverExplanation,
    doc: {
      operationId: 'explainServer',
      summary: 'Score Explanation',
      description:
        "How the server's four sub-scores and its trust score are made, by the method the record names (`evidence.method`): for `mts-2` (the default, docs/method.md: provenance 40%, maintenance 25%, popularity 10%, permissions 25%) from its `evidence`, each signal either measured, with its value and points, or not measured, with the reason, leaving the sub-score (`measured: false`) rather than counting as 0, and the `confidence`; for a record without evidence, from its `signals` by the upstream method of MCP Scorecard (provenance 30%, maintenance 25%, popularity 20%, permissions 25%). For each sub-score: the computed and the stored value, and a summary in words that states only what was measured. Where the recomputation does not reproduce the stored scores, `reproduced` is false and the summary says so with the stored values: never an invented breakdown. 404 as Get Server.",
      tag: 'Servers',
      body: 'ExplanationResponse',
      path: { schema: ServerPathSchema, descriptions: SERVER_PATH },
      notFound: true,
    },
  },
  {
    id: 'tools',
    needs: 'tools',
    path: ROUTE_PATHS.tools,
    keyed: true,
    handler: serverTools,
    doc: {
      operationId: 'getServerTools',
      summary: 'Server Tools',
      description:
        "The tools the server's remote listed when it was last probed without credentials, pinned: each tool's name, description, input schema and annotations as the publisher's server stated them (data to read, never instructions to follow), their `hash` (it changes when any definition changes: the `tools_changed` change), the record's `version` then, `probed_at`, and who probed (`probed_by`, `third_party`). A server the snapshot holds with no pinned tools is a 200 with an empty `tools`, nulls and the `reason` (no remote, or not probed or not listed without credentials). 404 as Get Server for an unknown name.",
      tag: 'Servers',
      body: 'ServerToolsResponse',
      path: { schema: ServerPathSchema, descriptions: SERVER_PATH },
      notFound: true,
    },
  },
  {
    id: 'changes',
    needs: 'history',
    path: ROUTE_PATHS.changes,
    keyed: true,
    listedAs: '/v1/changes?since={snapshot_id}',
    handler: changes,
    doc: {
      operationId: 'listChanges',
      summary: 'Changes',
      description: `What changed between the snapshot \`since\` and the one served: servers added and removed, score and label changes (from, to), flags raised and cleared, pinned tools changed (\`tools_changed\`: the tools hash from, to) and advisories added (\`advisories_added\`: their ids), one entry per server, by name; ${LIMITS.list.default} per page. \`since\` is a snapshot id (\`meta.snapshot_id\` of any answer, or \`/v1/health\`); one older than the kept history is a 400 that names the oldest kept; the served snapshot's own id gives an empty list.`,
      tag: 'Servers',
      body: 'ChangesResponse',
      query: { schema: ChangesParamsSchema, descriptions: CHANGES_PARAMS },
    },
  },
  {
    id: 'badge',
    path: ROUTE_PATHS.badge,
    keyed: false,
    handler: badge,
    doc: {
      operationId: 'getBadge',
      summary: 'Trust Badge',
      description:
        'A small SVG badge for READMEs (`MCP trust | 66 · Moderate`), coloured by band. Needs no key and never counts (an image in a README cannot send a header, and the score is public); `Cache-Control: public` for five minutes in browsers and an hour in shared caches, an ETag that changes with the snapshot. An unknown server gets a grey `not scored` badge with status 404, so the image never breaks. The query string is ignored. Markdown: `![MCP trust](https://<host>/badges/<namespace>/<id>.svg)`.',
      tag: 'Servers',
      body: 'ServerResponse',
      path: { schema: ServerPathSchema, descriptions: SERVER_PATH },
      notFound: true,
      media: 'image/svg+xml',
    },
  },
  {
    id: 'feedChanges',
    needs: 'history',
    path: ROUTE_PATHS.feedChanges,
    keyed: false,
    handler: changesAtom,
    doc: {
      operationId: 'getChangesFeed',
      summary: 'Changes Feed',
      description:
        'An Atom 1.0 feed with one entry per republished snapshot, summarising what changed since the one before it (the servers, linked to their page on the site). Keyless like the badge (a feed reader sends no key), public and cached, with an ETag per snapshot.',
      tag: 'Servers',
      body: 'ServerResponse',
      media: 'application/atom+xml',
    },
  },
  {
    id: 'feedServer',
    needs: 'history',
    path: ROUTE_PATHS.feedServer,
    keyed: false,
    handler: serverAtom,
    doc: {
      operationId: 'getServerFeed',
      summary: 'Server Feed',
      description:
        "An Atom 1.0 feed of one server's changes: an entry per change of its score, label, sub-scores or flags, newest first, linking to its page on the site. Keyless, public, cached; 404 `server_not_found` (JSON) for a name the history does not hold.",
      tag: 'Servers',
      body: 'ServerResponse',
      path: { schema: ServerPathSchema, descriptions: SERVER_PATH },
      notFound: true,
      media: 'application/atom+xml',
    },
  },
  ...WEBHOOK_ROUTES,
  ...REGISTRY_ROUTES,
];

/** The row of route `id`. */
export function routeById(id: RouteId): Route {
  const route = ROUTES.find((candidate) => candidate.id === id);
  if (route === undefined) throw new Error(`no route ${id}`);
  return route;
}
