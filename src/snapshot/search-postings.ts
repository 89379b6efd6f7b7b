/**
 * The search artifact (`search.bin`): MiniSearch's index (built by `search-index.ts`) turned at build time
 * into what a query reads: every term with its documents and their static BM25 scores, and the exact-id
 * table, all as typed arrays. A server then loads it with nothing to parse but the terms' text, and never
 * pays at query time for turning MiniSearch's maps into postings.
 *
 * Relevance: a term's score for a document is BM25 over the id (boost 3) and namespace (boost 1) fields,
 * summed over the fields the term is in; the query side (`src/query/word-index.ts`) weighs and combines
 * them per query word.
 */
import type { AsPlainObject } from 'minisearch';
import { U32Writer } from './binary.js';
import { addKeyedPostings, addPostings, addStrings, byCodeUnits } from './tables.js';
import { FIELD_BOOST, nameWords } from './search-index.js';

const BM25 = { k1: 1.2, b: 0.7 };

/** One term's documents (record ids ascending) and their static scores. */
function termPostings(plain: AsPlainObject, fields: AsPlainObject['index'][number][1]) {
  const byDoc = new Map<number, number>();
  for (const [fieldName, fieldId] of Object.entries(plain.fieldIds)) {
    const docs = fields[String(fieldId)];
    if (!docs) continue;
    const entries = Object.entries(docs);
    if (entries.length === 0) continue;
    const boost = FIELD_BOOST[fieldName as keyof typeof FIELD_BOOST] ?? 1;
    const idf = Math.log(1 + (plain.documentCount - entries.length + 0.5) / (entries.length + 0.5));
    const average = plain.averageFieldLength[fieldId] || 1;
    for (const [shortIdText, frequency] of entries) {
      const length = plain.fieldLength[shortIdText]?.[fieldId] ?? average;
      const tf = (frequency * (BM25.k1 + 1)) / (frequency + BM25.k1 * (1 - BM25.b + (BM25.b * length) / average));
      // Documents were added with ids 0..n-1 in order, but map through MiniSearch's table to be exact.
      const id = Number(plain.documentIds[shortIdText]);
      byDoc.set(id, (byDoc.get(id) ?? 0) + boost * idf * tf);
    }
  }
  const ids = Uint32Array.from(byDoc.keys()).sort();
  const scores = Float32Array.from(ids, (id) => byDoc.get(id)!);
  return { ids, scores };
}

/** The artifact's bytes, from MiniSearch's serialization and the exact-id table (exactKey → record ids). */
export function encodeSearchIndex(plain: AsPlainObject, exact: Readonly<Record<string, number[]>>): Buffer {
  return encodeWordIndex(
    plain.documentCount,
    plain.index.map(([term]) => term),
    plain.index.map(([, fields]) => termPostings(plain, fields)),
    exact,
  );
}

/**
 * The description artifact (`descriptions.bin`): the same layout as the name index, over the words of each
 * record's registry description, split as names are (`nameWords`), with BM25 scores of a single field of
 * boost 1 and no exact-id table. Records without a description have no words. Computed here directly:
 * MiniSearch would cost a second index of every description at build time for nothing it adds.
 */
export function encodeDescriptionIndex(descriptions: readonly (string | null | undefined)[]): Buffer {
  const byTerm = new Map<string, { ids: number[]; frequencies: number[] }>();
  const lengths = new Uint32Array(descriptions.length);
  let described = 0;
  let totalLength = 0;
  const counts = new Map<string, number>();
  descriptions.forEach((description, id) => {
    if (!description) return;
    const words = nameWords(description);
    if (words.length === 0) return;
    lengths[id] = words.length;
    described++;
    totalLength += words.length;
    counts.clear();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, frequency] of counts) {
      let term = byTerm.get(word);
      if (term === undefined) byTerm.set(word, (term = { ids: [], frequencies: [] }));
      // Ids arrive in ascending order, so each term's list is sorted as the table needs.
      term.ids.push(id);
      term.frequencies.push(frequency);
    }
  });
  const average = described === 0 ? 1 : totalLength / described;
  const terms = [...byTerm.keys()].sort(byCodeUnits);
  const postings = terms.map((word) => {
    const { ids, frequencies } = byTerm.get(word)!;
    const idf = Math.log(1 + (descriptions.length - ids.length + 0.5) / (ids.length + 0.5));
    const scores = Float32Array.from(ids, (id, i) => {
      const frequency = frequencies[i]!;
      const norm = 1 - BM25.b + (BM25.b * lengths[id]!) / average;
      return (idf * (frequency * (BM25.k1 + 1))) / (frequency + BM25.k1 * norm);
    });
    return { ids: Uint32Array.from(ids), scores };
  });
  return encodeWordIndex(descriptions.length, terms, postings, {});
}

/** A word index's bytes: its terms, each term's ids and scores, and the exact-id table. */
function encodeWordIndex(
  documentCount: number,
  terms: readonly string[],
  postings: readonly { ids: Uint32Array; scores: Float32Array }[],
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
