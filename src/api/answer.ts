/**
 * The answer path: from a route's handler to the `data` and `meta` of its answer, the one way both the
 * gateway (`src/gateway/gateway.ts`, which serialises them into the envelope, and may keep them in its
 * response cache between the handler and the computing) and the offline client (`src/client/embedded.ts`,
 * which reads them as values) get an answer. Neither re-derives the other's: the client never parses the
 * gateway's text back, and the gateway's text is made from the same typed answer the client reads.
 */
import type { z } from 'zod';
import type { CheckAnswer } from '../model/check.js';
import type { ServerRecord, Stats } from '../model/schema.js';
import type { QueryEngine } from '../query/types.js';
import type { ServerToolsDataSchema } from './envelope.js';
import type { Answer, AnswerData, AnswerMeta, Computed, HandlerContext, RecordIds, Route } from './route.js';
import { routeById } from './routes.js';

/** The handler's answer to `context`, once the part of the snapshot the route reads is loaded. */
export async function answerRoute(route: Route, context: HandlerContext): Promise<Answer> {
  // Loaded by now unless the instance has just started (or the offline client asks at once).
  if (route.needs !== undefined) await context.engine.ready(route.needs);
  return route.handler(context);
}

/** A cached answer's data and meta; its error (Get Server's 404) when there is nothing to answer. */
export function computeAnswer(answer: Extract<Answer, { kind: 'cached' }>): Computed {
  const computed = answer.compute();
  if (computed === undefined) {
    throw answer.missing?.() ?? new Error(`the handler of ${answer.key.split('\n')[0]} computed no answer`);
  }
  return computed;
}

/** The order of `meta`'s members in the envelope, whatever order a handler wrote them in. */
const META_ORDER = ['total', 'limit', 'offset', 'since'] as const satisfies readonly (keyof AnswerMeta)[];
// A member added to AnswerMeta but not to the order above fails to compile here, rather than going unsent.
const _everyMetaMember: Record<Exclude<keyof AnswerMeta, (typeof META_ORDER)[number]>, never> = {};

/** `meta`'s members as the JSON text that follows `"cached":…` in the envelope (`,"total":3,"limit":20`). */
export function metaText(meta: AnswerMeta): string {
  let text = '';
  for (const name of META_ORDER) {
    const value = meta[name];
    if (value !== undefined) text += `,"${name}":${JSON.stringify(value)}`;
  }
  return text;
}

/** `data` as the gateway writes it: the records (their stored bytes go out as they are), or JSON text. */
export function dataText(data: AnswerData): RecordIds | string {
  if (data.kind === 'records') return data.ids;
  return data.kind === 'json' ? data.text : JSON.stringify(data.value);
}

/**
 * `data` as a value: a value the handler made as it is; records, and the JSON text the engine keeps, read
 * from the snapshot's stored JSON (the one form they have).
 */
export function dataValue(engine: QueryEngine, data: AnswerData): unknown {
  if (data.kind === 'value') return data.value;
  if (data.kind === 'json') return JSON.parse(data.text) as unknown;
  return JSON.parse(typeof data.ids === 'number' ? engine.recordJson(data.ids) : engine.pageJson(data.ids)) as unknown;
}

/** What the routes the offline client asks answer under `data` (the bodies of `src/api/envelope.ts`). */
export interface RouteValues {
  get: ServerRecord;
  tools: z.infer<typeof ServerToolsDataSchema>;
  list: ServerRecord[];
  search: ServerRecord[];
  lookup: ServerRecord[];
  stats: Stats;
  check: CheckAnswer;
}

/**
 * The answer of route `id` to `context` as values, for a caller that keeps nothing between requests (the
 * offline client): what the gateway writes under `data`, and the `meta` members the route adds (`cached` and
 * the snapshot's are the gateway's). Errors are thrown as the gateway catches them (`ApiError`).
 */
export async function answerValues<Id extends keyof RouteValues>(
  id: Id,
  context: HandlerContext,
): Promise<{ data: RouteValues[Id]; meta: AnswerMeta }> {
  const answer = await answerRoute(routeById(id), context);
  if (answer.kind === 'live') return { data: answer.value as RouteValues[Id], meta: {} };
  if (answer.kind !== 'cached') throw new Error(`a ${answer.kind} answer has no data and meta to read`);
  const { data, meta } = computeAnswer(answer);
  return { data: dataValue(context.engine, data) as RouteValues[Id], meta };
}
