/**
 * The word artifacts: the name index (`search.bin`) and the description index (`descriptions.bin`), in one
 * layout: every term with its documents and their static BM25 scores, and (names only) the exact-id table,
 * all as typed arrays. A server then loads them with nothing to parse but the terms' text.
 *
 * Relevance: a term's score for a document is BM25 summed over the fields the term is in, each weighed by
 * its boost: the id (3) and the namespace (1) for names, the description (1) alone for descriptions. The
 * query side (`src/search/word-index.ts`) weighs and combines them per query word. The scores are the ones
 * MiniSearch 7 computes for the same fields (a field's length is its number of distinct words, its average
 * a running mean over the documents that have it), but that a name's length leaves out the words that say
 * what every record is (`WordField.lengthOfContent`); `test/search/word-index-writer.test.ts` compares them
 * with MiniSearch's own index and its frequencies, which the build no longer pays to make.
 */
import { U32Writer } from '../format/binary.js';
import { addKeyedPostings, addPostings, addStrings } from '../format/tables.js';
import { exactKey, FIELD_BOOST, nameWords, namespaceWords, OPTIONAL_WORDS, ownerKeys } from './words.js';
import { splitName } from '../model/schema.js';

const BM25 = { k1: 1.2, b: 0.7 };

/** One field of every document: its boost, and each document's words (undefined: the document lacks it). */
interface WordField {
  boost: number;
  words: (id: number) => readonly string[] | undefined;
  /**
   * Whether the field's length (BM25's length normalisation) leaves out `OPTIONAL_WORDS`, unless a document
   * has only those. A name's length counts the words that say what it is: `mcp`, `server` and the joining
   * words say what every record is, so `sqlite-mcp-server` is as much about sqlite as `mcp-sqlite` and the
   * higher trust score decides between them (decisions §4), while `terraform-ingest` says more than terraform.
   */
  lengthOfContent?: boolean;
}

/** One term's documents (record ids ascending) and their static scores. */
interface TermPostings {
  ids: Uint32Array;
  scores: Float32Array;
}

/** A growable array of 32-bit numbers (per-field postings before they are grouped by term). */
class U32List {
  values = new Uint32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/**
 * Every term of the fields and its postings, terms in code-unit order. Words become numbers once (one map
 * lookup per word); each field's (document, term, frequency) triples are then grouped by term with a
 * counting sort, which keeps documents ascending, with no array per term.
 */
function bm25Postings(
  documentCount: number,
  fields: readonly WordField[],
): { terms: string[]; postings: TermPostings[] } {
  const termIds = new Map<string, number>();
  const words: string[] = [];
  /** Whether each term is one of OPTIONAL_WORDS (`WordField.lengthOfContent`). */
  const optional: boolean[] = [];
  const perField = fields.map((field) => {
    const docs = new U32List();
    const termOf = new U32List();
    const frequencyOf = new U32List();
    const lengths = new Uint32Array(documentCount);
    let average = 0;
    let documents = 0;
    let scratch = new Uint32Array(64);
    for (let id = 0; id < documentCount; id++) {
      const text = field.words(id);
      if (text === undefined) continue;
      if (scratch.length < text.length) scratch = new Uint32Array(text.length * 2);
      for (let i = 0; i < text.length; i++) {
        let term = termIds.get(text[i]!);
        if (term === undefined) {
          term = words.length;
          termIds.set(text[i]!, term);
          words.push(text[i]!);
          optional.push(OPTIONAL_WORDS.has(text[i]!));
        }
        scratch[i] = term;
      }
      // The document's distinct terms and how often each occurs: runs of the sorted term numbers.
      const own = scratch.subarray(0, text.length).sort();
      let distinct = 0;
      let counted = 0;
      for (let i = 0; i < own.length;) {
        let end = i + 1;
        while (end < own.length && own[end] === own[i]) end++;
        docs.push(id);
        termOf.push(own[i]!);
        frequencyOf.push(end - i);
        distinct++;
        if (!field.lengthOfContent || !optional[own[i]!]) counted++;
        i = end;
      }
      const length = counted > 0 ? counted : distinct;
      lengths[id] = length;
      // The same running mean, in the same floating-point steps, as MiniSearch's.
      average = (average * documents + length) / (documents + 1);
      documents++;
    }
    return { boost: field.boost, docs, termOf, frequencyOf, lengths, average: average || 1 };
  });

  // Group each field's triples by term: starts[t] .. starts[t + 1] are term t's, documents ascending.
  const grouped = perField.map(({ boost, docs, termOf, frequencyOf, lengths, average }) => {
    const starts = new Uint32Array(words.length + 1);
    for (let i = 0; i < termOf.length; i++) starts[termOf.values[i]! + 1]!++;
    for (let t = 0; t < words.length; t++) starts[t + 1]! += starts[t]!;
    const next = starts.slice(0, words.length);
    const ids = new Uint32Array(docs.length);
    const frequencies = new Uint32Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const at = next[termOf.values[i]!]!++;
      ids[at] = docs.values[i]!;
      frequencies[at] = frequencyOf.values[i]!;
    }
    return { boost, starts, ids, frequencies, lengths, average };
  });

  // Code-unit order (`byCodeUnits`), which the default sort of strings is, without a call per comparison.
  const order = [...words].sort().map((word) => termIds.get(word)!);
  // A document's score summed over the fields, in field order (the reference's order of additions).
  const sums = new Float64Array(documentCount);
  const seen = new Uint8Array(documentCount);
  const postings = order.map((term) => {
    const touched: number[] = [];
    let fieldsWithTerm = 0;
    for (const field of grouped) {
      const start = field.starts[term]!;
      const end = field.starts[term + 1]!;
      if (start === end) continue;
      fieldsWithTerm++;
      addScores(field, start, end, documentCount, { sums, seen, touched });
    }
    const ids = Uint32Array.from(touched);
    // One field's ids are ascending already; several fields' are merged by sorting.
    if (fieldsWithTerm > 1) ids.sort();
    const scores = new Float32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      scores[i] = sums[ids[i]!]!;
      seen[ids[i]!] = 0;
    }
    return { ids, scores };
  });
  return { terms: order.map((term) => words[term]!), postings };
}

/** One field's postings grouped by term (`starts[t]` to `starts[t + 1]` are term t's), and its lengths. */
interface GroupedField {
  boost: number;
  starts: Uint32Array;
  ids: Uint32Array;
  frequencies: Uint32Array;
  lengths: Uint32Array;
  average: number;
}

/**
 * Adds a field's BM25 scores for one term (its postings `start` to `end`) to `sums`, a document met first
 * marked in `seen` and listed in `touched`. A function of its own, so the loop over terms holds no long loop:
 * compiled in the middle of one (on-stack replacement), the code after it had no type feedback yet and
 * deoptimized, and each later term entered the same compiled loop and deoptimized again.
 */
function addScores(
  { boost, ids, frequencies, lengths, average }: GroupedField,
  start: number,
  end: number,
  documentCount: number,
  { sums, seen, touched }: { sums: Float64Array; seen: Uint8Array; touched: number[] },
): void {
  const count = end - start;
  const idf = Math.log(1 + (documentCount - count + 0.5) / (count + 0.5));
  for (let i = start; i < end; i++) {
    const id = ids[i]!;
    const frequency = frequencies[i]!;
    const tf = (frequency * (BM25.k1 + 1)) / (frequency + BM25.k1 * (1 - BM25.b + (BM25.b * lengths[id]!) / average));
    if (seen[id] === 0) {
      seen[id] = 1;
      sums[id] = 0;
      touched.push(id);
    }
    sums[id] = sums[id]! + boost * idf * tf;
  }
}

/**
 * The exact-id table: exactKey(server id) → the record ids (ascending) whose id has exactly those words
 * (the terms come from the names).
 */
function exactIds(ids: readonly string[]): Map<string, number[]> {
  const exact = new Map<string, number[]>();
  ids.forEach((id, record) => fileUnder(exact, exactKey(id), record));
  return exact;
}

/** Add `record` to the ids `table` keeps under `key` (records come in ascending order). */
function fileUnder(table: Map<string, number[]>, key: string, record: number): void {
  const list = table.get(key);
  if (list === undefined) table.set(key, [record]);
  else list.push(record);
}

/** The name index's bytes: the names (in record-id order) and the exact-id table. */
export function encodeNameIndex(names: readonly string[]): Buffer {
  const parts = names.map((name) => splitName(name));
  const exact = exactIds(parts.map((part) => part.id));
  // Namespaces repeat (a publisher has many servers): each is split once.
  const split = new Map<string, { words: string[]; owners: string[] }>();
  const namespaces = parts.map(({ namespace }) => {
    let known = split.get(namespace);
    if (known === undefined) {
      const { publisher, prefix } = namespaceWords(namespace);
      known = { words: [...publisher, ...prefix], owners: ownerKeys(namespace) };
      split.set(namespace, known);
    }
    return known;
  });
  // Each publisher's own servers, under the owner's marked key (no exactKey has the mark).
  namespaces.forEach(({ owners }, record) => {
    for (const key of owners) fileUnder(exact, key, record);
  });
  const { terms, postings } = bm25Postings(names.length, [
    { boost: FIELD_BOOST.server, words: (id) => nameWords(parts[id]!.id), lengthOfContent: true },
    // The publisher and the reverse-DNS prefix (marked: reached only by a query that writes a namespace).
    { boost: FIELD_BOOST.namespace, words: (id) => namespaces[id]!.words, lengthOfContent: true },
  ]);
  return encodeWordIndex(names.length, terms, postings, exact);
}

/**
 * The description index's bytes: the words of each record's registry description, split as names are
 * (`nameWords`), in one field of boost 1, and no exact-id table. Records without a description have no words.
 */
export function encodeDescriptionIndex(descriptions: readonly (string | null | undefined)[]): Buffer {
  const { terms, postings } = bm25Postings(descriptions.length, [
    { boost: 1, words: (id) => (descriptions[id] ? nameWords(descriptions[id]) : undefined) },
  ]);
  return encodeWordIndex(descriptions.length, terms, postings, new Map());
}

/** A word index's bytes: its terms, each term's ids and scores, and the exact-id table. */
function encodeWordIndex(
  documentCount: number,
  terms: readonly string[],
  postings: readonly TermPostings[],
  exact: ReadonlyMap<string, number[]>,
): Buffer {
  const writer = new U32Writer();
  return writer.encode({
    document_count: documentCount,
    terms: addStrings(writer, terms),
    term_postings: addPostings(writer, postings, true),
    exact: addKeyedPostings(writer, exact),
  });
}
