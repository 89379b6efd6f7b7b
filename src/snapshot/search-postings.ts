/**
 * The search artifact (`search.bin`): MiniSearch's index (built by `search-index.ts`) turned at build time
 * into what a query reads: every term with its documents and their static BM25 scores, and the exact-id
 * table, all as typed arrays. A server then loads it with nothing to parse but the terms' text, and never
 * pays at query time for turning MiniSearch's maps into postings.
 *
 * Relevance: a term's score for a document is BM25 over the id (boost 3) and namespace (boost 1) fields,
 * summed over the fields the term is in; the query side (`src/query/name-index.ts`) weighs and combines
 * them per query word.
 */
import type { AsPlainObject } from 'minisearch';
import { U32Writer } from './binary.js';
import { addKeyedPostings, addPostings, addStrings } from './tables.js';
import { FIELD_BOOST } from './search-index.js';

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
  const writer = new U32Writer();
  const terms = addStrings(
    writer,
    plain.index.map(([term]) => term),
  );
  const termPostingRanges = addPostings(
    writer,
    plain.index.map(([, fields]) => termPostings(plain, fields)),
    true,
  );
  return writer.encode({
    document_count: plain.documentCount,
    terms,
    term_postings: termPostingRanges,
    exact: addKeyedPostings(writer, exact),
  });
}
