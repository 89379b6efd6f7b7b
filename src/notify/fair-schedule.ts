/**
 * Fair scheduling of a run's due attempts (the dispatcher's, `dispatcher.ts`): `concurrency` slots shared among
 * the subscriptions with due events, read from the queue a page at a time while slots are free. Why each rule:
 * - each subscription holds at most its share of the slots at once (the slots divided by the subscriptions
 *   with work, at least one), taken in turn, so one subscription's many events cannot hold every slot;
 * - an attempt still unanswered after `slowAfterMs` gives its slot back and finishes outside the slots (at most
 *   `concurrency * 4` at once), and its subscription starts no other attempt until it ends, so hanging
 *   receivers hold no slot for long and never more than one connection each;
 * - once a subscription's attempt has failed, its other due events are moved to that attempt's retry time
 *   instead of being tried, each, against the same failing receiver.
 */
import type { NotifyStore } from '../stores/types.js';
import { DUE_QUEUE } from './delivery.js';

/** Attempts finishing outside the slots at once, per slot. */
const OVERTIME_PER_SLOT = 4;

/** What one attempt came to: `retryAt` when it failed and waits for a retry (its event moved there). */
export type AttemptOutcome = { retryAt?: number };

export interface FairScheduleOptions {
  store: NotifyStore;
  now: () => number;
  concurrency: number;
  slowAfterMs: number;
  /** Due members read from the queue at once (besides those already known). */
  pageSize: number;
  /** Attempts one due member (`<subscription id> <event id>`) and records what happened. */
  attempt: (member: string) => Promise<AttemptOutcome>;
  /** True once no attempt may start (the lease was lost, or a stop was asked). */
  stopped: () => boolean;
}

/**
 * Every due attempt of the run, read from the queue a page at a time while slots are free: subscriptions in
 * turn, each with at most its share of the slots in flight (the slots divided by the subscriptions with work,
 * at least one); an attempt slower than `slowAfterMs` gives its slot back (up to the overtime bound); after a
 * subscription's failed attempt, its other due events are moved to that attempt's retry time.
 */
export async function deliverDueFairly(options: FairScheduleOptions): Promise<void> {
  const { store, now, concurrency, slowAfterMs, attempt } = options;
  const pending = new Map<string, string[]>();
  const known = new Set<string>();
  const inFlight = new Map<string, number>();
  /** Subscriptions with an attempt past `slowAfterMs`: no other attempt starts for them until it ends. */
  const slowNow = new Map<string, number>();
  const held = new Map<string, number>();
  const turn: string[] = [];
  let slotsTaken = 0;
  let overtime = 0;
  let running = 0;
  let failure: unknown;
  let noMore = false;
  // Whether an attempt ended or gave its slot back since the loop last looked (set before it waits).
  let changed: boolean;
  let wake: (() => void) | undefined;
  const notify = () => {
    changed = true;
    wake?.();
  };
  const subscriptionOfMember = (member: string) => member.split(' ')[0] ?? '';
  const withWork = () => [...pending.keys()].filter((id) => pending.get(id)!.length > 0 || (inFlight.get(id) ?? 0) > 0);
  const next = (): string | undefined => {
    const share = Math.max(1, Math.floor(concurrency / Math.max(1, withWork().length)));
    for (let looked = 0; looked < turn.length; looked++) {
      const id = turn.shift()!;
      turn.push(id);
      const members = pending.get(id)!;
      if (members.length === 0 || held.has(id) || (slowNow.get(id) ?? 0) > 0) continue;
      if ((inFlight.get(id) ?? 0) < share) return members.shift();
    }
    return undefined;
  };
  const moveToRetry = async (member: string, until: number) => {
    known.delete(member);
    await store.queueAdd(DUE_QUEUE, member, until);
  };
  /** Reads due members not known yet; false when the queue holds none. */
  const refill = async (): Promise<boolean> => {
    const limit = options.pageSize + known.size;
    const due = await store.queueDue(DUE_QUEUE, now(), limit);
    let added = false;
    for (const member of due) {
      if (known.has(member)) continue;
      const id = subscriptionOfMember(member);
      const until = held.get(id);
      if (until !== undefined) {
        await moveToRetry(member, until);
        continue;
      }
      known.add(member);
      let members = pending.get(id);
      if (members === undefined) {
        pending.set(id, (members = []));
        turn.push(id);
      }
      members.push(member);
      added = true;
    }
    return added || due.length === limit;
  };
  const start = (member: string) => {
    const id = subscriptionOfMember(member);
    slotsTaken++;
    running++;
    inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
    let holdsSlot = true;
    let overtimeHeld = false;
    const slow = setTimeout(() => {
      if (overtime >= concurrency * OVERTIME_PER_SLOT) return;
      overtime++;
      overtimeHeld = true;
      slowNow.set(id, (slowNow.get(id) ?? 0) + 1);
      holdsSlot = false;
      slotsTaken--;
      notify();
    }, slowAfterMs);
    attempt(member)
      .then(async (outcome) => {
        known.delete(member);
        if (outcome.retryAt === undefined || held.has(id)) return;
        held.set(id, outcome.retryAt);
        for (const other of pending.get(id)!.splice(0)) await moveToRetry(other, outcome.retryAt);
      })
      .catch((error: unknown) => (failure ??= error))
      .finally(() => {
        clearTimeout(slow);
        if (holdsSlot) slotsTaken--;
        if (overtimeHeld) {
          overtime--;
          slowNow.set(id, (slowNow.get(id) ?? 1) - 1);
        }
        running--;
        inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
        notify();
      });
  };
  for (;;) {
    changed = false;
    const stopped = failure !== undefined || options.stopped();
    let started = false;
    while (!stopped && slotsTaken < concurrency) {
      const member = next();
      if (member === undefined) break;
      start(member);
      started = true;
    }
    if (!stopped && !started && !noMore && slotsTaken < concurrency) {
      if (await refill()) continue;
      noMore = true;
    }
    if (running === 0 && (stopped || noMore)) break;
    if (!changed) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  if (failure !== undefined) throw failure;
}
