/**
 * The one plan table (decisions, section 5): `free` at 100 requests a day, issuable; `pro` at 10,000 a day,
 * announced but not yet issuable. `FREE_DAILY_LIMIT` overrides the free plan's limit (load tests, private
 * deployments); nothing else changes a limit.
 */
import type { PlanName } from './record.js';

export interface Plan {
  name: PlanName;
  /** Requests a day per key; counters reset at midnight UTC. */
  dailyLimit: number;
  /** Whether `npm run keys -- create --plan <name>` may issue a key for it. */
  issuable: boolean;
}

export type PlanTable = Readonly<Record<PlanName, Readonly<Plan>>>;

export const PLANS: PlanTable = {
  free: { name: 'free', dailyLimit: 100, issuable: true },
  pro: { name: 'pro', dailyLimit: 10_000, issuable: false },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** The plan table with the free plan's limit set to `freeDailyLimit` (from `FREE_DAILY_LIMIT`). */
export function planTable(freeDailyLimit: number = PLANS.free.dailyLimit): PlanTable {
  return { ...PLANS, free: { ...PLANS.free, dailyLimit: freeDailyLimit } };
}

/** Whether `name` is a plan of the table (for input from the command line). */
export function isPlanName(name: string): name is PlanName {
  return Object.hasOwn(PLANS, name);
}
