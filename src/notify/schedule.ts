/**
 * The timer of a long-running server (`npm start`): a dispatcher run at start and then every interval, on the
 * snapshot being served. Runs never overlap (a slow run makes the next one wait for its turn); a failed run
 * is one line on stderr and the next run tries again. The timer does not keep the process alive. `stop`
 * is bounded: attempts under way get `graceMs`, then are interrupted (their events stay due for the next run).
 */
import type { QueryEngine } from '../query/types.js';
import type { Dispatcher } from './dispatcher.js';

/** What the attempts under way get at a stop before they are interrupted. */
export const STOP_GRACE_MS = 3000;

export interface Schedule {
  /** Starts no more runs, and ends the run in progress within about `graceMs` (default 3 s). */
  stop(graceMs?: number): Promise<void>;
}

export function scheduleDispatching(
  dispatcher: Dispatcher,
  engine: () => QueryEngine,
  intervalMs: number,
  warn: (line: string) => void = (line) => console.error(line),
): Schedule {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running !== undefined || stopped) return;
    running = dispatcher
      .run(engine())
      .then(
        () => undefined,
        (error: unknown) =>
          warn(
            `notify: the run failed and is tried again in ${intervalMs / 1000} s: ${error instanceof Error ? error.message : String(error)}`,
          ),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop(graceMs = STOP_GRACE_MS) {
      stopped = true;
      dispatcher.stop(graceMs);
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
