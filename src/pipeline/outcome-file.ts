/**
 * The GitHub step's outcomes kept on disk, not in memory, from the end of the step to the end of the night
 * (`line-file.ts`): the scores read one per server, and the catalog's and the asked packages' records one per
 * record, while the night holds a number per repository. The facts in an outcome (the participation statistics
 * two arrays of 52 numbers each) are most of what a night would otherwise hold per repository through the
 * scores. The file is removed when the night ends, whatever the end.
 */
import { join } from 'node:path';
import type { RepositoryOutcome } from './github.js';
import { LineFile } from './line-file.js';

/** The outcomes by `owner/repo`, lower-cased: a `Map` of them or the file. */
export interface OutcomeLookup {
  get(key: string): RepositoryOutcome | undefined;
}

export class OutcomeFile implements OutcomeLookup {
  readonly #index: Map<string, number>;
  readonly #lines: LineFile<RepositoryOutcome>;

  private constructor(index: Map<string, number>, lines: LineFile<RepositoryOutcome>) {
    this.#index = index;
    this.#lines = lines;
  }

  /**
   * `outcomes` written to `<dir>/night-outcomes.jsonl`, replacing what a night that was stopped left there;
   * `seen` is shown each outcome as it is written.
   */
  static write(
    dir: string,
    outcomes: ReadonlyMap<string, RepositoryOutcome>,
    seen: (outcome: RepositoryOutcome) => void,
  ): OutcomeFile {
    const index = new Map<string, number>();
    const values = (function* () {
      for (const [key, outcome] of outcomes) {
        index.set(key, index.size);
        seen(outcome);
        yield outcome;
      }
    })();
    const lines = LineFile.write(join(dir, 'night-outcomes.jsonl'), outcomes.size, values);
    return new OutcomeFile(index, lines);
  }

  get size(): number {
    return this.#index.size;
  }

  get(key: string): RepositoryOutcome | undefined {
    const at = this.#index.get(key);
    return at === undefined ? undefined : this.#lines.get(at);
  }

  /** Closes and removes the file. */
  remove(): void {
    this.#lines.remove();
  }
}
