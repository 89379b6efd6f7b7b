import { StoreUnavailableError } from './types.js';

/** How long a remote store call may take before the gateway gives up on it (the "about one second"). */
export const DEFAULT_STORE_TIMEOUT_MS = 1000;

/** A call `bounded` is waiting for: when it must have settled, and how to fail it (cleared once settled). */
interface Pending {
  deadline: number;
  fail: ((error: StoreUnavailableError) => void) | undefined;
}

/**
 * The calls under one bound, in the order they started, which is the order of their deadlines (they share
 * `timeoutMs`): one timer, set for the oldest call still pending, serves them all. A timer a call cost a
 * tenth of a cached Get Server's time in the gateway (making, inserting and clearing it); this costs a
 * push, and a call settled in turn (every call of the memory store) leaves the queue at once.
 */
class DeadlineQueue {
  private readonly calls: Pending[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  add(fail: (error: StoreUnavailableError) => void): Pending {
    const call: Pending = { deadline: performance.now() + this.timeoutMs, fail };
    // The timer keeps the process alive while a call is pending, as a timer of its own would, and not after.
    if (this.timer === undefined) this.timer = setTimeout(() => this.expire(), this.timeoutMs);
    else if (this.calls.length === this.head) this.timer.ref();
    this.calls.push(call);
    return call;
  }

  /** `call` settled: it is no longer failed at its deadline, and the settled calls at the front leave. */
  settled(call: Pending): void {
    call.fail = undefined;
    const calls = this.calls;
    while (this.head < calls.length && calls[this.head]!.fail === undefined) this.head++;
    if (this.head === calls.length) {
      calls.length = 0;
      this.head = 0;
      this.timer?.unref();
    } else if (this.head >= 1024 && this.head * 2 >= calls.length) {
      calls.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Fail every pending call whose deadline has passed; set the timer for the oldest one left. */
  private expire(): void {
    this.timer = undefined;
    const now = performance.now();
    const calls = this.calls;
    while (this.head < calls.length) {
      const call = calls[this.head]!;
      if (call.fail !== undefined && call.deadline > now) break;
      this.head++;
      call.fail?.(new StoreUnavailableError(`the store did not answer within ${this.timeoutMs} ms`));
      call.fail = undefined;
    }
    calls.splice(0, this.head);
    this.head = 0;
    const oldest = calls[0];
    if (oldest !== undefined) this.timer = setTimeout(() => this.expire(), Math.max(1, oldest.deadline - now));
  }
}

const queues = new Map<number, DeadlineQueue>();

/**
 * The one bound on a store call: settles with the call's result, or rejects with `StoreUnavailableError`
 * once `timeoutMs` has passed, whatever the call does (`onTimeout` runs then, to stop the call's own work).
 * Calls with the same bound share one timer (`DeadlineQueue`); the gateway runs this twice a request.
 */
export function bounded<T>(
  operation: () => Promise<T>,
  timeoutMs: number,
  what = '',
  onTimeout?: (error: StoreUnavailableError) => void,
): Promise<T> {
  let queue = queues.get(timeoutMs);
  if (queue === undefined) queues.set(timeoutMs, (queue = new DeadlineQueue(timeoutMs)));
  const calls = queue;
  return new Promise<T>((resolve, reject) => {
    const call = calls.add((timedOut) => {
      const error = what === '' ? timedOut : new StoreUnavailableError(`${what}${timedOut.message}`);
      onTimeout?.(error);
      reject(error);
    });
    // A late settlement after the deadline is ignored by the settled promise, and still handled.
    const settle = (value: T) => {
      calls.settled(call);
      resolve(value);
    };
    const fail = (error: unknown) => {
      calls.settled(call);
      reject(error);
    };
    try {
      operation().then(settle, fail);
    } catch (error) {
      fail(error);
    }
  });
}

/**
 * Run one call to a remote store under the failure policy: it settles within `timeoutMs` (`bounded`), and
 * every way it can fail (no answer in time, connection refused, client offline, an error reply) becomes a
 * `StoreUnavailableError` naming `what`, so the gateway has exactly one thing to turn into a 502.
 *
 * The deadline stops the caller from waiting and aborts `signal`: an operation checks it before each step
 * it has not started yet (sending a command once a late connection comes up), so a call the caller was told
 * failed does not count later. A command already sent cannot be taken back (a Redis that hung runs every
 * command sent meanwhile when it wakes), so the counting scripts carry their own deadline on Redis's clock
 * and count nothing past it (`store-clock.ts`). Each backend also bounds the work itself (node-redis
 * command timeout, an aborted fetch for Upstash) so nothing keeps running or queueing behind it.
 */
export async function withinDeadline<T>(
  what: string,
  timeoutMs: number,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  try {
    return await bounded(
      () => operation(controller.signal),
      timeoutMs,
      `${what}: `,
      (error) => controller.abort(error),
    );
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`${what}: ${reason}`, { cause: error });
  }
}
