/**
 * The one interface through which the method reads evidence (house style 28). Each source of facts (the
 * registry entry, the repository, the package registries, a live probe, the advisory databases) is a module
 * that turns what it holds about one server into a `SourceReading`: its dated, attributed state, the signals it
 * measured (or why not), and the findings (flags) it raised. The method reads readings, never a source's
 * client or file, and scores signals by the rules of `SignalRule` tables: a new source adds a module and its
 * rules, and touches no arithmetic.
 */
import type { EvidenceSourceName, SignalReading, SourceState } from '../model/evidence.js';
import type { ServerRecord } from '../model/schema.js';
import type { SubScoreName } from './method.js';

/** What a source is asked about: one server of the dataset, as the import or the rescoring wrote it. */
export interface EvidenceSubject {
  record: ServerRecord;
}

/** A flag a source raised for a server, and the sentence that says why (an advisory id, a probe's answer). */
export interface Finding {
  flag: string;
  detail: string;
}

/** What one source measured of one server. */
export interface SourceReading {
  source: EvidenceSourceName;
  state: SourceState;
  /** Each signal this source is responsible for: a value, or null with the reason it is missing. */
  signals: Record<string, SignalReading>;
  findings: Finding[];
  /** The source's own detail, kept in the record's evidence under the source's member (advisories, packages, probe). */
  detail?: unknown;
}

/** A source of evidence. `read` is pure: everything it needs was loaded when the source was made. */
export interface EvidenceSource {
  readonly name: EvidenceSourceName;
  read(subject: EvidenceSubject): SourceReading;
}

/**
 * How the method scores one signal: the sub-score it counts in, the most it can earn, and how a measured value
 * earns points (0 to `max`). A signal that was not measured earns nothing and its `max` leaves the sub-score's
 * denominator: missing evidence lowers the confidence, never the score.
 */
export interface SignalRule {
  signal: string;
  source: EvidenceSourceName;
  subscore: SubScoreName;
  max: number;
  points(value: boolean | number | string): number;
  /** The sentence an explanation gives for the points, from the measured value. */
  explain(value: boolean | number | string): string;
  /**
   * The value is the publisher's own statement, which nobody verified (what a registry entry says about
   * itself: its repository URL, transports, secrets, description). It is scored like any other signal, but
   * counts toward the confidence only when the server has verified evidence that vouches for it (below).
   */
  declared?: true;
  /**
   * Whether a measured value of this (not declared) signal vouches for the server's declared ones: by
   * default every measured verified fact does (a repository read, a package registry's answer, a probe); a
   * rule says otherwise where a value proves little about who publishes (a free GitHub login).
   */
  vouches?(value: boolean | number | string): boolean;
}
