/**
 * Words as people type them (issue 43): `file system` for a server named `filesystem`, `filesystem` for one
 * named `file-system`, `textarttools` for `TextArtTools`. A query is also read with a run of neighbouring
 * words (two to JOINED_MAX) run together, or with one word cut in two, when the index holds the result as
 * written (the joined word; both halves); a record matching any reading matches, with its best relevance. Only
 * readings the index can answer are tried, so a query whose words join into nothing the index knows costs one
 * term lookup per run of neighbouring words.
 */
import { nameWords, writesNamespace } from './words.js';

/** The shortest half a word is cut into (`file` + `system`): `github` is not `git` + `hub`, nor `a` + `pple` a reading. */
const MIN_PART = 4;
/**
 * A word whose letters end in a number (`ros2`, `web3`): its seam, where a name split into words (`ros_2`,
 * `ROS-2`) has one, so it is cut there whatever MIN_PART says; a single letter (`s3`) is no word of its own.
 */
const NUMBERED_WORD = /^([a-z][a-z0-9]*[a-z])([0-9]+)$/;
/** At most this many readings besides the query's own: a query of many words stays a few searches. */
const MAX_READINGS = 4;
/** The longest run of neighbouring words read as one (`text art tools` → `textarttools`). */
const JOINED_MAX = 4;

/**
 * The other readings of `query`, as queries, that `known` (the searched indexes' terms) can answer: each
 * run of two to JOINED_MAX neighbouring words joined (pairs first), each word cut once where both parts are
 * terms (a word ending in a number at that seam, `ros2` as `ros 2`, else the first such cut).
 * None for a query that writes a namespace (a name is written as it is).
 */
export function compoundReadings(query: string, known: (word: string) => boolean): string[] {
  if (writesNamespace(query)) return [];
  const words = nameWords(query);
  const readings: string[] = [];
  for (let run = 2; run <= JOINED_MAX; run++) {
    for (let i = 0; i + run <= words.length && readings.length < MAX_READINGS; i++) {
      const joined = words.slice(i, i + run).join('');
      if (known(joined)) readings.push([...words.slice(0, i), joined, ...words.slice(i + run)].join(' '));
    }
  }
  for (let i = 0; i < words.length && readings.length < MAX_READINGS; i++) {
    const word = words[i]!;
    const numbered = NUMBERED_WORD.exec(word);
    if (numbered !== null && known(numbered[1]!) && known(numbered[2]!)) {
      readings.push([...words.slice(0, i), numbered[1]!, numbered[2]!, ...words.slice(i + 1)].join(' '));
      continue;
    }
    for (let cut = MIN_PART; cut <= word.length - MIN_PART; cut++) {
      const head = word.slice(0, cut);
      const tail = word.slice(cut);
      if (known(head) && known(tail)) {
        readings.push([...words.slice(0, i), head, tail, ...words.slice(i + 1)].join(' '));
        break;
      }
    }
  }
  return readings;
}
