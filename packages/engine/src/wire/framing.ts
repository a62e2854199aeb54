// Splits a TCP byte stream into whole wire-protocol messages using the int32 length prefix.
const MAX_MESSAGE_BYTES = 48_000_000;

export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  /** Feeds bytes; returns the complete messages now available. Throws on an impossible length. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Buffer[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      const head = this.chunks[0]!.length >= 4 ? this.chunks[0]! : this.flatten();
      const len = head.readInt32LE(0);
      if (len < 16 || len > MAX_MESSAGE_BYTES) throw new Error(`invalid message length ${len}`);
      if (this.buffered < len) break;
      const all = this.chunks.length === 1 ? this.chunks[0]! : this.flatten();
      out.push(all.subarray(0, len));
      const rest = all.subarray(len);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
    }
    return out;
  }

  private flatten(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }
}
