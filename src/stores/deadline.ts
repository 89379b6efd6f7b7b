import { StoreUnavailableError } from './types.js';

/** How long a remote store call may take before the gateway gives up on it (the "about one second"). */
export const DEFAULT_STORE_TIMEOUT_MS = 1000;

/**
 * Run one call to a remote store under the failure policy: it settles within `timeoutMs`, and every way it
 * can fail (no answer in time, connection refused, client offline, an error reply) becomes a
 * `StoreUnavailableError` naming `what`, so the gateway has exactly one thing to turn into a 502.
 *
 * The deadline only stops the caller from waiting; each backend also bounds the work itself (node-redis
 * command timeout, an aborted fetch for Upstash) so nothing keeps running or queueing behind it.
 */
export async function withinDeadline<T>(what: string, timeoutMs: number, operation: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`${what}: the store did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    // Promise.race subscribes to `operation()`, so a late rejection after the deadline is still handled.
    return await Promise.race([operation(), deadline]);
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`${what}: ${reason}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
