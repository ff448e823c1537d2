/**
 * The in-memory ResourceStore, the default: records in creation order per collection, answered
 * synchronously (no promise on the request path). The state file replays into one of these.
 */
import type { CreateOutcome, DeleteOutcome, Page, PageQuery, ParentRecord, RecordKey, ReplaceOutcome, ResourceStore, SeedOutcome, StoredRecord, StoreHealth } from './store.js';
import { isClearedBy, sequenceNumberOf } from './store.js';
import { NumberColumn, TextColumn } from './columns.js';
import { KeyIndex, slotOf, type Slot } from './key-index.js';

/**
 * One collection. Records sit in columns in creation order (their key, their JSON, their creation
 * sequence number: the page cursor), and an index finds a key's position. Integer keys and
 * sequence numbers are held in typed arrays, so a store of a million records holds no object of
 * its own per record but its JSON, which keeps memory and the garbage collector's work down
 * (docs/benchmarks.md).
 *
 * Most records start with their identity (`{"id":123,"name":…`) and many share the rest: such a
 * record is kept as what follows its key, one shared string for the records whose rest is the same,
 * and rebuilt from the collection's head (`{"id":`) and its key when read.
 */
class Collection {
  readonly #index = new KeyIndex();
  #size = 0;
  /** Each position's key when it is an integer; NaN when its key is text (in #textKeys) or its record was removed. */
  #integerKeys = new NumberColumn();
  #textKeys = new Map<number, RecordKey>();
  /** A record's JSON whole (it starts with `{`), or what follows its key (it starts with `,` or `}`); undefined once removed. */
  #jsons = new TextColumn();
  /** What every split record's JSON has before its key, once the first record set it. */
  #head: string | undefined;
  readonly #rests = new SharedTexts();
  #seqs = new NumberColumn();
  readonly #sequence: CreationSequence;
  #gone = 0;

  constructor(sequence: CreationSequence) {
    this.#sequence = sequence;
  }

  get size(): number {
    return this.#size;
  }

  has(key: RecordKey): boolean {
    return this.#index.get(slotOf(key)) !== undefined;
  }

  /** Adds the record unless its key is held; false when it was. */
  add(key: RecordKey, json: string): boolean {
    const slot = slotOf(key);
    if (!this.#index.add(slot, this.#seqs.length)) return false;
    this.#append(slot, this.#kept(key, json), this.#sequence.next++);
    this.#size++;
    return true;
  }

  #append(slot: Slot, kept: string, seq: number): void {
    if (typeof slot === 'number') this.#integerKeys.push(slot);
    else {
      this.#textKeys.set(this.#integerKeys.length, slot);
      this.#integerKeys.push(Number.NaN);
    }
    this.#jsons.push(kept);
    this.#seqs.push(seq);
  }

  /** The key at a position; undefined once its record was removed. */
  #keyAt(at: number): RecordKey | undefined {
    const integer = this.#integerKeys.at(at);
    return integer === integer ? String(integer) : this.#textKeys.get(at);
  }

  /** What is kept of a record's JSON: what follows its key when it starts with the collection's head. */
  #kept(key: RecordKey, json: string): string {
    const after = json.indexOf(`:${key}`);
    const end = after + 1 + key.length;
    // The key must be the first value, whole: followed by the next member or the object's end.
    if (after <= 1 || json.charCodeAt(after - 1) !== 34 || (json[end] !== ',' && json[end] !== '}')) return json;
    const head = json.slice(0, after + 1);
    if (json.indexOf('"', 2) !== after - 1) return json; // the first name must end right before the key
    this.#head ??= head;
    return head === this.#head ? this.#rests.shared(json.slice(end)) : json;
  }

  #whole(key: RecordKey, kept: string): string {
    return kept.charCodeAt(0) === 123 /* { */ ? kept : `${this.#head as string}${key}${kept}`;
  }

  json(key: RecordKey): string | undefined {
    const at = this.#index.get(slotOf(key));
    return at === undefined ? undefined : this.#whole(key, this.#jsons.at(at) as string);
  }

  replace(key: RecordKey, json: string): boolean {
    const at = this.#index.get(slotOf(key));
    if (at === undefined) return false;
    this.#jsons.set(at, this.#kept(key, json));
    return true;
  }

  remove(key: RecordKey): boolean {
    const slot = slotOf(key);
    const at = this.#index.get(slot);
    if (at === undefined) return false;
    this.#index.delete(slot);
    this.#size--;
    this.#integerKeys.set(at, Number.NaN);
    this.#textKeys.delete(at);
    this.#jsons.set(at, undefined);
    // Removed positions are skipped when paging; the columns are rebuilt once they are most of them.
    if (++this.#gone > 1024 && this.#gone * 2 > this.#seqs.length) this.#compact();
    return true;
  }

  #compact(): void {
    const integerKeys = this.#integerKeys;
    const textKeys = this.#textKeys;
    const jsons = this.#jsons;
    const seqs = this.#seqs;
    this.#integerKeys = new NumberColumn();
    this.#textKeys = new Map();
    this.#jsons = new TextColumn();
    this.#seqs = new NumberColumn();
    for (let at = 0; at < seqs.length; at++) {
      const kept = jsons.at(at);
      if (kept === undefined) continue;
      const integer = integerKeys.at(at);
      const slot: Slot = integer === integer ? integer : (textKeys.get(at) as RecordKey);
      this.#index.set(slot, this.#seqs.length);
      this.#append(slot, kept, seqs.at(at));
    }
    this.#gone = 0;
  }

  page({ after, limit }: PageQuery): Page {
    const seqs = this.#seqs;
    let start = 0;
    if (after !== undefined) {
      const seq = Number(after);
      // The first record created after the cursor's: a binary search, sequence numbers only grow.
      let low = 0;
      let high = seqs.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (seqs.at(middle) <= seq) low = middle + 1;
        else high = middle;
      }
      start = low;
    }
    const records: StoredRecord[] = [];
    let last = -1;
    let at = start;
    for (; at < seqs.length && records.length < limit; at++) {
      const key = this.#keyAt(at);
      if (key === undefined) continue;
      records.push({ key, json: this.#whole(key, this.#jsons.at(at) as string) });
      last = at;
    }
    while (at < seqs.length && this.#jsons.at(at) === undefined) at++;
    return at < seqs.length && last !== -1 ? { records, next: String(seqs.at(last)) } : { records };
  }

  /** Every record's key. */
  *keys(): Iterable<RecordKey> {
    for (let at = 0; at < this.#seqs.length; at++) {
      const key = this.#keyAt(at);
      if (key !== undefined) yield key;
    }
  }

  /** Every record, in creation order. */
  *records(): Iterable<StoredRecord> {
    for (let at = 0; at < this.#seqs.length; at++) {
      const key = this.#keyAt(at);
      if (key === undefined) continue;
      yield { key, json: this.#whole(key, this.#jsons.at(at) as string) };
    }
  }
}

/**
 * Texts many records repeat, kept once: a bounded table of the latest distinct ones (forgotten
 * when full, so a store of all-different records costs the table nothing but its bound).
 */
class SharedTexts {
  #seen = new Map<string, string>();

  shared(text: string): string {
    const known = this.#seen.get(text);
    if (known !== undefined) return known;
    if (this.#seen.size >= 4096) this.#seen = new Map();
    this.#seen.set(text, text);
    return text;
  }
}

/** Numbers records in creation order across collections; a reset keeps counting, so an old cursor names no new record. */
interface CreationSequence {
  next: number;
}

/** How many emptied collections are kept before those still empty go. */
const EMPTIED_KEPT = 256;

export class MemoryStore implements ResourceStore {
  #collections = new Map<string, Collection>();
  /** Per collection, the highest sequence number a deleted key was (store.ts, `highestDeleted`). */
  #deleted = new Map<string, number>();
  readonly #sequence: CreationSequence = { next: 1 };
  /** Collections a delete emptied since the last sweep (#noteEmptied). */
  readonly #emptied = new Set<string>();

  #collection(name: string): Collection {
    let collection = this.#collections.get(name);
    if (!collection) this.#collections.set(name, (collection = new Collection(this.#sequence)));
    return collection;
  }

  /** Records in every collection. */
  get size(): number {
    let size = 0;
    for (const collection of this.#collections.values()) size += collection.size;
    return size;
  }

  create(collection: string, record: StoredRecord, parent?: ParentRecord): CreateOutcome {
    if (parent !== undefined && !this.#collections.get(parent.collection)?.has(parent.key)) return 'parent-missing';
    return this.#collection(collection).add(record.key, record.json) ? 'created' : 'duplicate';
  }

  seed(collection: string, records: readonly StoredRecord[], parent?: ParentRecord): SeedOutcome {
    if (parent !== undefined && !this.#collections.get(parent.collection)?.has(parent.key)) return 'parent-missing';
    const existing = this.#collection(collection);
    const seen = new Set<RecordKey>();
    const duplicates: RecordKey[] = [];
    for (const { key } of records) {
      if (existing.has(key) || seen.has(key)) duplicates.push(key);
      seen.add(key);
    }
    if (duplicates.length) return { duplicates };
    for (const record of records) existing.add(record.key, record.json);
    return { created: records.length };
  }

  get(collection: string, key: RecordKey): StoredRecord | undefined {
    const json = this.#collections.get(collection)?.json(key);
    return json === undefined ? undefined : { key, json };
  }

  replace(collection: string, record: StoredRecord): ReplaceOutcome {
    return this.#collections.get(collection)?.replace(record.key, record.json) ? 'replaced' : 'missing';
  }

  delete(collection: string, key: RecordKey): DeleteOutcome {
    const records = this.#collections.get(collection);
    if (!records?.remove(key)) return 'missing';
    if (records.size === 0) this.#noteEmptied(collection);
    const number = sequenceNumberOf(key);
    if (number !== undefined) this.noteDeleted(collection, number);
    return 'deleted';
  }

  clear(collection: string, keep?: readonly string[]): void {
    for (const [name, records] of this.#collections) {
      if (!isClearedBy(name, collection, keep)) continue;
      // As its deletes would: the highest number a key of it was stays known.
      for (const key of records.keys()) {
        const number = sequenceNumberOf(key);
        if (number !== undefined) this.noteDeleted(name, number);
      }
      this.#collections.delete(name);
    }
  }

  reset(): void {
    this.#collections = new Map();
    this.#deleted = new Map();
    this.#emptied.clear();
  }

  /**
   * Emptied collections go, a batch at a time: a client creating and deleting under ever new scopes (a
   * parent, an account) would otherwise leave one behind for each, memory that grows with requests
   * rather than records. Not at once: a client emptying one collection again and again would pay for
   * a new one on each create (docs/benchmarks.md, "Figures behind the code").
   */
  #noteEmptied(collection: string): void {
    this.#emptied.add(collection);
    if (this.#emptied.size <= EMPTIED_KEPT) return;
    for (const name of this.#emptied) if (this.#collections.get(name)?.size === 0) this.#collections.delete(name);
    this.#emptied.clear();
  }

  highestDeleted(collection: string): number {
    return this.#deleted.get(collection) ?? 0;
  }

  /** Raises the collection's highest deleted number to `number` (a state file's replay brings it back so). */
  noteDeleted(collection: string, number: number): void {
    if (number > (this.#deleted.get(collection) ?? 0)) this.#deleted.set(collection, number);
  }

  /** Every collection's highest deleted number (what a compaction keeps of the deletes it drops). */
  deletedNumbers(): ReadonlyMap<string, number> {
    return this.#deleted;
  }

  page(collection: string, query: PageQuery): Page {
    // A cursor is the creation sequence number of a page's last record (store.ts: a RangeError otherwise).
    if (query.after !== undefined && !/^\d{1,15}$/.test(query.after)) {
      throw new RangeError(`${JSON.stringify(query.after.slice(0, 40))} is not a page cursor of this store.`);
    }
    return this.#collections.get(collection)?.page(query) ?? { records: [] };
  }

  count(collection: string): number {
    return this.#collections.get(collection)?.size ?? 0;
  }

  /** Every collection's name and records, in creation order (what a compaction rewrites). */
  *collections(): Iterable<[string, Iterable<StoredRecord>]> {
    for (const [name, records] of this.#collections) yield [name, records.records()];
  }

  health(): StoreHealth {
    return { state: 'up', kind: 'memory' };
  }

  close(): void {}
}
