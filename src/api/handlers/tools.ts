/**
 * Get Server Tools (`GET /v1/servers/{namespace}/{id}/tools`): the tools pinned for the server (the snapshot's
 * tools file, `src/format/tools-artifact.ts`), keyed and counted as Get Server. A server the snapshot holds but
 * has no pinned tools for is a 200 with none and the reason (a user asks "what does it expose?", and "not
 * known, because" is the answer); a name the snapshot does not hold is Get Server's 404.
 */
import type { z } from 'zod';
import type { ServerRecord } from '../../model/schema.js';
import type { ServerToolsDataSchema } from '../envelope.js';
import type { Answer, HandlerContext } from '../route.js';
import { serverNotFound, serverPath } from './servers.js';

type ServerToolsData = z.infer<typeof ServerToolsDataSchema>;

/** Why a scored server has no pinned tools: only a remote can be probed, and only one that lists without credentials. */
export function noToolsReason(record: Pick<ServerRecord, 'remotes'>): string {
  return (record.remotes ?? []).length === 0
    ? 'The server declares no remote endpoint, so there was nothing to probe: its tools are known only to whoever runs it.'
    : 'No tools are pinned for this server: its remote was not probed for this snapshot, or did not list its tools without credentials.';
}

export function serverTools({ engine, query, pathParams }: HandlerContext): Answer {
  const { name, id } = serverPath(query, pathParams);
  return {
    kind: 'cached',
    key: `tools\n${name.toLowerCase()}`,
    compute: () => {
      const recordId = engine.getId(name);
      if (recordId === undefined) return undefined;
      const record = JSON.parse(engine.recordJson(recordId)) as ServerRecord;
      const index = engine.tools();
      const pinned = index.get(record.name);
      const data: ServerToolsData =
        pinned === undefined
          ? {
              name: record.name,
              tool_count: 0,
              tools: [],
              hash: null,
              version: null,
              probed_at: null,
              probed_by: null,
              third_party: null,
              truncated: false,
              reason: noToolsReason(record),
            }
          : {
              name: record.name,
              tool_count: pinned.tools.length,
              tools: pinned.tools,
              hash: pinned.hash,
              version: pinned.version,
              probed_at: pinned.probed_at,
              probed_by: index.by,
              third_party: index.third_party,
              truncated: pinned.truncated,
              reason: null,
            };
      return { data: { kind: 'value', value: data }, meta: {} };
    },
    missing: serverNotFound(name, id),
  };
}
