import { StoreUnavailableError } from './types.js';

/** How long a remote store call may take before the gateway gives up on it (the "about one second"). */
export const DEFAULT_STORE_TIMEOUT_MS = 1000;

/**
 * The one bound on a store call: settles with the call's result, or rejects with `StoreUnavailableError`
 * once `timeoutMs` has passed, whatever the call does (`onTimeout` runs then, to stop the call's own work).
 * A bare timer, no AbortController: the gateway runs this twice a request.
 */
export function bounded<T>(
  operation: () => Promise<T>,
  timeoutMs: number,
  what = '',
  onTimeout?: (error: StoreUnavailableError) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new StoreUnavailableError(`${what}the store did not answer within ${timeoutMs} ms`);
      onTimeout?.(error);
      reject(error);
    }, timeoutMs);
    const settle = (value: T) => {
      clearTimeout(timer);
      resolve(value);
    };
    const fail = (error: unknown) => {
      clearTimeout(timer);
      reject(error);
    };
    try {
      // A late settlement after the timer fired is ignored by the settled promise, and still handled.
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
 * failed does not count later. A command already sent cannot be taken back: if Redis applies it after the
 * deadline, the count is one too high, never too low. Each backend also bounds the work itself (node-redis
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
