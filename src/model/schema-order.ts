/**
 * A value with its objects' keys in the order a zod schema's output gives them (the order of each object
 * schema's shape), nothing else changed: what the build does to a record whose schema check ran elsewhere
 * (`src/snapshot-build/schema-check.ts`), so the record written is the one validating here would have written.
 * A value that already has that order is returned as it is, with nothing allocated.
 */
import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
}

/**
 * How to order a value of one schema, worked out once per schema: an object's keys in shape order, each
 * with how to order its value (undefined: a value with no objects inside, returned as it is); an array's
 * items; optional and nullable unwrapped.
 */
type Plan = { kind: 'object'; keys: string[]; values: (Plan | undefined)[] } | { kind: 'array'; item: Plan };

const plans = new WeakMap<z.core.$ZodType, Plan | undefined>();

function planOf(schema: z.core.$ZodType): Plan | undefined {
  if (plans.has(schema)) return plans.get(schema);
  const def = schema._zod.def as Def;
  let plan: Plan | undefined;
  if (def.type === 'optional' || def.type === 'nullable') plan = planOf(def.innerType!);
  else if (def.type === 'array') {
    const item = planOf(def.element!);
    plan = item === undefined ? undefined : { kind: 'array', item };
  } else if (def.type === 'object') {
    const keys = Object.keys(def.shape!);
    plan = { kind: 'object', keys, values: keys.map((key) => planOf(def.shape![key]!)) };
  }
  plans.set(schema, plan);
  return plan;
}

export function inSchemaOrder(value: unknown, schema: z.core.$ZodType): unknown {
  const plan = planOf(schema);
  return plan === undefined ? value : ordered(value, plan);
}

function ordered(value: unknown, plan: Plan): unknown {
  if (isInOrder(value, plan)) return value;
  if (plan.kind === 'array') return Array.isArray(value) ? itemsInOrder(value, plan.item) : value;
  return Array.isArray(value) ? value : keysInOrder(value as Record<string, unknown>, plan);
}

/** True when `value` is in order already: checked without allocating (most input is, as the importer writes it). */
function isInOrder(value: unknown, plan: Plan): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (plan.kind === 'array') {
    if (!Array.isArray(value)) return true;
    for (const item of value) if (!isInOrder(item, plan.item)) return false;
    return true;
  }
  if (Array.isArray(value)) return true;
  // Walk the value's keys and the shape's together: each key must come later in the shape than the last.
  const keys = plan.keys;
  let at = 0;
  for (const key in value) {
    while (at < keys.length && keys[at] !== key) at++;
    if (at === keys.length) return false;
    const inner = plan.values[at];
    if (inner !== undefined && !isInOrder((value as Record<string, unknown>)[key], inner)) return false;
    at++;
  }
  return true;
}

function itemsInOrder(items: unknown[], plan: Plan): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = ordered(items[i], plan);
    if (item !== items[i]) (out ??= items.slice())[i] = item;
  }
  return out ?? items;
}

function keysInOrder(value: Record<string, unknown>, plan: Plan & { kind: 'object' }): Record<string, unknown> {
  const keys = Object.keys(value);
  let out: Record<string, unknown> | undefined;
  let at = 0;
  for (let k = 0; k < plan.keys.length; k++) {
    const key = plan.keys[k]!;
    if (!Object.hasOwn(value, key)) continue;
    const inner = plan.values[k];
    const item = inner === undefined ? value[key] : ordered(value[key], inner);
    if (out === undefined && (item !== value[key] || keys[at] !== key)) {
      // The keys before this one were the shape's, in its order: copied as they are.
      out = {};
      for (let j = 0; j < at; j++) out[keys[j]!] = value[keys[j]!];
    }
    if (out !== undefined) out[key] = item;
    at++;
  }
  // Keys the shape does not name: the schema refuses the value, so its order does not matter.
  return at === keys.length ? (out ?? value) : value;
}
