/**
 * The last check before a snapshot counts as published: `/v1/health` at the deployed address answers, and
 * names the new snapshot. Asked a bounded number of times (a new deployment may take a moment to answer),
 * each answer validated with zod; anything else is one line naming what was found.
 */
import * as z from 'zod';
import { StepFailed } from './commands.js';

const HealthAnswerSchema = z.object({
  data: z.object({
    status: z.string(),
    snapshot: z.object({ id: z.string(), record_count: z.number() }),
    freshness: z.object({ scored_at: z.string().nullable(), status: z.string() }).optional(),
  }),
});
export type HealthAnswer = z.infer<typeof HealthAnswerSchema>['data'];

export interface HealthCheckOptions {
  /** Headers sent with each ask (a deployment-protection bypass, when the deployment is protected). */
  headers?: Record<string, string>;
  attempts?: number;
  /** Wait between attempts, and bound on each (milliseconds). */
  intervalMs?: number;
  timeoutMs?: number;
}

/** Ask `<base>/v1/health` until it names `snapshotId`; StepFailed (step `step`) when it never does. */
export async function checkHealth(
  step: string,
  base: string,
  snapshotId: string,
  options: HealthCheckOptions = {},
): Promise<HealthAnswer> {
  const { attempts = 10, intervalMs = 3000, timeoutMs = 10_000 } = options;
  const url = new URL('/v1/health', base).toString();
  let found = 'no answer';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await fetch(url, { headers: options.headers ?? {}, signal: AbortSignal.timeout(timeoutMs) });
      const text = await response.text();
      if (response.status !== 200) found = `status ${response.status}`;
      else {
        const parsed = HealthAnswerSchema.safeParse(JSON.parse(text));
        if (!parsed.success) found = 'an answer that is not the health record';
        else if (parsed.data.data.snapshot.id === snapshotId) return parsed.data.data;
        else found = `snapshot ${parsed.data.data.snapshot.id}`;
      }
    } catch (error) {
      found = error instanceof SyntaxError ? 'an answer that is not JSON' : `no answer (${(error as Error).message})`;
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new StepFailed(step, `${url} does not serve snapshot ${snapshotId} after ${attempts} tries (last: ${found})`);
}
