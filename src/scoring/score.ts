/**
 * One server scored by the method: signals, the four sub-scores, the weighted trust score, its label and the
 * flags, in the shape of a server of the scorecard's index, so the importer's join turns it into a record.
 */
import { labelForScore, type Signals, type TrustLabel } from '../model/schema.js';
import type { GitHubFacts, ServerFacts } from './facts.js';
import { flagsFor, type FlagContext } from './flags.js';
import type { FlagName } from './method.js';
import { signalsFor } from './signals.js';
import { scoreSignals, type SubScores } from './subscores.js';

export interface ScoredServer {
  trust_score: number;
  trust_label: TrustLabel;
  scores: SubScores;
  signals: Signals;
  flags: FlagName[];
}

export function scoreServer(
  facts: ServerFacts,
  github: GitHubFacts | null,
  context: FlagContext,
  asOf: string,
): ScoredServer {
  const { signals, exactRecency } = signalsFor(facts, github, asOf);
  const { scores, trust_score } = scoreSignals(signals, exactRecency);
  return {
    trust_score,
    trust_label: labelForScore(trust_score),
    scores,
    signals,
    flags: flagsFor(facts, github, context),
  };
}
