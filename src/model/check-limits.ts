/**
 * How much one Policy Check may ask: items per call, names per list of a policy, bytes of a body. Apart from
 * the policy's schema (`policy.ts`) so the route table can document them without building that schema.
 */
export const CHECK_LIMITS = { maxItems: 100, maxNames: 500, maxBodyBytes: 64 * 1024 } as const;
