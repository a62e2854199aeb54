// One open change stream: what it watches (a collection, a database or the whole cluster), where it has
// read up to, and how it turns the source's records into the events it returns (namespace filter,
// invalidation on drop, the user's $match/$project/... stages run by mingo on each event).
import type { Document } from 'bson';
import { Aggregator } from 'mingo';
import type { AnyObject } from 'mingo/types';
import { CommandError } from '../errors.js';
import { mingoOptions } from '../query/options.js';
import { encode } from '../storage/bsonio.js';
import { eventHead, eventOf, HEAD_FIELDS, invalidateOf, type EventModes } from './events.js';
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

/**
 * The top-level event fields a `$match` filter reads, or undefined when it may read any (`$expr`, `$where` and the
 * like read the whole event).
 */
function matchFields(filter: unknown, into = new Set<string>()): Set<string> | undefined {
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return undefined;
  for (const [k, v] of Object.entries(filter as Document)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v) || !v.every((clause) => matchFields(clause, into))) return undefined;
    } else if (k === '$comment') continue;
    else if (k.startsWith('$')) return undefined;
    else into.add(k.split('.')[0]!);
  }
  return into;
}

const readsHeadOnly = (fields: Set<string> | undefined): boolean =>
  !!fields && [...fields].every((f) => HEAD_FIELDS.has(f));

/** Whether a stage is a `$match` reading only the event's head. */
const headMatch = (st: Document): boolean =>
  Object.keys(st).length === 1 && '$match' in st && readsHeadOnly(matchFields(st.$match));

/** Whether a stage is an inclusion `$project` of the event's head fields only (what follows sees nothing else). */
function headProject(st: Document): boolean {
  const spec: unknown = st.$project;
  if (Object.keys(st).length !== 1 || !spec || typeof spec !== 'object' || Array.isArray(spec)) return false;
  const fields = Object.entries(spec as Document);
  return fields.length > 0 && fields.every(([k, v]) => (v === 1 || v === true) && HEAD_FIELDS.has(k.split('.')[0]!));
}

/**
 * How much of each event a stream's stages need: `head` when they read only the head fields (leading `$match`
 * stages on them, then an inclusion `$project` of them); otherwise the whole event, with the leading `$match`
 * stages that read only the head (`prefilter`) tested first, so that an event they drop is never made whole.
 */
function eventNeeds(stages: Document[]): { head: boolean; prefilter: Document[] } {
  let at = 0;
  while (at < stages.length && headMatch(stages[at]!)) at++;
  if (at < stages.length && headProject(stages[at]!)) return { head: true, prefilter: [] };
  return { head: false, prefilter: stages.slice(0, at) };
}

export class ChangeStream {
  /** Everything up to here has been looked at. */
  position: bigint;
  invalidated = false;
  /** The last read stopped at its time budget: more history waits after `position`. */
  behind = false;
  lastUsed = Date.now();
  private readonly pipeline: Aggregator | undefined;
  /** The stages need only the event's head fields. */
  private readonly headOnly: boolean;
  /** Leading `$match` stages reading only the head, tested before an event is made whole. */
  private readonly prefilter: Aggregator | undefined;

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
    const needs = eventNeeds(stages);
    this.headOnly = needs.head;
    this.prefilter = needs.prefilter.length
      ? new Aggregator(needs.prefilter as AnyObject[], mingoOptions())
      : undefined;
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
    if (rec.kind !== 'dropDatabase' || this.target.coll === undefined) events.push(...this.shaped(this.eventFor(rec)));
    // A collection stream ends with its collection's drop; a database stream with its database's drop.
    if (!this.target.cluster && (this.target.coll !== undefined ? rec.kind === 'drop' : rec.kind === 'dropDatabase')) {
      this.invalidated = true;
      events.push(...this.shaped(invalidateOf(rec, this.modes.epoch)));
    }
    return events;
  }

  /**
   * The event of `rec`, made only as far as the stages read it; undefined when the stages drop it on its head
   * alone. Building an update's event decodes both images and compares them field by field, for every stream:
   * most streams keep a few kinds of change, or only where they happened.
   */
  private eventFor(rec: ChangeRecord): Document | undefined {
    if (this.headOnly) return eventHead(rec, this.modes.epoch);
    if (this.prefilter && this.prefilter.run([eventHead(rec, this.modes.epoch) as AnyObject]).length === 0)
      return undefined;
    return eventOf(rec, this.modes);
  }

  private watches(rec: ChangeRecord): boolean {
    const { db, coll, cluster } = this.target;
    if (cluster) return !INTERNAL_DBS.has(rec.db) && !rec.coll.startsWith('system.');
    if (rec.db !== db) return false;
    if (coll !== undefined) return rec.coll === coll;
    return !rec.coll.startsWith('system.');
  }

  /** The user's stages applied to one event; the resume token (`_id`) must survive them. */
  private shaped(event: Document | undefined): Document[] {
    if (!event) return [];
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
