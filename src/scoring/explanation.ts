/**
 * The shape of a score's explanation, whichever method made the score: what `GET .../explain` answers and the
 * MCP tool quotes (`explain.ts` for the upstream method, `explain-mts2.ts` for mts-2).
 */
import type { SubScoreName } from './method.js';

export interface SignalContribution {
  /** A signal of the upstream method's `signals`, or of the record's `evidence` (mts-2). */
  signal: string;
  value: boolean | number | string | null;
  points: number;
  max: number;
  note: string;
  /** mts-2 only: whether the signal was measured, and why not when it was not. */
  measured?: boolean;
  missing?: string | null;
}

export interface SubScoreExplanation {
  name: SubScoreName;
  weight: number;
  computed: number;
  stored: number;
  reproduced: boolean;
  /** mts-2 only: whether any signal of this sub-score was measured (an unmeasured one is served as 0). */
  measured?: boolean;
  contributions: SignalContribution[];
}

export interface Explanation {
  name: string;
  method: string;
  reproduced: boolean;
  /** mts-2 only: the share of the method's weight that was measured, 0 to 100. */
  confidence?: number;
  trust_score: { computed: number; stored: number };
  subscores: SubScoreExplanation[];
  summary: string;
}
