/**
 * The durable ResourceStore behind `--state-file`: an append-only log of checksummed JSON lines,
 * replayed into a MemoryStore at start (the lines: state-file-format.ts; the replay:
 * state-file-replay.ts).
 *
 * - One mock per file: the file is locked (state-file-lock.ts) before it is read; a second mock on
 *   it stops at start with a message naming the holder.
 * - A change is answered only once its record is on disk (fdatasync). Changes that arrive while
 *   a sync is in flight are written and synced together in the next batch (group commit).
 * - Ids are reserved in memory synchronously, so the duplicate decision stays atomic under
 *   concurrency; a batch whose write fails is cut off the file again and its reservations undone.
 * - A reset (or a clear of a collection) waits for nothing but holds back later changes until it
 *   is on disk, and only then forgets the records in memory, so no change is ever decided against
 *   memory the disk does not have (a reset cannot be undone otherwise).
 * - Start-up reads the file once (linear). A torn tail (a crash mid-write) is copied aside and cut
 *   off with a warning. Damaged bytes in the middle cost only the records they hit: they are
 *   copied aside, reported at error level, and the file is rewritten so the next start is clean.
 *   When most entries are dead (wiped by a reset) the file is rewritten with the live records only.
 */
import { randomBytes } from 'node:crypto';
import { constants, writeSync, type Stats } from 'node:fs';
import { open, realpath, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { MemoryStore } from './memory.js';
import { clearLine, createLine, deleteLine, headerLine, replaceLine, resetLine, seedLines, STATE_FILE_VERSION } from './state-file-format.js';
import { lockStateFile, type StateFileLock } from './state-file-lock.js';
import { describeDamage, replayStateFile, type Replay } from './state-file-replay.js';
import {
  StorageFailure,
  type CreateOutcome,
  type DeleteOutcome,
  type Page,
  type PageQuery,
  type ParentRecord,
  type RecordKey,
  type ReplaceOutcome,
  type ResourceStore,
  type SeedOutcome,
  type StoredRecord,
  type StoreHealth,
} from './store.js';

export { STATE_FILE_FORMAT, STATE_FILE_VERSION } from './state-file-format.js';

/** Compaction is not worth a rewrite below this size, however dead the file is. */
const DEFAULT_COMPACT_MIN_BYTES = 1024 * 1024;
/** Compaction writes the live records in chunks of about this size. */
const COMPACT_CHUNK_BYTES = 1024 * 1024;

/** What the store reports: damage (error), a skipped tail or a failed write (warn), a compaction (info). pino's logger fits. */
export interface StateFileLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface StateFileOptions {
  logger?: StateFileLogger;
  /** Compact when dead entries outnumber live records and the file is at least this big. */
  compactMinBytes?: number;
  /** Opens the log for reading and writing (a seam for fault-injection tests). */
  openFile?: (path: string) => Promise<FileHandle>;
}

export interface StateFileStats {
  /** Bytes in the file. */
  bytes: number;
  /** Record entries and resets in the file, live or dead. */
  entries: number;
  /** Batches written and synced (one fdatasync each). */
  syncs: number;
  /** Records written since start (creates, seeds and resets). */
  records: number;
  compactions: number;
}

type Operation = {
  line: string;
  collection: string;
  /** The keys it reserved (create, seed), released once on disk and freed again if the write fails. */
  reserved: readonly RecordKey[];
  /** The record as the disk has it before this change (replace, delete): what a compaction writes meanwhile. */
  before?: StoredRecord;
  /** Undoes the change in memory if the write fails (replace, delete). */
  undo?: () => void;
  /** Records the line adds to the file (for compaction's count). */
  entries: number;
  reset: boolean;
  /** The collection a clear forgets (with those nested under it, but those fitting `keep`), once on disk. */
  clear?: { collection: string; keep: readonly string[] };
};

/**
 * The changes written together, in one write and one fdatasync: they succeed or fail together, so
 * one promise answers them all (a promise per change cost more than its line).
 */
class Batch {
  readonly operations: Operation[] = [];
  readonly written: Promise<void>;
  resolve!: () => void;
  reject!: (error: Error) => void;
  #created: Promise<'created'> | undefined;

  constructor() {
    this.written = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** 'created' once the batch is on disk: one promise for every create in it. */
  get created(): Promise<'created'> {
    return (this.#created ??= this.written.then(() => 'created' as const));
  }
}

/**
 * Opens (or creates) the state file, locks it and replays it. Throws an Error naming the file and
 * the fix, or the process that holds the lock.
 */
export async function openStateFile(path: string, options: StateFileOptions = {}): Promise<StateFileStore> {
  const absolute = resolvePath(path);
  const handle = await openForWriting(absolute, options.openFile);
  let lock: StateFileLock | undefined;
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`Cannot use the state file ${absolute}: it is not a regular file.`);
    // Nothing is read or written before the lock is held (the last holder may have written until it let go).
    // By its real path: two paths (a symlink) to one file share one lock, and compaction renames
    // over the file, not over the symlink.
    const real = await realpath(absolute);
    lock = await lockStateFile(absolute, real);
    const stats = await handle.stat();
    const store = new StateFileStore(real, handle, lock, options);
    await store.load(stats);
    return store;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await lock?.release().catch(() => undefined);
    throw error;
  }
}

export class StateFileStore implements ResourceStore {
  readonly path: string;
  #handle: FileHandle;
  #lock: StateFileLock;
  #memory = new MemoryStore();
  /** Resets on disk: every line carries the epoch it was decided in (see state-file-format.ts). */
  #epoch = 0;
  /** Records reserved in memory whose create is not yet on disk, as `collection NUL key`. */
  #pending = new Set<string>();
  /** The changes waiting for the next write, if any. */
  #batch: Batch | undefined;
  #writing: Promise<void> | undefined;
  /** Set while a reset is on its way to disk: later changes wait for it. */
  #barrier: Promise<void> | undefined;
  /** Set when the file could not be put back after a failed write: nothing more is accepted. */
  #broken: Error | undefined;
  /** Why the last write failed (and was undone), until a write succeeds. */
  #writeFailed: StorageFailure | undefined;
  #closed = false;
  #logger: StateFileLogger | undefined;
  #compactMinBytes: number;
  #stats: StateFileStats = { bytes: 0, entries: 0, syncs: 0, records: 0, compactions: 0 };
  #damage: string | undefined;

  /** Use openStateFile. */
  constructor(path: string, handle: FileHandle, lock: StateFileLock, options: StateFileOptions) {
    this.path = path;
    this.#handle = handle;
    this.#lock = lock;
    this.#logger = options.logger;
    this.#compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
  }

  get stats(): Readonly<StateFileStats> {
    return { ...this.#stats };
  }

  /** What the start found damaged and lost, in words (logged at error level too); undefined after a clean start. */
  get damage(): string | undefined {
    return this.#damage;
  }

  /** Records on disk in every collection; a create still being written is not counted. */
  get size(): number {
    return this.#memory.size - this.#pending.size;
  }

  create(collection: string, record: StoredRecord, parent?: ParentRecord): CreateOutcome | Promise<CreateOutcome> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.create(collection, record, parent));
    // A parent still being written is not there yet, as `get` says. The line follows the parent's
    // in the file, and a delete decided later follows it: a replay needs no check of its own.
    if (parent !== undefined && this.#pending.has(pendingKey(parent.collection, parent.key))) return 'parent-missing';
    const outcome = this.#memory.create(collection, record, parent);
    if (outcome !== 'created') return outcome;
    return this.#enqueue({ line: createLine(this.#epoch, collection, record), collection, reserved: [record.key], entries: 1, reset: false }).created;
  }

  seed(collection: string, records: readonly StoredRecord[], parent?: ParentRecord): SeedOutcome | Promise<SeedOutcome> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.seed(collection, records, parent));
    // As a create: a parent still being written is not there yet; its line precedes the seed's.
    if (parent !== undefined && this.#pending.has(pendingKey(parent.collection, parent.key))) return 'parent-missing';
    const outcome = this.#memory.seed(collection, records, parent);
    if (outcome === 'parent-missing' || 'duplicates' in outcome || records.length === 0) return outcome;
    const line = seedLines(this.#epoch, collection, records);
    return this.#enqueue({ line, collection, reserved: records.map((r) => r.key), entries: records.length, reset: false }).written.then(() => outcome);
  }

  get(collection: string, key: RecordKey): StoredRecord | undefined {
    return this.#pending.has(pendingKey(collection, key)) ? undefined : this.#memory.get(collection, key);
  }

  replace(collection: string, record: StoredRecord): ReplaceOutcome | Promise<ReplaceOutcome> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.replace(collection, record));
    const before = this.get(collection, record.key);
    if (!before || this.#memory.replace(collection, record) === 'missing') return 'missing';
    const undo = (): void => void this.#memory.replace(collection, before);
    const line = replaceLine(this.#epoch, collection, record);
    return this.#enqueue({ line, collection, reserved: [], before, undo, entries: 1, reset: false }).written.then(() => 'replaced' as const);
  }

  delete(collection: string, key: RecordKey): DeleteOutcome | Promise<DeleteOutcome> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.delete(collection, key));
    const before = this.get(collection, key);
    if (!before || this.#memory.delete(collection, key) === 'missing') return 'missing';
    // Undone after a failed write, the record comes back at the end of the creation order.
    const undo = (): void => void this.#memory.create(collection, before);
    return this.#enqueue({ line: deleteLine(this.#epoch, collection, key), collection, reserved: [], before, undo, entries: 1, reset: false }).written.then(() => 'deleted' as const);
  }

  reset(): Promise<void> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.reset());
    return this.#behindBarrier(this.#enqueue({ line: resetLine(this.#epoch + 1), collection: '', reserved: [], entries: 1, reset: true }).written);
  }

  clear(collection: string, keep: readonly string[] = []): Promise<void> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.clear(collection, keep));
    const line = clearLine(this.#epoch, collection, keep);
    return this.#behindBarrier(this.#enqueue({ line, collection, reserved: [], entries: 1, reset: false, clear: { collection, keep } }).written);
  }

  /** Holds later changes back until `done` (a reset, a clear) settles: memory forgets only once the disk has it. */
  #behindBarrier(done: Promise<void>): Promise<void> {
    const barrier: Promise<void> = done
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (this.#barrier === barrier) this.#barrier = undefined;
      });
    this.#barrier = barrier;
    return done;
  }

  page(collection: string, query: PageQuery): Page {
    if (this.#pending.size === 0) return this.#memory.page(collection, query);
    // Creates not yet on disk are not shown: a page never lists what a crash could lose.
    const page = this.#memory.page(collection, query);
    return { ...page, records: page.records.filter((record) => !this.#pending.has(pendingKey(collection, record.key))) };
  }

  highestDeleted(collection: string): number {
    return this.#memory.highestDeleted(collection);
  }

  count(collection: string): number {
    let pending = 0;
    for (const entry of this.#pending) if (entry.startsWith(`${collection}\0`)) pending++;
    return this.#memory.count(collection) - pending;
  }

  health(): StoreHealth {
    if (this.#broken) return { state: 'down', kind: 'state-file', detail: this.#broken.message };
    // A disk that refused the last write (full, failing) most likely refuses the next: down until a write succeeds.
    if (this.#writeFailed) return { state: 'down', kind: 'state-file', detail: `${this.#writeFailed.message}; up again once a write succeeds` };
    return { state: 'up', kind: 'state-file', detail: this.path };
  }

  /** Waits for every accepted change to reach the disk, then closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#writing || this.#barrier) await (this.#writing ?? this.#barrier);
    try {
      await this.#handle.close();
    } finally {
      await this.#lock.release();
    }
  }

  /**
   * Replays the file into memory; keeps a copy of damaged bytes, cuts off a torn tail, rewrites a
   * damaged or older-format file; writes the header of a new file (openStateFile calls it).
   */
  async load(stats: Stats): Promise<void> {
    const content = stats.size === 0 ? Buffer.alloc(0) : await this.#handle.readFile();
    const replay = replayStateFile(content, this.path);
    this.#memory = replay.memory;
    this.#epoch = replay.epoch;
    this.#stats.entries = replay.entries;
    this.#stats.bytes = replay.goodBytes;
    const damaged = replay.damaged.length > 0 || replay.dependentCount > 0;
    const copy = replay.damaged.length > 0 || replay.tail ? await this.#keepDamagedBytes(content, replay) : '';
    if (replay.tail) await this.#cutTail(replay, copy);
    if (!replay.header) {
      const header = Buffer.from(headerLine(this.#epoch));
      await this.#handle.truncate(0);
      await writeAll(this.#handle, header, 0);
      await this.#handle.datasync();
      await syncDirectory(this.path);
      this.#stats.bytes = header.length;
    }
    if (replay.header && replay.version !== STATE_FILE_VERSION) {
      // An older format is rewritten in the current one before anything is appended to it.
      await this.#compact();
      if (this.#stats.compactions === 0)
        throw new Error(`Cannot use the state file ${this.path}: it is in format version ${replay.version} and could not be rewritten in version ${STATE_FILE_VERSION}.`);
    } else if (damaged || this.#compactionDue()) {
      await this.#compact();
    }
    if (damaged) {
      const rewritten =
        this.#stats.compactions > 0
          ? 'the file was rewritten without the damage, so the next start is clean'
          : 'the file could not be rewritten (see the warning above): the next start will report this again';
      this.#damage = describeDamage(replay, this.path, copy, rewritten);
      this.#logger?.error(
        {
          path: this.path,
          damaged: replay.damaged,
          lostRecords: replay.damaged.reduce((sum, region) => sum + region.records, 0),
          dependents: replay.dependents,
          dependentCount: replay.dependentCount,
          records: this.size,
          copy,
        },
        this.#damage as string,
      );
    }
  }

  #refusal(): Error | undefined {
    if (this.#closed) return new StorageFailure(`the state file ${this.path} is closed`);
    return this.#broken;
  }

  /** Queues a change for the next write; the batch it joined answers it. */
  #enqueue(operation: Operation): Batch {
    for (const key of operation.reserved) this.#pending.add(pendingKey(operation.collection, key));
    const batch = (this.#batch ??= new Batch());
    batch.operations.push(operation);
    this.#startWriting();
    return batch;
  }

  #startWriting(): void {
    if (this.#writing) return;
    // Start on the next turn of the event loop: the requests read in this turn share one sync.
    this.#writing = new Promise<void>((started) => setImmediate(started))
      .then(() => this.#drain())
      .catch((error: unknown) => {
        // Not expected (#commit and #compact answer their own failures); refuse further changes rather than guess.
        this.#broken ??= new StorageFailure(`the state file ${this.path} stopped writing (${(error as Error).message}); restart the mock`, {
          code: (error as NodeJS.ErrnoException).code,
        });
        this.#logger?.error({ path: this.path, err: error }, 'state file writer failed');
      })
      .finally(() => {
        this.#writing = undefined;
        // Queued after the drain saw an empty queue but before it was marked done.
        if (this.#batch) this.#startWriting();
      });
  }

  async #drain(): Promise<void> {
    for (;;) {
      if (this.#compactionDue()) await this.#compact();
      const batch = this.#batch;
      if (!batch) return;
      this.#batch = undefined;
      await this.#commit(batch);
    }
  }

  /** Writes one batch and syncs it; then answers every operation in it. */
  async #commit(batch: Batch): Promise<void> {
    const operations = batch.operations;
    const data = Buffer.from(operations.length === 1 ? (operations[0] as Operation).line : operations.map((op) => op.line).join(''));
    const start = this.#stats.bytes;
    try {
      if (this.#broken) throw this.#broken;
      writeAllNow(this.#handle, data, start);
      await this.#handle.datasync();
    } catch (cause) {
      await this.#rollBack(batch, start, cause as Error);
      return;
    }
    this.#writeFailed = undefined;
    this.#stats.bytes += data.length;
    this.#stats.syncs += 1;
    this.#stats.records += operations.length;
    for (const op of operations) {
      for (const key of op.reserved) this.#pending.delete(pendingKey(op.collection, key));
      if (op.reset) {
        this.#memory.reset();
        this.#epoch += 1;
      }
      if (op.clear !== undefined) this.#memory.clear(op.clear.collection, op.clear.keep);
      this.#stats.entries += op.entries;
    }
    batch.resolve();
  }

  /**
   * Undoes a batch whose write failed: cut its bytes off the file, free its keys, answer errors.
   * Changes queued behind it were decided against the memory being undone, so they go too.
   */
  async #rollBack(batch: Batch, start: number, cause: Error): Promise<void> {
    const failure = new StorageFailure(`could not write the state file ${this.path}: ${cause.message}`, { code: (cause as NodeJS.ErrnoException).code });
    this.#writeFailed = failure;
    if (!this.#broken) {
      try {
        await this.#handle.truncate(start);
      } catch (truncateError) {
        this.#broken = new StorageFailure(`the state file ${this.path} is unusable after a failed write (${(truncateError as Error).message}); restart the mock`);
      }
    }
    const later = this.#batch;
    this.#batch = undefined;
    const undone = [...batch.operations, ...(later?.operations ?? [])];
    this.#logger?.warn({ path: this.path, err: cause, records: undone.length }, 'state file write failed; the changes were not kept');
    for (const op of undone.reverse()) {
      for (const key of op.reserved) {
        this.#memory.delete(op.collection, key);
        this.#pending.delete(pendingKey(op.collection, key));
      }
      op.undo?.();
    }
    batch.reject(failure);
    later?.reject(failure);
  }

  #compactionDue(): boolean {
    const live = this.size;
    return this.#stats.bytes >= this.#compactMinBytes && this.#stats.entries - live > live;
  }

  /**
   * Rewrites the file with the records on disk now, then renames it over the old one; changes
   * still queued follow in the new file. A failure keeps the old file.
   */
  async #compact(): Promise<void> {
    // Unguessable, created new and never through a symlink: a link planted at a fixed name would be followed.
    const temporary = `${this.path}.compacting-${randomBytes(8).toString('hex')}`;
    let handle: FileHandle | undefined;
    const before = this.#stats.bytes;
    try {
      // Snapshot before the first await: changes made meanwhile belong after it. Memory already
      // shows the queued changes; the first queued change of a key knows what the disk has of it
      // (a create: nothing; a replace or a delete: the record before).
      const onDisk = new Map<string, { collection: string; record: StoredRecord } | null>();
      for (const op of this.#batch?.operations ?? []) {
        for (const key of op.reserved) if (!onDisk.has(pendingKey(op.collection, key))) onDisk.set(pendingKey(op.collection, key), null);
        const key = op.before && pendingKey(op.collection, op.before.key);
        if (key && !onDisk.has(key)) onDisk.set(key, { collection: op.collection, record: op.before as StoredRecord });
      }
      const chunks: Buffer[] = [];
      // The deletes this drops: the header keeps how high each collection's deleted keys went.
      let chunk = headerLine(this.#epoch, this.#memory.deletedNumbers());
      let live = 0;
      const add = (collection: string, record: StoredRecord): void => {
        chunk += createLine(this.#epoch, collection, record);
        live += 1;
        if (chunk.length >= COMPACT_CHUNK_BYTES) {
          chunks.push(Buffer.from(chunk));
          chunk = '';
        }
      };
      for (const [collection, records] of this.#memory.collections()) {
        for (const record of records) {
          const key = pendingKey(collection, record.key);
          const disk = onDisk.get(key);
          if (disk !== undefined) {
            onDisk.delete(key);
            if (disk) add(collection, disk.record);
          } else if (!this.#pending.has(key)) {
            add(collection, record);
          }
        }
      }
      // Deleted in memory by a queued change, still on disk: last in creation order, where a failed delete puts them back.
      for (const disk of onDisk.values()) if (disk) add(disk.collection, disk.record);
      chunks.push(Buffer.from(chunk));
      handle = await open(temporary, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      let position = 0;
      for (const data of chunks) position += await writeAll(handle, data, position);
      await handle.datasync();
      await rename(temporary, this.path);
      // From here on the path names the new file: appends must go to it whatever happens next.
      const old = this.#handle;
      this.#handle = handle;
      handle = undefined;
      await old.close().catch(() => undefined);
      this.#stats.bytes = position;
      this.#stats.entries = live;
      this.#stats.compactions += 1;
      await syncDirectory(this.path).catch((error: unknown) =>
        this.#logger?.warn({ path: this.path, err: error }, 'could not sync the directory after compacting; a crash now may bring back the uncompacted file'),
      );
      this.#logger?.info({ path: this.path, before, after: position, records: live }, 'state file compacted');
    } catch (error) {
      // Keep serving from the old file; try again only once it has doubled.
      this.#compactMinBytes = Math.max(this.#compactMinBytes, before * 2);
      this.#logger?.warn({ path: this.path, err: error }, 'state file compaction failed; keeping the uncompacted file');
      await handle?.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
    }
  }

  /**
   * Copies every damaged region and the torn tail, back to back in file order, to
   * `FILE.corrupt-<time>`; says where (or why no copy could be kept).
   */
  async #keepDamagedBytes(content: Buffer, replay: Replay): Promise<string> {
    const copy = `${this.path}.corrupt-${new Date().toISOString().replaceAll(':', '-')}`;
    const regions = replay.tail ? [...replay.damaged, replay.tail] : replay.damaged;
    try {
      // `wx`: a new file, never one a planted symlink points to.
      await writeFile(copy, Buffer.concat(regions.map((region) => content.subarray(region.from, region.from + region.bytes))), { flag: 'wx' });
      return `a copy of the damaged bytes is kept in ${copy}`;
    } catch (error) {
      return `no copy of the damaged bytes could be kept (${(error as Error).message})`;
    }
  }

  /** Cuts a torn tail off so appends follow good data. */
  async #cutTail(replay: Replay, copy: string): Promise<void> {
    const tail = replay.tail as NonNullable<Replay['tail']>;
    await this.#handle.truncate(tail.from);
    await this.#handle.datasync();
    const seed = tail.seed ? `; an incomplete seed of ${tail.seed.records} record(s), ${tail.seed.onDisk} of them on disk, was never answered and is not applied` : '';
    this.#logger?.warn(
      { path: this.path, skippedBytes: tail.bytes, skippedRecords: tail.records, offset: tail.from, records: this.size, copy },
      `state file ${this.path}: skipped a torn tail of ${tail.bytes} bytes (${tail.records} record(s) from byte ${tail.from}: ${tail.reason})${seed}; ` +
        `loaded the ${this.size} record(s) before it; ${copy}`,
    );
  }
}

function pendingKey(collection: string, key: RecordKey): string {
  return `${collection}\0${key}`;
}

/** Writes all of `data` at `position` (a write may be short); returns the bytes written. */
async function writeAll(handle: FileHandle, data: Buffer, position: number): Promise<number> {
  let written = 0;
  while (written < data.length) {
    const { bytesWritten } = await handle.write(data, written, data.length - written, position + written);
    written += bytesWritten;
  }
  return written;
}

/**
 * Writes all of `data` at `position` on this thread: only the sync waits for the disk, and a round
 * trip through the thread pool for the write would sit on every create's path.
 */
function writeAllNow(handle: FileHandle, data: Buffer, position: number): void {
  let written = 0;
  while (written < data.length) written += writeSync(handle.fd, data, written, data.length - written, position + written);
}

/** Makes a creation or rename inside the directory durable too. */
async function syncDirectory(path: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync there
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

async function openForWriting(path: string, openFile: StateFileOptions['openFile']): Promise<FileHandle> {
  try {
    return await (openFile ? openFile(path) : open(path, constants.O_RDWR | constants.O_CREAT, 0o644));
  } catch (error) {
    throw new Error(`Cannot use the state file ${path}: ${openProblem(error as NodeJS.ErrnoException, path)}`);
  }
}

function openProblem(error: NodeJS.ErrnoException, path: string): string {
  const user = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
  switch (error.code) {
    case 'ENOENT':
      return `its directory ${dirname(path)} does not exist. Create it first, or mount a volume there.`;
    case 'ENOTDIR':
      return `a part of the path ${dirname(path)} is not a directory.`;
    case 'EISDIR':
      return `it is a directory. Give a file path inside it, e.g. ${path}/plants.state.`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied. The file and its directory must be writable by the user the mock runs as${user}.`;
    case 'EROFS':
      return 'it is on a read-only file system. Mount a writable volume for the state.';
    default:
      return error.message;
  }
}
