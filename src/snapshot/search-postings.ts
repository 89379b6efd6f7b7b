/**
 * The word artifacts: the name index (`search.bin`) and the description index (`descriptions.bin`), in one
 * layout: every term with its documents and their static BM25 scores, and (names only) the exact-id table,
 * all as typed arrays. A server then loads them with nothing to parse but the terms' text.
 *
 * Relevance: a term's score for a document is BM25 summed over the fields the term is in, each weighed by
 * its boost: the id (3) and the namespace (1) for names, the description (1) alone for descriptions. The
 * query side (`src/query/word-index.ts`) weighs and combines them per query word. The scores are the ones
 * MiniSearch 7 computes for the same fields (a field's length is its number of distinct words, its average
 * a running mean over the documents that have it); `test/snapshot/search-postings.test.ts` compares them
 * with MiniSearch's own index, which the build no longer pays to make.
 */
import { U32Writer } from './binary.js';
import { addKeyedPostings, addPostings, addStrings, byCodeUnits } from './tables.js';
import { FIELD_BOOST, nameWords } from './search-index.js';
import { splitName } from '../model/schema.js';

const BM25 = { k1: 1.2, b: 0.7 };

/** One field of every document: its boost, and each document's words (undefined: the document lacks it). */
interface WordField {
  boost: number;
  words: (id: number) => readonly string[] | undefined;
}

/** One term's documents (record ids ascending) and their static scores. */
interface TermPostings {
  ids: Uint32Array;
  scores: Float32Array;
}

/** Per field, term → the documents it is in (ascending) and how often. */
type FieldTerms = Map<string, { ids: number[]; frequencies: number[] }>;

/** Every term of the fields and its postings, terms in code-unit order. */
function bm25Postings(documentCount: number, fields: readonly WordField[]): { terms: string[]; postings: TermPostings[] } {
  const perField = fields.map((field) => {
    const terms: FieldTerms = new Map();
    const lengths = new Uint32Array(documentCount);
    let average = 0;
    let counted = 0;
    const frequencies = new Map<string, number>();
    for (let id = 0; id < documentCount; id++) {
      const words = field.words(id);
      if (words === undefined) continue;
      frequencies.clear();
      for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
      lengths[id] = frequencies.size;
      // The same running mean, in the same floating-point steps, as MiniSearch's.
      average = (average * counted + frequencies.size) / (counted + 1);
      counted++;
      for (const [word, frequency] of frequencies) {
        let term = terms.get(word);
        if (term === undefined) terms.set(word, (term = { ids: [], frequencies: [] }));
        term.ids.push(id);
        term.frequencies.push(frequency);
      }
    }
    return { boost: field.boost, terms, lengths, average: average || 1 };
  });

  const all = new Set<string>();
  for (const { terms } of perField) for (const term of terms.keys()) all.add(term);
  const terms = [...all].sort(byCodeUnits);
  // A document's score summed over the fields, in field order (the reference's order of additions).
  const sums = new Float64Array(documentCount);
  const seen = new Uint8Array(documentCount);
  const postings = terms.map((word) => {
    const present = perField.filter((field) => field.terms.has(word));
    const touched: number[] = [];
    for (const { boost, terms: fieldTerms, lengths, average } of present) {
      const { ids, frequencies } = fieldTerms.get(word)!;
      const idf = Math.log(1 + (documentCount - ids.length + 0.5) / (ids.length + 0.5));
      for (let i = 0; i < ids.length; i++) {
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
    const ids = Uint32Array.from(touched);
    // One field's ids are ascending already; several fields' are merged by sorting.
    if (present.length > 1) ids.sort();
    const scores = new Float32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      scores[i] = sums[ids[i]!]!;
      seen[ids[i]!] = 0;
    }
    return { ids, scores };
  });
  return { terms, postings };
}

/** The name index's bytes: the names (in record-id order) and the exact-id table (exactKey → record ids). */
export function encodeNameIndex(names: readonly string[], exact: Readonly<Record<string, number[]>>): Buffer {
  const parts = names.map((name) => splitName(name));
  const { terms, postings } = bm25Postings(names.length, [
    { boost: FIELD_BOOST.server, words: (id) => nameWords(parts[id]!.id) },
    { boost: FIELD_BOOST.namespace, words: (id) => nameWords(parts[id]!.namespace) },
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
  return encodeWordIndex(descriptions.length, terms, postings, {});
}

/** A word index's bytes: its terms, each term's ids and scores, and the exact-id table. */
function encodeWordIndex(
  documentCount: number,
  terms: readonly string[],
  postings: readonly TermPostings[],
  exact: Readonly<Record<string, number[]>>,
): Buffer {
  const writer = new U32Writer();
  return writer.encode({
    document_count: documentCount,
    terms: addStrings(writer, terms),
    term_postings: addPostings(writer, postings, true),
    exact: addKeyedPostings(writer, exact),
  });
}
