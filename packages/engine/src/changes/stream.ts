// One open change stream: what it watches (a collection, a database or the whole cluster), where it has
// read up to, and how it turns the source's records into the events it returns (namespace filter,
// invalidation on drop, the user's $match/$project/... stages run by mingo on each event).
import type { Document } from 'bson';
import { Aggregator } from 'mingo';
import type { AnyObject } from 'mingo/types';
import { CommandError } from '../errors.js';
import { mingoOptions } from '../query/options.js';
import { encode } from '../storage/bsonio.js';
import { eventOf, invalidateOf, type EventModes } from './events.js';
import { EXPANDED_KINDS, type ChangeRecord } from './record.js';
import type { ChangeSource } from './source.js';
import { tokenOf } from './token.js';

/** Stages MongoDB allows after $changeStream. */
const ALLOWED = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$redact',
]);
/** Other stage names MongoDB knows (refused here with IllegalOperation rather than "unrecognized"). */
const KNOWN = new Set([
  '$group',
  '$sort',
  '$limit',
  '$skip',
  '$lookup',
  '$unwind',
  '$facet',
  '$bucket',
  '$bucketAuto',
  '$count',
  '$out',
  '$merge',
  '$sample',
  '$sortByCount',
  '$graphLookup',
  '$unionWith',
  '$changeStream',
  '$densify',
  '$fill',
  '$geoNear',
  '$setWindowFields',
  '$documents',
  '$indexStats',
  '$collStats',
  '$currentOp',
  '$listSessions',
]);
const INTERNAL_DBS = new Set(['admin', 'config', 'local']);
/** Records read from the history at a time: a read that stops at its time budget leaves few of them unused. */
const SCAN_CHUNK = 64;
/**
 * How long one read of a stream may run on the engine's thread. A stream whose pipeline drops most events (a
 * `$match` on a few collections or kinds) would otherwise build every event of a long history in one command:
 * a burst of a thousand article writes took seconds, and every other client, the driver's heartbeats among
 * them, waited. A read past it answers what it found so far, perhaps nothing, with the position it reached.
 */
const READ_BUDGET_MS = 25;

export interface StreamTarget {
  db: string;
  /** Undefined: every collection of `db` (or of every database when `cluster`). */
  coll?: string;
  cluster: boolean;
}

export function checkStages(stages: Document[]): void {
  for (const st of stages) {
    const op = Object.keys(st ?? {})[0] ?? '';
    if (!KNOWN.has(op) && !ALLOWED.has(op))
      throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${op}'`);
    if (!ALLOWED.has(op))
      throw new CommandError('IllegalOperation', `${op} is not permitted in a $changeStream pipeline`);
  }
}

export class ChangeStream {
  /** Everything up to here has been looked at. */
  position: bigint;
  invalidated = false;
  /** The last read stopped at its time budget: more history waits after `position`. */
  behind = false;
  lastUsed = Date.now();
  private readonly pipeline: Aggregator | undefined;

  constructor(
    readonly id: bigint,
    readonly ns: string,
    private readonly target: StreamTarget,
    private readonly modes: EventModes,
    stages: Document[],
    start: bigint,
  ) {
    this.position = start;
    this.pipeline = stages.length ? new Aggregator(stages as AnyObject[], mingoOptions()) : undefined;
  }

  get resumeToken(): Document {
    return tokenOf(this.position, this.modes.epoch);
  }

  /**
   * Events after `position`, at most `max` of them and `maxBytes` in all, read for at most READ_BUDGET_MS;
   * advances past what it scanned.
   */
  read(source: ChangeSource, max: number, maxBytes: number): Buffer[] {
    const out: Buffer[] = [];
    const until = performance.now() + READ_BUDGET_MS;
    let bytes = 0;
    this.behind = false;
    while (out.length < max && !this.invalidated) {
      const records = source.readAfter(this.position, SCAN_CHUNK);
      if (records.length === 0) break;
      for (const rec of records) {
        const events = this.eventsFor(rec);
        const encoded = events.map((e) => encode(e));
        const size = encoded.reduce((s, b) => s + b.length, 0);
        if (out.length > 0 && (out.length + encoded.length > max || bytes + size > maxBytes)) return out;
        out.push(...encoded);
        bytes += size;
        this.position = rec.position;
        if (this.invalidated) break;
        if (performance.now() > until) {
          this.behind = true;
          return out;
        }
      }
    }
    return out;
  }

  private eventsFor(rec: ChangeRecord): Document[] {
    if (!this.watches(rec) || (!this.modes.expanded && EXPANDED_KINDS.has(rec.kind))) return [];
    const events: Document[] = [];
    if (rec.kind !== 'dropDatabase' || this.target.coll === undefined)
      events.push(...this.shaped(eventOf(rec, this.modes)));
    // A collection stream ends with its collection's drop; a database stream with its database's drop.
    if (!this.target.cluster && (this.target.coll !== undefined ? rec.kind === 'drop' : rec.kind === 'dropDatabase')) {
      this.invalidated = true;
      events.push(...this.shaped(invalidateOf(rec, this.modes.epoch)));
    }
    return events;
  }

  private watches(rec: ChangeRecord): boolean {
    const { db, coll, cluster } = this.target;
    if (cluster) return !INTERNAL_DBS.has(rec.db) && !rec.coll.startsWith('system.');
    if (rec.db !== db) return false;
    if (coll !== undefined) return rec.coll === coll;
    return !rec.coll.startsWith('system.');
  }

  /** The user's stages applied to one event; the resume token (`_id`) must survive them. */
  private shaped(event: Document): Document[] {
    if (!this.pipeline) return [event];
    const out = this.pipeline.run([event as AnyObject]) as Document[];
    for (const doc of out) {
      if (!doc._id || !encode({ v: doc._id }).equals(encode({ v: event._id }))) {
        throw new CommandError(
          'ChangeStreamFatalError',
          'Encountered an event whose _id field, which contains the resume token, was modified by the pipeline',
          {
            errorLabels: ['NonResumableChangeStreamError'],
          },
        );
      }
    }
    return out;
  }
}
