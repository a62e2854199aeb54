// "Children of a parent" loaders: one page of a connection per parent (issues of a page, articles of
// a category / author / keyword) and its total count, batched across every parent in the request.
import DataLoader from 'dataloader';
import type { Collection, Document } from 'mongodb';
import type { CollectionName, DocOf } from '../collections.js';
import { readAhead, want, type FollowUp, type LoaderFactory, type Selected, type Wanted } from '../loaders.js';
import type { ProjectedType } from '../projection.js';
import { aggregateAll } from '../read.js';
import { keysetFilter, skipFor, slice, sortDocument, type PageSlice, type Position, type SortSpec } from './paging.js';

export interface ChildrenSpec<N extends CollectionName> {
  collection: N;
  /** The field holding the parent id; may be an array of parent ids (`categoryIds`). */
  parentField: string;
  visible: Document;
  sort: SortSpec;
  projection: Document;
  /** Read only what the operation selects of this API type (the sort keys always, for cursors). */
  type?: ProjectedType;
}

export interface ChildrenKey {
  parentId: string;
  first: number;
  after: Position | null;
  /** What the place asking selects of the connection: the follow-up reads ahead what it selects of the nodes. */
  selected?: Selected;
}

const cacheKey = (k: ChildrenKey): string => JSON.stringify([k.parentId, k.first, k.after]);

/** DataLoader of pages that also keeps, for each page not read yet, what each place asking for it selects. */
class PageLoader<V> extends DataLoader<ChildrenKey, V, string> {
  constructor(
    batch: (keys: readonly ChildrenKey[], wanted: Map<string, Selected | Selected[]>) => Promise<V[]>,
    private readonly wanted = new Map<string, Selected | Selected[]>(),
  ) {
    super((keys) => batch(keys, wanted), { cacheKeyFn: cacheKey, maxBatchSize: 100 });
  }

  override load(key: ChildrenKey): Promise<V> {
    if (key.selected) want(this.wanted, cacheKey(key), key.selected);
    return super.load(key);
  }

  override clearAll(): this {
    this.wanted.clear();
    return super.clearAll();
  }
}

const BRANCH = '__branch';

/**
 * One page per key, every key of a batch in one command (`followUp`: see byIdLoader): an aggregate whose first stage list pages
 * the first parent and whose `$unionWith` branches page the others. Each branch is an indexed, limited
 * read of one parent (at most `first + 1` documents), tagged with its branch number.
 */
export function childrenPageLoader<N extends CollectionName>(
  spec: ChildrenSpec<N>,
  followUp?: FollowUp<DocOf<N>>,
): LoaderFactory<ChildrenKey, PageSlice<DocOf<N>>> {
  const sort = sortDocument(spec.sort);
  const sortKeys = spec.sort.map(([field]) => field);
  const branch = (k: ChildrenKey, index: number, projection: Document, visible: Document): Document[] => {
    const { skip } = skipFor(k.after);
    return [
      { $match: { ...visible, [spec.parentField]: k.parentId, ...keysetFilter(spec.sort, k.after?.keys) } },
      { $sort: sort },
      ...(skip ? [{ $skip: skip }] : []),
      { $limit: k.first + 1 },
      { $project: projection },
      { $addFields: { [BRANCH]: index } },
    ];
  };
  return (store, request) => {
    const projection = spec.type ? request.projection(spec.projection, spec.type, sortKeys) : spec.projection;
    const visible = request.visible(spec.collection, spec.visible);
    return new PageLoader<PageSlice<DocOf<N>>>(async (keys, wanted) => {
      const [head, ...rest] = keys.map((k, i) => branch(k, i, projection, visible));
      const pipeline = [...head!, ...rest.map((pipeline) => ({ $unionWith: { coll: spec.collection, pipeline } }))];
      const size = keys.reduce((n, k) => n + k.first + 1, 0);
      const docs = await aggregateAll<Document>(
        store.collection(spec.collection) as unknown as Collection<Document>,
        pipeline,
        { batchSize: size },
      );
      const byBranch: DocOf<N>[][] = keys.map(() => []);
      for (const { [BRANCH]: index, ...doc } of docs) byBranch[index as number]!.push(doc as DocOf<N>);
      const pages = keys.map((k, i) => slice(byBranch[i]!, k.first, k.after));
      if (followUp && wanted.size > 0) {
        // What the pages show, not the one more document each branch reads to tell whether a next page exists, each
        // page with what the places asking for it select of its nodes.
        const groups: Array<Wanted<DocOf<N>>> = [];
        for (const [i, key] of keys.entries()) {
          const k = cacheKey(key);
          const selected = wanted.get(k);
          wanted.delete(k);
          if (selected === undefined || pages[i]!.docs.length === 0) continue;
          for (const one of Array.isArray(selected) ? selected : [selected])
            groups.push({ docs: pages[i]!.docs, selected: one.nodes() });
        }
        if (groups.length > 0) await readAhead(followUp, groups, request);
      }
      return pages;
    });
  };
}

/** Total visible children per parent: one `$group` over every parent of the batch. */
export function childrenCountLoader<N extends CollectionName>(
  spec: Pick<ChildrenSpec<N>, 'collection' | 'parentField' | 'visible'>,
): LoaderFactory<string, number> {
  return (store, request) => {
    const visible = request.visible(spec.collection, spec.visible);
    return new DataLoader<string, number>(
      async (parentIds) => {
        const parents = { $in: [...parentIds] };
        const rows = await store
          .collection(spec.collection)
          .aggregate<{ _id: string; n: number }>(
            [
              { $match: { ...visible, [spec.parentField]: parents } },
              { $project: { _id: 0, [BRANCH]: `$${spec.parentField}` } },
              // An array field (categoryIds) counts once for each listed parent of the batch.
              { $unwind: `$${BRANCH}` },
              { $match: { [BRANCH]: parents } },
              { $group: { _id: `$${BRANCH}`, n: { $sum: 1 } } },
            ],
            { batchSize: parentIds.length },
          )
          .toArray();
        const counts = new Map(rows.map((r) => [r._id, r.n]));
        return parentIds.map((id) => counts.get(id) ?? 0);
      },
      { maxBatchSize: 1000 },
    );
  };
}
