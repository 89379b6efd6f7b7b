/**
 * A word index's terms, in the code-unit order the build writes them (`word-index-writer.ts`), with what a
 * query word needs of them: the term itself and the terms it begins (binary searches of the sorted terms),
 * and the terms within a typo distance (a trie). A term's position here is its number in the artifact.
 *
 * The typo search walks a trie of the terms held in typed arrays (made from the sorted terms in one pass:
 * each term adds a node per code unit past the prefix it shares with the term before), filling a row of
 * the edit-distance table per node and leaving a branch as soon as its row is past the distance. It finds
 * what MiniSearch's radix tree of Maps finds (`fuzzyGet`, the test's oracle), in a fraction of the time: a
 * word seen for the first time was the costliest step of a search.
 */
import { nextSlice, type Slicer } from '../format/slicer.js';

/** The trie: node 0 is the root; a node is a code unit, its first child, its next sibling, its term (or -1). */
interface Trie {
  code: Uint16Array;
  firstChild: Int32Array;
  nextSibling: Int32Array;
  term: Int32Array;
}

export class SortedTerms {
  /** The edit-distance table, one row per depth of the walk; grown to the longest word asked. */
  private rows = new Uint16Array(0);

  private constructor(
    private readonly terms: readonly string[],
    private readonly trie: Trie,
  ) {}

  /**
   * The terms `at(i)` for i below `count`, checked to be in strictly ascending code-unit order (the binary
   * searches and the trie's making rely on it), and their trie, a slice at a time: at a million records
   * there are hundreds of thousands.
   */
  static async load(count: number, at: (i: number) => string, slicer: Slicer): Promise<SortedTerms> {
    const terms = new Array<string>(count);
    /** shared[i]: the code units term i shares with term i - 1 (a term is far shorter than 65,536). */
    const shared = new Uint16Array(count);
    let nodes = 1;
    for (let i = 0; i < count; i++) {
      const term = at(i);
      terms[i] = term;
      if (i > 0) {
        if (!(terms[i - 1]! < term)) throw new Error('a search index with terms out of order');
        shared[i] = sharedPrefix(terms[i - 1]!, term);
      }
      nodes += term.length - shared[i]!;
      if ((i & 1023) === 1023) await nextSlice(slicer);
    }
    const trie: Trie = {
      code: new Uint16Array(nodes),
      firstChild: new Int32Array(nodes).fill(-1),
      nextSibling: new Int32Array(nodes).fill(-1),
      term: new Int32Array(nodes).fill(-1),
    };
    /** path[d]: the node of the previous term's first d code units. */
    let path = new Int32Array(64);
    let made = 1;
    for (let i = 0; i < count; i++) {
      const term = terms[i]!;
      if (term.length + 1 > path.length) {
        const longer = new Int32Array(term.length * 2);
        longer.set(path);
        path = longer;
      }
      const previousLength = i === 0 ? 0 : terms[i - 1]!.length;
      const branch = shared[i]!;
      for (let depth = branch; depth < term.length; depth++) {
        const node = made++;
        trie.code[node] = term.charCodeAt(depth);
        // The branch point's children so far end with the previous term's next node (terms in order:
        // children come in ascending code units); past it, every node is new and a first child.
        if (depth === branch && previousLength > branch) trie.nextSibling[path[depth + 1]!] = node;
        else trie.firstChild[path[depth]!] = node;
        path[depth + 1] = node;
      }
      trie.term[path[term.length]!] = i;
      if ((i & 1023) === 1023) await nextSlice(slicer);
    }
    return new SortedTerms(terms, trie);
  }

  get length(): number {
    return this.terms.length;
  }

  /** The position of the first term not below `word`. */
  private lowerBound(word: string, from = 0): number {
    let low = from;
    let high = this.terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.terms[middle]! < word) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The number of `word`, or -1 when it is not a term. */
  find(word: string): number {
    const at = this.lowerBound(word);
    return this.terms[at] === word ? at : -1;
  }

  /** Calls `visit` with every term that begins with `word` (itself included), and its number. */
  withPrefix(word: string, visit: (term: string, at: number) => void): void {
    for (let at = this.lowerBound(word); at < this.terms.length && this.terms[at]!.startsWith(word); at++) {
      visit(this.terms[at]!, at);
    }
  }

  /**
   * Calls `visit` with every term within `maxDistance` edits (insertions, deletions, substitutions of code
   * units) of `word`, its number and its distance, in term order.
   */
  withinDistance(word: string, maxDistance: number, visit: (term: string, at: number, distance: number) => void): void {
    const n = word.length + 1;
    // A term longer than this is more than maxDistance insertions away.
    const maxDepth = word.length + maxDistance;
    const size = (maxDepth + 1) * n;
    if (this.rows.length < size) this.rows = new Uint16Array(size * 2);
    const rows = this.rows;
    // Only cells within maxDistance of the diagonal can lead to a match; the others stay past the distance.
    rows.fill(maxDistance + 1, 0, size);
    for (let j = 0; j < n; j++) rows[j] = j;
    for (let depth = 1; depth <= maxDepth; depth++) rows[depth * n] = depth;
    const units = new Uint16Array(n);
    for (let j = 1; j < n; j++) units[j] = word.charCodeAt(j - 1);
    const { code, firstChild, nextSibling, term } = this.trie;
    const terms = this.terms;

    /** Walk the children of `parent`, whose row (depth `depth`) is filled. */
    const walk = (parent: number, depth: number): void => {
      const previous = depth * n;
      const row = previous + n;
      const from = Math.max(1, depth + 1 - maxDistance);
      const to = Math.min(n - 1, depth + 1 + maxDistance);
      for (let node = firstChild[parent]!; node !== -1; node = nextSibling[node]!) {
        const unit = code[node]!;
        let least = rows[row]!;
        for (let j = from; j <= to; j++) {
          const substitute = rows[previous + j - 1]! + (unit === units[j] ? 0 : 1);
          const remove = rows[previous + j]! + 1;
          const insert = rows[row + j - 1]! + 1;
          const distance =
            substitute < remove ? (substitute < insert ? substitute : insert) : remove < insert ? remove : insert;
          rows[row + j] = distance;
          if (distance < least) least = distance;
        }
        // Past the distance in every column: no term under this node can come back within it.
        if (least > maxDistance) continue;
        const at = term[node]!;
        if (at !== -1 && rows[row + n - 1]! <= maxDistance) visit(terms[at]!, at, rows[row + n - 1]!);
        if (depth + 1 < maxDepth) walk(node, depth + 1);
      }
    };
    walk(0, 0);
  }
}

/** How many code units `a` and `b` share at their start. */
function sharedPrefix(a: string, b: string): number {
  const most = Math.min(a.length, b.length);
  let shared = 0;
  while (shared < most && a.charCodeAt(shared) === b.charCodeAt(shared)) shared++;
  return shared;
}
