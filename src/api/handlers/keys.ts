/**
 * Get Access (`POST /v1/keys`): a free-plan key for whoever asks, shown once in the answer and never again;
 * only its hash is stored. No key is needed to ask (that is the point); issuing is limited per client address
 * and day and can be turned off (`src/gateway/self-service.ts`).
 */
import type { IssueKeyRequest } from '../key-request.js';
import type { Answer, HandlerContext } from '../route.js';

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
  return { kind: 'live', status: 201, value: data };
}
