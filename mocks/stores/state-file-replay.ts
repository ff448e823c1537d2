/**
 * Start-up replay of a state file: one linear pass that keeps every record whose checksum holds.
 *
 * - Damaged bytes followed by intact records (a flipped byte, a bad sector: not a crash, since a
 *   torn write is cut off at the next start before anything follows it) cost only the records
 *   they hit. The replay finds the next record start and goes on, and says what it lost and where.
 * - Damaged or incomplete bytes at the end are a torn write (a crash before the sync that would
 *   have answered them): skipped, with a warning.
 * - Records that depend on a lost one are applied by fixed rules and reported:
 *   a replace of a key that is not there brings the record back as that replace wrote it (its
 *   create was lost); a delete of a key that is not there changes nothing (its create was lost);
 *   a create of a key that is taken wins over the older record (a delete of it was lost); a record
 *   of a later epoch than the replay's wipes what came before (a reset was lost); a seed whose
 *   parts were partly lost keeps the parts that are intact. A seed cut off by the end of the file
 *   was never answered and is not applied at all.
 */
import { exactInteger, exactJsonOf, isInt64 } from '../../openapi/schema/exact-json.js';
import { MemoryStore } from './memory.js';
import { headerLine, looksLikeRecord, READABLE_VERSIONS, readRecord, recordStartsIn, STATE_FILE_FORMAT, STATE_FILE_VERSION } from './state-file-format.js';
import type { RecordKey, StoredRecord } from './store.js';

/** Where version 1 kept its plants: the bundled spec's only collection. */
const VERSION_1_COLLECTION = '/plants';
/** Dependents listed one by one in the log's details; the rest are counted. */
const LISTED_DEPENDENTS = 100;

/** Bytes that did not hold an intact record, and how many records they held (counted by their starts). */
export interface DamagedRegion {
  from: number;
  bytes: number;
  records: number;
  reason: string;
}

export type DependentKind = 'replace-restored-record' | 'delete-of-missing-record' | 'create-over-live-record' | 'lost-reset' | 'record-of-earlier-epoch' | 'partial-seed';

/** A record applied by a rule because a record it depends on was lost. */
export interface Dependent {
  kind: DependentKind;
  /** Where the record that was applied by the rule starts. */
  offset: number;
  detail: string;
}

export interface Replay {
  memory: MemoryStore;
  /** Records written in this file, live or dead. */
  entries: number;
  /** The format version the header names (or the records show, when the header was lost). */
  version: number;
  /** Resets before the end of the file. */
  epoch: number;
  /** False for a new file (empty, or a header torn while it was created). */
  header: boolean;
  /** Bytes to keep: all but a torn tail. */
  goodBytes: number;
  /** Damaged regions followed by intact records, in file order. */
  damaged: DamagedRegion[];
  /** A torn or damaged end, with no intact record after it. */
  tail?: DamagedRegion & { seed?: { records: number; onDisk: number } };
  /** The first LISTED_DEPENDENTS dependents; `dependentCount` counts them all. */
  dependents: Dependent[];
  dependentCount: number;
}

interface SeedGroup {
  from: number;
  collection: string;
  epoch: number | undefined;
  n: number;
  /** The part expected next. */
  next: number;
  records: StoredRecord[];
  /** Where each record's line starts (for reports). */
  offsets: number[];
}

/**
 * Replays a state file's content. Throws when the file is not a state file (no header and no
 * record a state file holds) or is in a version this mock cannot read.
 */
export function replayStateFile(content: Buffer, path: string): Replay {
  return new Replayer(content, path).run();
}

class Replayer {
  readonly #content: Buffer;
  readonly #path: string;
  readonly #replay: Replay;
  /** Whether the header (or, when it was lost, the first record) has been read. */
  #started = false;
  /** Versions before 3 carry no epochs. */
  #epochs = true;
  #open: { from: number; to: number; records: number; pieces: number; reason: string } | undefined;
  #group: SeedGroup | undefined;

  constructor(content: Buffer, path: string) {
    this.#content = content;
    this.#path = path;
    this.#replay = {
      memory: new MemoryStore(),
      entries: 0,
      version: STATE_FILE_VERSION,
      epoch: 0,
      header: false,
      goodBytes: content.length,
      damaged: [],
      dependents: [],
      dependentCount: 0,
    };
  }

  run(): Replay {
    const content = this.#content;
    if (content.length === 0) return this.#replay;
    let position = 0;
    while (position < content.length) {
      const end = content.indexOf(0x0a, position);
      if (end === -1) {
        // A header torn while the file was created: the file is new.
        if (position === 0 && Buffer.from(headerLine(0)).subarray(0, content.length).equals(content)) return this.#replay;
        this.#bad(position, content.length, 'the last record is incomplete (a torn write)');
        break;
      }
      const record = readRecord(content, position, end);
      if (typeof record !== 'string') {
        const problem = this.#accept(record, position);
        if (problem === undefined) this.#good();
        else this.#bad(position, end + 1, problem);
      } else {
        this.#failedLine(position, end, record);
      }
      position = end + 1;
    }
    if (!this.#started) throw notAStateFile(this.#path);
    this.#finish();
    return this.#replay;
  }

  /**
   * A line whose checksum fails may still hold intact records: a newline damaged into another
   * byte joins a record to the next. Each record start in the line is tried up to the next one.
   */
  #failedLine(start: number, end: number, reason: string): void {
    const starts = recordStartsIn(this.#content, start, end);
    for (let k = 0; k < starts.length; k++) {
      const from = starts[k] as number;
      const last = k === starts.length - 1;
      // The byte before the next start should have been a newline.
      const to = last ? end : (starts[k + 1] as number) - 1;
      const record = k === 0 && last ? reason : readRecord(this.#content, from, to);
      const problem = typeof record === 'string' ? record : this.#accept(record, from);
      if (problem === undefined) {
        this.#good();
        if (!last) this.#bad(to, to + 1, 'a damaged newline', true);
      } else {
        this.#bad(from, last ? end + 1 : to + 1, problem);
      }
    }
  }

  /** An intact record was applied: a damaged region before it is in the middle of the file. */
  #good(): void {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    this.#replay.damaged.push({ from: open.from, bytes: open.to - open.from, records: open.records || (open.pieces ? 1 : 0), reason: open.reason });
  }

  #bad(from: number, to: number, reason: string, separator = false): void {
    const records = !separator && looksLikeRecord(this.#content, from, to) ? 1 : 0;
    const pieces = separator ? 0 : 1;
    if (this.#open && this.#open.to === from) {
      this.#open.to = to;
      this.#open.records += records;
      this.#open.pieces += pieces;
    } else {
      this.#good();
      this.#open = { from, to, records, pieces, reason };
    }
  }

  /** The end of the file: a damaged region still open is a torn tail; so is a seed cut off. */
  #finish(): void {
    const replay = this.#replay;
    const group = this.#group;
    this.#group = undefined;
    let tail = this.#open && { from: this.#open.from, bytes: this.#open.to - this.#open.from, records: this.#open.records || 1, reason: this.#open.reason };
    if (group) {
      // Its last part never reached the disk, so the seed was never answered: none of it is applied.
      const from = tail ? Math.min(tail.from, group.from) : group.from;
      const inside = replay.damaged.filter((region) => region.from >= from);
      replay.damaged = replay.damaged.filter((region) => region.from < from);
      const lost = inside.reduce((sum, region) => sum + region.records, 0) + (tail?.records ?? 0);
      tail = {
        from,
        bytes: this.#content.length - from,
        records: group.records.length + lost,
        reason: tail?.reason ?? `a seed of ${group.n} record(s) is cut off after part ${group.next} (a torn write)`,
      };
      replay.entries -= group.records.length;
      replay.tail = { ...tail, seed: { records: group.n, onDisk: group.records.length } };
    } else if (tail) {
      replay.tail = tail;
    }
    if (replay.tail) replay.goodBytes = replay.tail.from;
  }

  /** Applies one intact record; returns why it cannot be applied. */
  #accept(record: Record<string, unknown>, offset: number): string | undefined {
    if (!this.#started) {
      const problem = this.#begin(record, offset);
      if (problem !== undefined || record.op === 'header') return problem;
    } else if (record.op === 'header') {
      return 'a header in the middle of the file';
    }
    const replay = this.#replay;
    if (replay.version === 1) return this.#applyVersion1(record, offset);

    const epoch = record.e;
    if (this.#epochs && (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0)) return `a ${String(record.op)} record without an epoch`;
    if (record.op === 'seed' && Array.isArray(record.records)) return this.#applyVersion2Seed(record, offset);
    if (record.op === 'seed' && this.#continuesGroup(record, epoch as number | undefined)) return this.#addToGroup(record, offset);
    this.#closeGroup();
    if (record.op === 'reset') {
      replay.memory.reset();
      if (this.#epochs) replay.epoch = Math.max(replay.epoch, epoch as number);
      replay.entries += 1;
      return undefined;
    }
    if (typeof record.c !== 'string') return `a ${String(record.op)} record without a collection`;
    const known = record.op === 'create' || record.op === 'replace' || record.op === 'delete' || record.op === 'seed' || (record.op === 'clear' && this.#epochs);
    if (!known) return `an unknown record ${JSON.stringify(String(record.op))}`;
    if (this.#epochs) this.#checkEpoch(epoch as number, offset);

    const collection = record.c;
    switch (record.op) {
      case 'create': {
        const stored = storedOf(record);
        if (!stored) return 'a create record without a key and a record';
        this.#create(collection, stored, offset);
        break;
      }
      case 'seed':
        return this.#startGroup(record, offset, epoch as number);
      case 'replace': {
        const stored = storedOf(record);
        if (!stored) return 'a replace record without a key and a record';
        if (replay.memory.replace(collection, stored) === 'missing') {
          replay.memory.create(collection, stored);
          this.#dependent(
            'replace-restored-record',
            offset,
            `a replace of ${describeKey(collection, stored.key)} found no record (its create was lost): the record is restored as that replace wrote it, last in creation order`,
          );
        }
        break;
      }
      case 'clear': {
        // Templates the clear kept (state-file-format.ts); a member that is not a list of strings keeps nothing more.
        const keep = Array.isArray(record.k) ? record.k.filter((template): template is string => typeof template === 'string') : [];
        replay.memory.clear(collection, keep);
        break;
      }
      case 'delete': {
        if (typeof record.key !== 'string') return 'a delete record without a key';
        if (replay.memory.delete(collection, record.key) === 'missing') {
          this.#dependent('delete-of-missing-record', offset, `a delete of ${describeKey(collection, record.key)} found no record (its create was lost): nothing to delete`);
        }
        break;
      }
    }
    replay.entries += 1;
    return undefined;
  }

  /** The header, or, when it was lost, the first intact record: which version the file is in. */
  #begin(record: Record<string, unknown>, offset: number): string | undefined {
    const replay = this.#replay;
    if (record.op === 'header') {
      if (record.format !== STATE_FILE_FORMAT) throw notAStateFile(this.#path);
      if (typeof record.version !== 'number' || !READABLE_VERSIONS.includes(record.version)) {
        throw new Error(`Cannot use the state file ${this.#path}: it has format version ${String(record.version)}; this mock reads versions ${READABLE_VERSIONS.join(', ')}.`);
      }
      replay.version = record.version;
      this.#epochs = record.version >= 3;
      if (this.#epochs) {
        if (typeof record.epoch !== 'number' || !Number.isSafeInteger(record.epoch) || record.epoch < 0) return 'a header without an epoch';
        replay.epoch = record.epoch;
      }
      // A compaction's record of the deletes it dropped (state-file-format.ts).
      const deleted = record.deleted;
      if (deleted !== null && typeof deleted === 'object' && !Array.isArray(deleted)) {
        for (const [collection, number] of Object.entries(deleted)) if (Number.isSafeInteger(number) && (number as number) > 0) replay.memory.noteDeleted(collection, number as number);
      }
    } else {
      // An intact record that is not a header at the very start: a file of some other program.
      if (offset === 0) throw notAStateFile(this.#path);
      const version = versionOf(record);
      if (version === undefined) return `an unknown record ${JSON.stringify(String(record.op))}`;
      replay.version = version;
      this.#epochs = version >= 3;
      // The header and the records before this one were lost: the first epoch shown is the file's.
      if (this.#epochs && typeof record.e === 'number') replay.epoch = record.op === 'reset' ? Math.max(0, record.e - 1) : record.e;
    }
    replay.header = true;
    this.#started = true;
    return undefined;
  }

  /** A record of a later epoch: a reset (or several) was lost before it. */
  #checkEpoch(epoch: number, offset: number): void {
    const replay = this.#replay;
    if (epoch > replay.epoch) {
      const wiped = replay.memory.size;
      replay.memory.reset();
      this.#dependent(
        'lost-reset',
        offset,
        `a record of epoch ${epoch} follows epoch ${replay.epoch}: ${epoch - replay.epoch} reset(s) were lost, so the ${wiped} record(s) before stay wiped as the reset did`,
      );
      replay.epoch = epoch;
    } else if (epoch < replay.epoch) {
      this.#dependent('record-of-earlier-epoch', offset, `a record of epoch ${epoch} follows epoch ${replay.epoch}: applied as it is`);
    }
  }

  /** A create (or seeded record) of a key that is taken: a delete of it was lost, the later create wins. */
  #create(collection: string, record: StoredRecord, offset: number): void {
    const memory = this.#replay.memory;
    if (memory.create(collection, record) === 'created') return;
    memory.delete(collection, record.key);
    memory.create(collection, record);
    this.#dependent(
      'create-over-live-record',
      offset,
      `a create of ${describeKey(collection, record.key)} found the key taken (a delete of it was lost): the later record wins, last in creation order`,
    );
  }

  #continuesGroup(record: Record<string, unknown>, epoch: number | undefined): boolean {
    const group = this.#group;
    return (
      group !== undefined &&
      record.c === group.collection &&
      epoch === group.epoch &&
      record.n === group.n &&
      typeof record.i === 'number' &&
      Number.isSafeInteger(record.i) &&
      record.i >= group.next &&
      record.i < group.n
    );
  }

  #startGroup(record: Record<string, unknown>, offset: number, epoch: number): string | undefined {
    const { n, i } = record;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0 || i >= n) {
      return 'a seed record without a valid part number';
    }
    this.#group = { from: offset, collection: record.c as string, epoch: this.#epochs ? epoch : undefined, n, next: 0, records: [], offsets: [] };
    return this.#addToGroup(record, offset);
  }

  #addToGroup(record: Record<string, unknown>, offset: number): string | undefined {
    const group = this.#group as SeedGroup;
    const stored = storedOf(record);
    if (!stored) return 'a seed record without a key and a record';
    group.records.push(stored);
    group.offsets.push(offset);
    group.next = (record.i as number) + 1;
    this.#replay.entries += 1;
    if (group.next === group.n) this.#closeGroup();
    return undefined;
  }

  /** Applies the seed read so far: whole, or (its other parts lost in damaged bytes) what is left of it. */
  #closeGroup(): void {
    const group = this.#group;
    if (!group) return;
    this.#group = undefined;
    group.records.forEach((record, index) => this.#create(group.collection, record, group.offsets[index] as number));
    const lost = group.n - group.records.length;
    if (lost > 0) {
      this.#dependent('partial-seed', group.from, `a seed of ${group.n} record(s) into ${group.collection} lost ${lost} of them: the ${group.records.length} intact one(s) are kept`);
    }
  }

  /** Version 2's seed: one line with every record. */
  #applyVersion2Seed(record: Record<string, unknown>, offset: number): string | undefined {
    this.#closeGroup();
    if (typeof record.c !== 'string') return 'a seed record without a collection';
    const records = (record.records as unknown[]).map((item) => (item !== null && typeof item === 'object' ? storedOf(item as Record<string, unknown>) : undefined));
    if (records.some((r) => !r)) return 'a seed record without valid records';
    for (const stored of records as StoredRecord[]) this.#create(record.c, stored, offset);
    this.#replay.entries += records.length;
    return undefined;
  }

  /** Version 1: `{"op":"create","id":…,"name":…,"tag":…}` and seeds of such plants, all in /plants. */
  #applyVersion1(record: Record<string, unknown>, offset: number): string | undefined {
    const replay = this.#replay;
    switch (record.op) {
      case 'create': {
        const plant = version1Plant(record);
        if (!plant) return 'a create record without a valid plant';
        this.#create(VERSION_1_COLLECTION, plant, offset);
        replay.entries += 1;
        return undefined;
      }
      case 'seed': {
        const items = Array.isArray(record.plants) ? record.plants : [];
        const plants = items.map((item) => (item !== null && typeof item === 'object' ? version1Plant(item as Record<string, unknown>) : undefined));
        if (!Array.isArray(record.plants) || plants.some((plant) => !plant)) return 'a seed record without valid plants';
        for (const plant of plants as StoredRecord[]) this.#create(VERSION_1_COLLECTION, plant, offset);
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

  #dependent(kind: DependentKind, offset: number, detail: string): void {
    const replay = this.#replay;
    replay.dependentCount += 1;
    if (replay.dependents.length < LISTED_DEPENDENTS) replay.dependents.push({ kind, offset, detail });
  }
}

/** The version whose records look like this one (the header was lost). */
function versionOf(record: Record<string, unknown>): number | undefined {
  // Version 3's records are 4's but for the clear line (read in either): the file is rewritten as 4.
  if (typeof record.c === 'string' || record.op === 'reset') return typeof record.e === 'number' ? 3 : 2;
  if ((record.op === 'create' && record.id !== undefined) || (record.op === 'seed' && Array.isArray(record.plants))) return 1;
  return undefined;
}

function notAStateFile(path: string): Error {
  return new Error(
    `Cannot use the state file ${path}: it is not a plant-store-mock state file (it does not start with the state-file header), ` +
      'so the mock will not overwrite it. Point --state-file at a new file or at one the mock wrote.',
  );
}

function describeKey(collection: string, key: RecordKey): string {
  return `key ${key} in ${collection}`;
}

/** The key and the exact JSON of a create, seed or replace record. */
function storedOf(record: Record<string, unknown>): StoredRecord | undefined {
  const value = record.record;
  if (typeof record.key !== 'string' || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return { key: record.key, json: exactJsonOf(record, 'record') };
}

function version1Plant(record: Record<string, unknown>): StoredRecord | undefined {
  const id = exactInteger(record, 'id');
  if (id === undefined || !isInt64(id) || typeof record.name !== 'string') return undefined;
  if (record.tag !== undefined && typeof record.tag !== 'string') return undefined;
  const tag = record.tag === undefined ? '' : `,"tag":${JSON.stringify(record.tag)}`;
  return { key: id.toString(), json: `{"id":${id.toString()},"name":${JSON.stringify(record.name)}${tag}}` };
}

/** What the replay lost and applied by rule, in words, for the error line and stderr; undefined when nothing was. */
export function describeDamage(replay: Replay, path: string, copy: string, rewritten: string): string | undefined {
  if (replay.damaged.length === 0 && replay.dependentCount === 0) return undefined;
  const lost = replay.damaged.reduce((sum, region) => sum + region.records, 0);
  const parts: string[] = [];
  if (replay.damaged.length > 0) {
    const shown = replay.damaged.slice(0, 10).map((r) => `bytes ${r.from}–${r.from + r.bytes - 1} (${r.records} record(s): ${r.reason})`);
    if (replay.damaged.length > 10) shown.push(`and ${replay.damaged.length - 10} more region(s)`);
    parts.push(`state file ${path} is damaged: ${lost} record(s) lost in ${replay.damaged.length} damaged region(s) in the middle of the file: ${shown.join('; ')}`);
  } else {
    parts.push(`state file ${path} holds records that contradict each other`);
  }
  parts.push(`kept the ${replay.memory.size} intact record(s) that are live`);
  if (replay.dependentCount > 0) {
    const kinds = new Map<DependentKind, number>();
    for (const d of replay.dependents) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
    const first = replay.dependents.slice(0, 3).map((d) => `at byte ${d.offset}, ${d.detail}`);
    parts.push(`${replay.dependentCount} record(s) depended on lost ones and were applied by rule (${first.join('; ')}${replay.dependentCount > 3 ? '; …' : ''})`);
  }
  if (replay.damaged.length > 0) parts.push(copy);
  parts.push(rewritten);
  return `${parts.join('; ')}.`;
}
