import { StoreUnavailableError } from './types.js';

/** How long a remote store call may take before the gateway gives up on it (the "about one second"). */
export const DEFAULT_STORE_TIMEOUT_MS = 1000;

/**
 * Run one call to a remote store under the failure policy: it settles within `timeoutMs`, and every way it
 * can fail (no answer in time, connection refused, client offline, an error reply) becomes a
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
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StoreUnavailableError(`${what}: the store did not answer within ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    // Promise.race subscribes to the operation, so a late rejection after the deadline is still handled.
    return await Promise.race([operation(controller.signal), deadline]);
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`${what}: ${reason}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
