/**
 * What Get Access (`POST /v1/keys`) is asked: the request body's schema, apart from `envelope.ts` so the route
 * table (loaded at every start) does not construct every response schema of the API to validate one body.
 * `envelope.ts` re-exports it, so the OpenAPI document and the clients see it where they see the rest.
 */
import * as z from 'zod';
import { LABEL_CONTROLS_PATTERN, LABEL_FORBIDDEN } from '../keys/label.js';

export const IssueKeyRequestSchema = z.strictObject({
  label: z
    .string({ error: 'label must be a string' })
    .trim()
    .max(100, { error: 'label must be at most 100 characters' })
    .regex(LABEL_CONTROLS_PATTERN, {
      error: 'label must not contain control characters or bidirectional formatting characters',
    })
    .refine((label) => !LABEL_FORBIDDEN.test(label), {
      error: 'label must not contain control characters or bidirectional formatting characters',
    })
    .optional(),
});
export type IssueKeyRequest = z.infer<typeof IssueKeyRequestSchema>;
