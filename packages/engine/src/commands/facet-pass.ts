// The counting pass of a search's facets: the pipeline `$match` with `$text` (and more `$match`), an inclusion
// `$project`, then a `$facet` whose every branch is a count (aggregate-counts.ts countingFacet), as a search page
// asks for its filters' counts. Over a large result most of its time is reading and walking each match's stored
// document, so it can run over part of the candidates on another thread (facet-thread.ts) and the parts' counts
// be added up: everything it needs is plain data (FacetJob).
import type { Document } from 'bson';
import { Query } from '../query/mingo.js';
import { mingoOptions, type QueryExtras } from '../query/options.js';
import { candidateReader, fieldsOf, type CandidateTest } from '../query/text.js';
import { NameSet } from '../storage/rawdoc.js';
import { countingFacet, readingFacet, type CountingBranch, type Tallied } from './aggregate-counts.js';

export interface FacetJob {
  /** The search's test of a candidate (its `need` is ignored: the `$project`'s fields are read). */
  test: CandidateTest;
  /** The fields the inclusion `$project` keeps (`_id` among them when kept). */
  keep: string[];
  /** The `$facet` stage's operand: every branch a count. */
  facet: Document;
}

/** The counting branches of a `$facet` operand, or undefined when a branch is anything else. */
export function countingBranches(facet: Document): CountingBranch[] | undefined {
  const branches = readingFacet({ $facet: facet });
  return branches && countingFacet(branches);
}

/** The fields of a top-level inclusion projection, as they are, in MongoDB's order: `_id` first, then the others in
 *  the document's order. */
export function pickFields(d: Document, names: ReadonlySet<string>, id: boolean): Document {
  const out: Document = {};
  if (id && Object.hasOwn(d, '_id')) out._id = d._id;
  for (const k of Object.keys(d)) if (names.has(k)) out[k] = d[k];
  return out;
}

/**
 * The branches' counts over the stored documents `docs` (candidates of the search, in natural order; undefined for
 * one no longer stored), each branch's groups in first-seen order; undefined at a value a count does not key (the
 * whole pipeline then runs the ordinary way, where mingo takes over from such a value).
 */
export function facetTallies(
  job: FacetJob,
  docs: Iterable<Buffer | undefined>,
  extras: QueryExtras,
): Tallied[] | undefined {
  const branches = countingBranches(job.facet);
  if (!branches) return undefined;
  const tests = branches.map((b) => b.matches.map((m) => new Query(m.$match as Document, mingoOptions(extras))));
  const need = new NameSet(job.keep);
  const read = candidateReader({ ...job.test, need: job.keep }, extras);
  const names = new Set(job.keep);
  const id = names.delete('_id');
  for (const bytes of docs) {
    if (!bytes) continue;
    const fields = read ? read(bytes) : fieldsOf(bytes, need);
    if (!fields) continue;
    const d = pickFields(fields, names, id);
    for (let i = 0; i < branches.length; i++)
      if (tests[i]!.every((q) => q.test(d)) && !branches[i]!.counter.add(d)) return undefined;
  }
  return branches.map((b) => b.counter.tallied());
}
