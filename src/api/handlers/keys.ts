/**
 * Get Access (`POST /v1/keys`): a free-plan key for whoever asks, shown once in the answer and never again;
 * only its hash is stored. No key is needed to ask (that is the point); issuing is limited per client address
 * and day and can be turned off (`src/gateway/self-service.ts`).
 */
import { z } from 'zod';
import type { Answer, HandlerContext } from '../route.js';

export const IssueKeyRequestSchema = z.strictObject({
  label: z
    .string({ error: 'label must be a string' })
    .trim()
    .max(100, { error: 'label must be at most 100 characters' })
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    .regex(/^[^\x00-\x1f\x7f]*$/, { error: 'label must not contain control characters' })
    .optional(),
});
export type IssueKeyRequest = z.infer<typeof IssueKeyRequestSchema>;

export const IssuedKeySchema = z.strictObject({
  key: z.string().min(1),
  plan: z.string(),
  daily_limit: z.number().int().min(1),
  label: z.string(),
  created_at: z.string(),
});

export async function issueKey({ body, issueKey: issue }: HandlerContext): Promise<Answer> {
  const request = (body ?? {}) as IssueKeyRequest;
  const issued = await issue(request.label ?? '');
  const data = {
    key: issued.key,
    plan: issued.plan,
    daily_limit: issued.dailyLimit,
    label: issued.label,
    created_at: issued.createdAt,
  };
  return { kind: 'live', status: 201, data: JSON.stringify(data) };
}
