/**
 * The engine's answers as objects, for tests: the engine itself answers only JSON text (what the gateway
 * serves), so a test parses that text rather than the engine keeping a second, object-returning API.
 */
import type { ListParams, ServerRecord, Stats } from '../../src/model/schema.js';
import type { EngineOptions } from '../../src/query/engine.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';

export interface ObjectPage {
  items: ServerRecord[];
  total: number;
}

export interface ObjectEngine {
  stats(): Stats;
  get(name: string): ServerRecord | undefined;
  list(params: ListParams): ObjectPage;
  search(q: string, limit: number): ObjectPage;
}

export function withObjects(engine: QueryEngine): QueryEngine & ObjectEngine {
  const page = ({ json, total }: { json: string; total: number }): ObjectPage => ({
    items: JSON.parse(json) as ServerRecord[],
    total,
  });
  return Object.assign(Object.create(engine) as QueryEngine, {
    stats: () => JSON.parse(engine.statsJson()) as Stats,
    get: (name: string) => {
      const json = engine.getJson(name);
      return json === undefined ? undefined : (JSON.parse(json) as ServerRecord);
    },
    list: (params: ListParams) => page(engine.listJson(params)),
    search: (q: string, limit: number) => page(engine.searchJson(q, limit)),
  });
}

/** Load the snapshot in `dir` as the server does, answering objects too. */
export async function loadObjectEngine(dir: string, options: EngineOptions = {}): Promise<QueryEngine & ObjectEngine> {
  return withObjects(await loadSnapshot(dir, {}, options));
}
