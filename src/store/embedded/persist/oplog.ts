// The append-only operation log. Storage reports changes (JournalSink); commit() seals the entries logged
// since the previous commit into one checksummed record, appends it and fdatasyncs. Concurrent commits
// share an fsync (group commit): one fsync per command at most, never one per document.
import { closeSync, fdatasync, openSync, write } from 'node:fs';
import { promisify } from 'node:util';
import { serialize } from 'bson';
import type { Document } from 'bson';
import { EntryKind, type JournalSink } from '../storage/journal.js';
import { encodeEntry, frameRecord } from './records.js';

const writeAsync = promisify(write);
const datasyncAsync = promisify(fdatasync);

export class OpLog implements JournalSink {
  private entries: Buffer[] = [];
  private sealed: Buffer[] = [];
  private sealedSeq = 0;
  private durableSeq = 0;
  private flushing: Promise<void> | undefined;
  /** Bytes in the current log file. */
  bytes = 0;

  constructor(
    private fd: number,
    readonly onFlushed: () => void = () => undefined,
  ) {}

  static openFile(path: string): number {
    return openSync(path, 'a');
  }

  put(db: string, coll: string, doc: Uint8Array): void {
    this.entries.push(encodeEntry(EntryKind.Put, db, coll, doc));
  }

  del(db: string, coll: string, id: Document): void {
    this.entries.push(encodeEntry(EntryKind.Delete, db, coll, serialize(id)));
  }

  ddl(kind: EntryKind, db: string, coll: string, body: Document): void {
    this.entries.push(encodeEntry(kind, db, coll, serialize(body)));
  }

  /** True when nothing is logged but not yet durable. */
  get idle(): boolean {
    return this.entries.length === 0 && this.sealed.length === 0 && !this.flushing;
  }

  async commit(): Promise<void> {
    if (this.entries.length) {
      this.sealed.push(frameRecord(this.entries));
      this.entries = [];
      this.sealedSeq++;
    }
    const target = this.sealedSeq;
    while (this.durableSeq < target) {
      if (!this.flushing) this.flushing = this.flush().finally(() => (this.flushing = undefined));
      await this.flushing;
    }
  }

  private async flush(): Promise<void> {
    const upTo = this.sealedSeq;
    const data = this.sealed.length === 1 ? this.sealed[0]! : Buffer.concat(this.sealed);
    this.sealed = [];
    let off = 0;
    while (off < data.length) off += (await writeAsync(this.fd, data, off, data.length - off)).bytesWritten;
    await datasyncAsync(this.fd);
    this.bytes += data.length;
    this.durableSeq = upTo;
    this.onFlushed();
  }

  /** Waits until everything logged so far is durable. */
  async drain(): Promise<void> {
    while (!this.idle) {
      await this.commit();
      if (this.flushing) await this.flushing;
    }
  }

  /** Switches to a new file. Call only when idle (synchronously after drain()). Returns the old fd. */
  swap(fd: number): number {
    if (!this.idle) throw new Error('oplog swap while not idle');
    const old = this.fd;
    this.fd = fd;
    this.bytes = 0;
    return old;
  }

  close(): void {
    closeSync(this.fd);
  }
}
