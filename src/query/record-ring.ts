/**
 * The bytes of recently read records, for a records file read on demand (`record-file.ts`): one buffer of
 * fixed size filled in turn, first in first out, and a slot per record id saying where its bytes are. A
 * record read again while it is still there costs a decode and no system call: the records of the first
 * pages of each order and filter, and of the common searches, are read over and over.
 *
 * Nothing in it is a JS object per record, so keeping records costs the collector nothing (see
 * docs/performance.md, "The response cache", for what long-lived strings cost); its memory is the one
 * buffer, touched as it fills, and two typed arrays of the record count.
 */

export class RecordRing {
  readonly bytes: Buffer;
  /** Where record id's bytes start in `bytes`, plus one; 0 when it is not kept (so nothing is written until used). */
  private readonly startOf: Uint32Array;
  /** Each kept record's id, oldest first, from `first` on (a circular queue of `size` ids). */
  private readonly queue: Uint32Array;
  private first = 0;
  private size = 0;
  /** Where the next record is written. */
  private head = 0;

  /** `capacity` bytes for `count` records, each `lengthOf(id)` bytes long. */
  constructor(
    capacity: number,
    count: number,
    private readonly lengthOf: (id: number) => number,
  ) {
    this.bytes = Buffer.allocUnsafe(capacity);
    this.startOf = new Uint32Array(count);
    this.queue = new Uint32Array(count);
  }

  /** Where record `id`'s bytes are in `bytes`, or -1 when it is not kept. */
  find(id: number): number {
    return this.startOf[id]! - 1;
  }

  /**
   * Make room for record `id` (not kept now) and say where to write its bytes, or -1 when it is larger than
   * the whole ring. The records written over are forgotten first.
   */
  place(id: number): number {
    const length = this.lengthOf(id);
    if (length > this.bytes.length) return -1;
    if (this.head + length > this.bytes.length) {
      // The tail end is too short: it is skipped, and the records still in it (the oldest) go now.
      while (this.size > 0 && this.oldestStart() >= this.head) this.dropOldest();
      this.head = 0;
    }
    const end = this.head + length;
    // The records of the lap before are the oldest, in the order they lie; the ones before `head` went when
    // they were passed, so the records in the way are the oldest ones starting before `end`. The records
    // of this lap all lie before `head`.
    while (this.size > 0) {
      const oldest = this.oldestStart();
      if (oldest < this.head || oldest >= end) break;
      this.dropOldest();
    }
    const start = this.head;
    this.startOf[id] = start + 1;
    this.queue[(this.first + this.size) % this.queue.length] = id;
    this.size++;
    this.head = end;
    return start;
  }

  /** Forget the record just placed (its bytes could not be read whole); its room stays unused until passed. */
  forgetNewest(): void {
    if (this.size === 0) return;
    this.startOf[this.queue[(this.first + this.size - 1) % this.queue.length]!] = 0;
    this.size--;
  }

  private oldestStart(): number {
    return this.startOf[this.queue[this.first]!]! - 1;
  }

  private dropOldest(): void {
    this.startOf[this.queue[this.first]!] = 0;
    this.first = (this.first + 1) % this.queue.length;
    this.size--;
  }
}
