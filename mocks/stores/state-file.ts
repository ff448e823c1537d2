/**
 * The durable ResourceStore behind `--state-file`: an append-only log of checksummed JSON lines,
 * replayed into a MemoryStore at start.
 *
 * - A change is answered only once its record is on disk (fdatasync). Changes that arrive while
 *   a sync is in flight are written and synced together in the next batch (group commit).
 * - Ids are reserved in memory synchronously, so the duplicate decision stays atomic under
 *   concurrency; a batch whose write fails is cut off the file again and its reservations undone.
 * - A reset waits for nothing but holds back later changes until it is on disk, so no change is
 *   ever decided against memory the disk does not have (a reset cannot be undone otherwise).
 * - Start-up reads the file once (linear); a torn or corrupt tail ends the replay, is copied aside
 *   and cut off, with a warning saying how much was skipped. When most entries are dead (wiped by
 *   a reset) the file is rewritten with the live records only.
 *
 * File format, one record per line: `<crc32 of the JSON, 8 hex digits> <JSON>\n`. The first record
 * is a header naming the format, so a file the mock did not write is never taken over.
 */
import { constants, writeSync, type Stats } from 'node:fs';
import { open, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { crc32 } from 'node:zlib';
import { exactInteger, exactJsonOf, isInt64, parseExactJson } from '../../spec/exact-json.js';
import { MemoryStore } from './memory.js';
import {
  StorageFailure,
  type CreateOutcome,
  type DeleteOutcome,
  type Page,
  type PageQuery,
  type RecordKey,
  type ReplaceOutcome,
  type ResourceStore,
  type SeedOutcome,
  type StoredRecord,
  type StoreHealth,
} from './store.js';

export const STATE_FILE_FORMAT = 'plant-store-mock-state';
/**
 * 2: records of any collection, each as exact JSON under its key. Version 1 files (plants with
 * id, name and tag, written before the spec drove the records) are read and rewritten as 2.
 */
export const STATE_FILE_VERSION = 2;
/** Where version 1 kept its plants: the bundled spec's only collection. */
const VERSION_1_COLLECTION = '/plants';
const HEADER_JSON = JSON.stringify({ op: 'header', format: STATE_FILE_FORMAT, version: STATE_FILE_VERSION });
/** Compaction is not worth a rewrite below this size, however dead the file is. */
const DEFAULT_COMPACT_MIN_BYTES = 1024 * 1024;
/** Compaction writes the live records in chunks of about this size. */
const COMPACT_CHUNK_BYTES = 1024 * 1024;

/** What the store reports: a skipped tail, a compaction, a failed write. pino's logger fits. */
export interface StateFileLogger {
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

/** What the start-up replay found. */
interface Replay {
  memory: MemoryStore;
  /** Records written in this file, live or dead. */
  entries: number;
  /** The format version the header names. */
  version: number;
  /** Bytes of the good prefix: everything before the first torn or corrupt record. */
  goodBytes: number;
  header: boolean;
  tail?: { from: number; bytes: number; records: number; reason: string };
}

type Operation = {
  line: string;
  collection: string;
  /** The keys it reserved (create, seed), released once on disk and freed again if the write fails. */
  reserved: readonly RecordKey[];
  /** Undoes the change in memory if the write fails (replace, delete). */
  undo?: () => void;
  /** Records the line adds to the file (for compaction's count). */
  entries: number;
  reset: boolean;
  resolve: () => void;
  reject: (error: Error) => void;
};

/** Opens (or creates) the state file and replays it. Throws an Error naming the file and the fix. */
export async function openStateFile(path: string, options: StateFileOptions = {}): Promise<StateFileStore> {
  const absolute = resolvePath(path);
  const handle = await openForWriting(absolute, options.openFile);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`Cannot use the state file ${absolute}: it is not a regular file.`);
    const store = new StateFileStore(absolute, handle, options);
    await store.load(stats);
    return store;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

export class StateFileStore implements ResourceStore {
  readonly path: string;
  #handle: FileHandle;
  #memory = new MemoryStore();
  /** Records reserved in memory whose create is not yet on disk, as `collection NUL key`. */
  #pending = new Set<string>();
  #queue: Operation[] = [];
  #writing: Promise<void> | undefined;
  /** Set while a reset is on its way to disk: later changes wait for it. */
  #barrier: Promise<void> | undefined;
  /** Set when the file could not be put back after a failed write: nothing more is accepted. */
  #broken: Error | undefined;
  #closed = false;
  #logger: StateFileLogger | undefined;
  #compactMinBytes: number;
  #stats: StateFileStats = { bytes: 0, entries: 0, syncs: 0, records: 0, compactions: 0 };

  /** Use openStateFile. */
  constructor(path: string, handle: FileHandle, options: StateFileOptions) {
    this.path = path;
    this.#handle = handle;
    this.#logger = options.logger;
    this.#compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
  }

  get stats(): Readonly<StateFileStats> {
    return { ...this.#stats };
  }

  /** Records on disk in every collection; a create still being written is not counted. */
  get size(): number {
    return this.#memory.size - this.#pending.size;
  }

  create(collection: string, record: StoredRecord): CreateOutcome | Promise<CreateOutcome> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.create(collection, record));
    if (this.#memory.create(collection, record) === 'duplicate') return 'duplicate';
    return this.#enqueue({ line: createLine(collection, record), collection, reserved: [record.key], entries: 1, reset: false }).then(() => 'created' as const);
  }

  seed(collection: string, records: readonly StoredRecord[]): SeedOutcome | Promise<SeedOutcome> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.seed(collection, records));
    const outcome = this.#memory.seed(collection, records);
    if ('duplicates' in outcome || records.length === 0) return outcome;
    const line = seedLine(collection, records);
    return this.#enqueue({ line, collection, reserved: records.map((r) => r.key), entries: records.length, reset: false }).then(() => outcome);
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
    return this.#enqueue({ line: replaceLine(collection, record), collection, reserved: [], undo, entries: 1, reset: false }).then(() => 'replaced' as const);
  }

  delete(collection: string, key: RecordKey): DeleteOutcome | Promise<DeleteOutcome> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.delete(collection, key));
    const before = this.get(collection, key);
    if (!before || this.#memory.delete(collection, key) === 'missing') return 'missing';
    // Undone after a failed write, the record comes back at the end of the creation order.
    const undo = (): void => void this.#memory.create(collection, before);
    return this.#enqueue({ line: deleteLine(collection, key), collection, reserved: [], undo, entries: 1, reset: false }).then(() => 'deleted' as const);
  }

  reset(): Promise<void> {
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.#barrier) return this.#barrier.then(() => this.reset());
    const done = this.#enqueue({ line: recordLine('{"op":"reset"}'), collection: '', reserved: [], entries: 1, reset: true });
    const barrier: Promise<void> = done.then(
      () => undefined,
      () => undefined,
    ).then(() => {
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

  count(collection: string): number {
    let pending = 0;
    for (const entry of this.#pending) if (entry.startsWith(`${collection}\0`)) pending++;
    return this.#memory.count(collection) - pending;
  }

  health(): StoreHealth {
    if (this.#broken) return { state: 'down', kind: 'state-file', detail: this.#broken.message };
    return { state: 'up', kind: 'state-file', detail: this.path };
  }

  /** Waits for every accepted change to reach the disk, then closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#writing || this.#barrier) await (this.#writing ?? this.#barrier);
    await this.#handle.close();
  }

  /** Replays the file into memory, cuts off a bad tail, writes the header of a new file (openStateFile calls it). */
  async load(stats: Stats): Promise<void> {
    const content = stats.size === 0 ? Buffer.alloc(0) : await this.#handle.readFile();
    const replay = replayStateFile(content, this.path);
    this.#memory = replay.memory;
    // A version 1 file is rewritten in the current format before anything is appended to it.
    const rewrite = replay.header && replay.version !== STATE_FILE_VERSION;
    this.#stats.entries = replay.entries;
    this.#stats.bytes = replay.goodBytes;
    if (replay.tail) await this.#cutTail(content, replay);
    if (!replay.header) {
      await this.#handle.truncate(0);
      await writeAll(this.#handle, Buffer.from(recordLine(HEADER_JSON)), 0);
      await this.#handle.datasync();
      await syncDirectory(this.path);
      this.#stats.bytes = Buffer.byteLength(recordLine(HEADER_JSON));
    }
    if (rewrite) {
      await this.#compact();
      if (this.#stats.compactions === 0) throw new Error(`Cannot use the state file ${this.path}: it is in format version ${replay.version} and could not be rewritten in version ${STATE_FILE_VERSION}.`);
    } else if (this.#compactionDue()) await this.#compact();
  }

  #refusal(): Error | undefined {
    if (this.#closed) return new StorageFailure(`the state file ${this.path} is closed`);
    return this.#broken;
  }

  #enqueue(operation: Omit<Operation, 'resolve' | 'reject'>): Promise<void> {
    for (const key of operation.reserved) this.#pending.add(pendingKey(operation.collection, key));
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ ...operation, resolve, reject });
      this.#startWriting();
    });
  }

  #startWriting(): void {
    if (this.#writing) return;
    // Start on the next turn of the event loop: the requests read in this turn share one sync.
    this.#writing = new Promise<void>((started) => setImmediate(started))
      .then(() => this.#drain())
      .finally(() => {
        this.#writing = undefined;
        // Queued after the drain saw an empty queue but before it was marked done.
        if (this.#queue.length > 0) this.#startWriting();
      });
  }

  async #drain(): Promise<void> {
    for (;;) {
      if (this.#compactionDue()) await this.#compact();
      if (this.#queue.length === 0) return;
      const batch = this.#queue;
      this.#queue = [];
      await this.#commit(batch);
    }
  }

  /** Writes one batch and syncs it; then answers every operation in it. */
  async #commit(batch: Operation[]): Promise<void> {
    const data = Buffer.from(batch.length === 1 ? (batch[0] as Operation).line : batch.map((op) => op.line).join(''));
    const start = this.#stats.bytes;
    try {
      if (this.#broken) throw this.#broken;
      writeAllNow(this.#handle, data, start);
      await this.#handle.datasync();
    } catch (cause) {
      await this.#rollBack(batch, start, cause as Error);
      return;
    }
    this.#stats.bytes += data.length;
    this.#stats.syncs += 1;
    this.#stats.records += batch.length;
    for (const op of batch) {
      for (const key of op.reserved) this.#pending.delete(pendingKey(op.collection, key));
      if (op.reset) this.#memory.reset();
      this.#stats.entries += op.entries;
      op.resolve();
    }
  }

  /** Undoes a batch whose write failed: cut its bytes off the file, free its keys, answer errors. */
  async #rollBack(batch: Operation[], start: number, cause: Error): Promise<void> {
    const failure = new StorageFailure(`could not write the state file ${this.path}: ${cause.message}`);
    if (!this.#broken) {
      try {
        await this.#handle.truncate(start);
      } catch (truncateError) {
        this.#broken = new StorageFailure(
          `the state file ${this.path} is unusable after a failed write (${(truncateError as Error).message}); restart the mock`,
        );
      }
    }
    this.#logger?.warn({ path: this.path, err: cause, records: batch.length }, 'state file write failed; the changes were not kept');
    for (const op of batch.reverse()) {
      for (const key of op.reserved) {
        this.#memory.delete(op.collection, key);
        this.#pending.delete(pendingKey(op.collection, key));
      }
      op.undo?.();
      op.reject(failure);
    }
  }

  #compactionDue(): boolean {
    const live = this.size;
    return this.#stats.bytes >= this.#compactMinBytes && this.#stats.entries - live > live;
  }

  /**
   * Rewrites the file with the records on disk now (not creates still queued: their records follow
   * in the new file), then renames it over the old one. A failure keeps the old file.
   */
  async #compact(): Promise<void> {
    const temporary = `${this.path}.compacting`;
    let handle: FileHandle | undefined;
    const before = this.#stats.bytes;
    try {
      // Snapshot before the first await: creates reserved meanwhile belong after it.
      const chunks: Buffer[] = [];
      let chunk = recordLine(HEADER_JSON);
      let live = 0;
      for (const [collection, records] of this.#memory.collections()) {
        for (const record of records) {
          if (this.#pending.has(pendingKey(collection, record.key))) continue;
          chunk += createLine(collection, record);
          live += 1;
          if (chunk.length >= COMPACT_CHUNK_BYTES) {
            chunks.push(Buffer.from(chunk));
            chunk = '';
          }
        }
      }
      chunks.push(Buffer.from(chunk));
      handle = await open(temporary, 'w+');
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

  /** Keeps a copy of the skipped bytes next to the file, then cuts them off so appends follow good data. */
  async #cutTail(content: Buffer, replay: Replay): Promise<void> {
    const tail = replay.tail as NonNullable<Replay['tail']>;
    const copy = `${this.path}.corrupt-${new Date().toISOString().replaceAll(':', '-')}`;
    let kept = `a copy is kept in ${copy}`;
    try {
      await writeFile(copy, content.subarray(tail.from));
    } catch (error) {
      kept = `no copy could be kept (${(error as Error).message})`;
    }
    await this.#handle.truncate(tail.from);
    await this.#handle.datasync();
    this.#logger?.warn(
      { path: this.path, skippedBytes: tail.bytes, skippedRecords: tail.records, offset: tail.from, records: this.size, copy },
      `state file ${this.path}: skipped a torn or corrupt tail of ${tail.bytes} bytes (${tail.records} record(s) from byte ${tail.from}: ${tail.reason}); ` +
        `loaded the ${this.size} record(s) before it; ${kept}`,
    );
  }
}

/**
 * Replays a state file's content. Stops at the first record that is torn, fails its checksum or
 * cannot be applied: nothing after it is trusted. Throws when the file is not a state file.
 */
export function replayStateFile(content: Buffer, path: string): Replay {
  const memory = new MemoryStore();
  const replay: Replay = { memory, entries: 0, version: STATE_FILE_VERSION, goodBytes: 0, header: false };
  let position = 0;
  while (position < content.length) {
    const end = content.indexOf(0x0a, position);
    if (end === -1) {
      if (replay.header) {
        replay.tail = tailFrom(content, position, 'the last record is incomplete (a torn write)');
        break;
      }
      // A header torn while the file was being created: the file is new.
      if (Buffer.from(recordLine(HEADER_JSON)).subarray(0, content.length).equals(content)) return replay;
      throw notAStateFile(path);
    }
    const record = readRecord(content, position, end);
    if (!replay.header) {
      if (typeof record === 'string' || record.op !== 'header' || record.format !== STATE_FILE_FORMAT) throw notAStateFile(path);
      if (record.version !== STATE_FILE_VERSION && record.version !== 1) {
        throw new Error(`Cannot use the state file ${path}: it has format version ${String(record.version)}; this mock reads versions 1 and ${STATE_FILE_VERSION}.`);
      }
      replay.version = record.version as number;
      replay.header = true;
    } else {
      const problem = typeof record === 'string' ? record : replay.version === 1 ? applyVersion1Record(record, replay) : applyRecord(record, replay);
      if (problem) {
        replay.tail = tailFrom(content, position, problem);
        break;
      }
    }
    position = end + 1;
    replay.goodBytes = position;
  }
  return replay;
}

function notAStateFile(path: string): Error {
  return new Error(
    `Cannot use the state file ${path}: it is not a plant-store-mock state file (it does not start with the state-file header), ` +
      'so the mock will not overwrite it. Point --state-file at a new file or at one the mock wrote.',
  );
}

function tailFrom(content: Buffer, from: number, reason: string): NonNullable<Replay['tail']> {
  let records = 0;
  for (let at = content.indexOf(0x0a, from); at !== -1; at = content.indexOf(0x0a, at + 1)) records += 1;
  if (content[content.length - 1] !== 0x0a) records += 1;
  return { from, bytes: content.length - from, records, reason };
}

/** The JSON object of one checksummed line, or why it is not one. */
function readRecord(content: Buffer, start: number, end: number): Record<string, unknown> | string {
  if (end - start < 10 || content[start + 8] !== 0x20) return 'not a checksummed record';
  const checksum = content.toString('latin1', start, start + 8);
  if (!/^[0-9a-f]{8}$/.test(checksum)) return 'not a checksummed record';
  const json = content.subarray(start + 9, end);
  if (crc32(json) !== Number.parseInt(checksum, 16)) return 'checksum mismatch';
  let value: unknown;
  try {
    value = parseExactJson(json.toString('utf8'));
  } catch {
    return 'not JSON';
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : 'not a record';
}

/** Applies one record to the replay; returns a problem when it cannot be applied. */
function applyRecord(record: Record<string, unknown>, replay: Replay): string | undefined {
  const collection = record.c;
  if (record.op === 'reset') {
    replay.memory.reset();
    replay.entries += 1;
    return undefined;
  }
  if (typeof collection !== 'string') return `a ${String(record.op)} record without a collection`;
  switch (record.op) {
    case 'create': {
      const stored = storedOf(record);
      if (!stored) return 'a create record without a key and a record';
      if (replay.memory.create(collection, stored) === 'duplicate') return `a create record repeats key ${stored.key}`;
      replay.entries += 1;
      return undefined;
    }
    case 'seed': {
      const items = Array.isArray(record.records) ? record.records : [];
      const records = items.map((item) => (item !== null && typeof item === 'object' ? storedOf(item as Record<string, unknown>) : undefined));
      if (!Array.isArray(record.records) || records.some((r) => !r)) return 'a seed record without valid records';
      const outcome = replay.memory.seed(collection, records as StoredRecord[]);
      if ('duplicates' in outcome) return `a seed record repeats keys ${outcome.duplicates.join(', ')}`;
      replay.entries += records.length;
      return undefined;
    }
    case 'replace': {
      const stored = storedOf(record);
      if (!stored || replay.memory.replace(collection, stored) === 'missing') return 'a replace record for a record that is not there';
      replay.entries += 1;
      return undefined;
    }
    case 'delete': {
      if (typeof record.key !== 'string' || replay.memory.delete(collection, record.key) === 'missing') return 'a delete record for a record that is not there';
      replay.entries += 1;
      return undefined;
    }
    default:
      return `an unknown record ${JSON.stringify(String(record.op))}`;
  }
}

/** The key and the exact JSON of a create, seed or replace record. */
function storedOf(record: Record<string, unknown>): StoredRecord | undefined {
  const value = record.record;
  if (typeof record.key !== 'string' || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return { key: record.key, json: exactJsonOf(record, 'record') };
}

/** Version 1: `{"op":"create","id":…,"name":…,"tag":…}` and seeds of such plants, all in /plants. */
function applyVersion1Record(record: Record<string, unknown>, replay: Replay): string | undefined {
  switch (record.op) {
    case 'create': {
      const plant = version1Plant(record);
      if (!plant) return 'a create record without a valid plant';
      if (replay.memory.create(VERSION_1_COLLECTION, plant) === 'duplicate') return `a create record repeats id ${plant.key}`;
      replay.entries += 1;
      return undefined;
    }
    case 'seed': {
      const items = Array.isArray(record.plants) ? record.plants : [];
      const plants = items.map((item) => (item !== null && typeof item === 'object' ? version1Plant(item as Record<string, unknown>) : undefined));
      if (!Array.isArray(record.plants) || plants.some((plant) => !plant)) return 'a seed record without valid plants';
      const outcome = replay.memory.seed(VERSION_1_COLLECTION, plants as StoredRecord[]);
      if ('duplicates' in outcome) return `a seed record repeats ids ${outcome.duplicates.join(', ')}`;
      replay.entries += plants.length;
      return undefined;
    }
    case 'reset':
      replay.memory.reset();
      replay.entries += 1;
      return undefined;
    default:
      return `an unknown record ${JSON.stringify(String(record.op))}`;
  }
}

function version1Plant(record: Record<string, unknown>): StoredRecord | undefined {
  const id = exactInteger(record, 'id');
  if (id === undefined || !isInt64(id) || typeof record.name !== 'string') return undefined;
  if (record.tag !== undefined && typeof record.tag !== 'string') return undefined;
  const tag = record.tag === undefined ? '' : `,"tag":${JSON.stringify(record.tag)}`;
  return { key: id.toString(), json: `{"id":${id.toString()},"name":${JSON.stringify(record.name)}${tag}}` };
}

function pendingKey(collection: string, key: RecordKey): string {
  return `${collection}\0${key}`;
}

function createLine(collection: string, record: StoredRecord): string {
  return recordLine(`{"op":"create","c":${JSON.stringify(collection)},"key":${JSON.stringify(record.key)},"record":${record.json}}`);
}

function replaceLine(collection: string, record: StoredRecord): string {
  return recordLine(`{"op":"replace","c":${JSON.stringify(collection)},"key":${JSON.stringify(record.key)},"record":${record.json}}`);
}

function deleteLine(collection: string, key: RecordKey): string {
  return recordLine(`{"op":"delete","c":${JSON.stringify(collection)},"key":${JSON.stringify(key)}}`);
}

function seedLine(collection: string, records: readonly StoredRecord[]): string {
  const items = records.map((record) => `{"key":${JSON.stringify(record.key)},"record":${record.json}}`).join(',');
  return recordLine(`{"op":"seed","c":${JSON.stringify(collection)},"records":[${items}]}`);
}

function recordLine(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
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
 * Writes all of `data` at `position` on this thread. Only the sync waits for the disk; handing a
 * batch of a few kilobytes to the page cache takes microseconds, less than a round trip through
 * the thread pool, and that round trip is on every create's path.
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
