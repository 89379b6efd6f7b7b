/**
 * The scoring methods a record may name in `evidence.method`. The upstream method of MCP Scorecard at the
 * commit that wrote the committed dataset keeps its own id (its figures: `method.ts`); `mts-2` is this
 * project's method (`mts2.ts`), which the build serves by default.
 */
export const UPSTREAM_METHOD = 'msc-7bc729d';
export const MTS2_METHOD = 'mts-2';
export const METHOD_IDS = [MTS2_METHOD, UPSTREAM_METHOD] as const;
export type MethodId = (typeof METHOD_IDS)[number];

export function isMethodId(text: string): text is MethodId {
  return (METHOD_IDS as readonly string[]).includes(text);
}
