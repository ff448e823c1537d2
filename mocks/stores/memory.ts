/**
 * The in-memory ResourceStore, the default: records in creation order per collection, answered
 * synchronously (no promise on the request path). The state file replays into one of these.
 */
import type {
  CreateOutcome,
  DeleteOutcome,
  Page,
  PageQuery,
  RecordKey,
  ReplaceOutcome,
  ResourceStore,
  SeedOutcome,
  StoredRecord,
  StoreHealth,
} from './store.js';

/**
 * One collection. Records sit in parallel arrays in creation order (their key, their JSON, their
 * creation sequence number: the page cursor), and a map finds a key's position. A store of a
 * million records then holds a key per record and no object of its own, which keeps memory and
 * the garbage collector's work down (docs/benchmarks.md).
 *
 * Most records start with their identity (`{"id":123,"name":…`) and many share the rest: such a
 * record is kept as what follows its key, one shared string for the records whose rest is the same,
 * and rebuilt from the collection's head (`{"id":`) and its key when read.
 */
class Collection {
  /**
   * Key (see slotOf) → position in the arrays, in a few maps by a hash of the key: a map that
   * doubles copies all it holds at once, and a store of millions would stall every request for the
   * time of that copy (docs/benchmarks.md); a seventeenth of it is short.
   */
  readonly #shards: Map<Slot, number>[] = Array.from({ length: SHARDS }, () => new Map());
  #size = 0;
  #keys: (Slot | undefined)[] = [];
  /** A record's JSON whole (it starts with `{`), or what follows its key (it starts with `,` or `}`). */
  #jsons: (string | undefined)[] = [];
  /** What every split record's JSON has before its key, once the first record set it. */
  #head: string | undefined;
  readonly #rests = new SharedTexts();
  #seqs: number[] = [];
  readonly #sequence: CreationSequence;
  #gone = 0;

  constructor(sequence: CreationSequence) {
    this.#sequence = sequence;
  }

  get size(): number {
    return this.#size;
  }

  #map(slot: Slot): Map<Slot, number> {
    return this.#shards[shardOf(slot)] as Map<Slot, number>;
  }

  has(key: RecordKey): boolean {
    const slot = slotOf(key);
    return this.#map(slot).has(slot);
  }

  add(key: RecordKey, json: string): void {
    const slot = slotOf(key);
    this.#map(slot).set(slot, this.#keys.length);
    this.#size++;
    this.#keys.push(slot);
    this.#jsons.push(this.#kept(key, json));
    this.#seqs.push(this.#sequence.next++);
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
    const slot = slotOf(key);
    const at = this.#map(slot).get(slot);
    return at === undefined ? undefined : this.#whole(key, this.#jsons[at] as string);
  }

  replace(key: RecordKey, json: string): boolean {
    const slot = slotOf(key);
    const at = this.#map(slot).get(slot);
    if (at === undefined) return false;
    this.#jsons[at] = this.#kept(key, json);
    return true;
  }

  remove(key: RecordKey): boolean {
    const slot = slotOf(key);
    const map = this.#map(slot);
    const at = map.get(slot);
    if (at === undefined) return false;
    map.delete(slot);
    this.#size--;
    this.#keys[at] = undefined;
    this.#jsons[at] = undefined;
    // Deleted slots are skipped when paging; the arrays are rebuilt once they are most of them.
    if (++this.#gone > 1024 && this.#gone * 2 > this.#keys.length) this.#compact();
    return true;
  }

  #compact(): void {
    const keys: Slot[] = [];
    const jsons: string[] = [];
    const seqs: number[] = [];
    for (let at = 0; at < this.#keys.length; at++) {
      const key = this.#keys[at];
      if (key === undefined) continue;
      this.#map(key).set(key, keys.length);
      keys.push(key);
      jsons.push(this.#jsons[at] as string);
      seqs.push(this.#seqs[at] as number);
    }
    this.#keys = keys;
    this.#jsons = jsons;
    this.#seqs = seqs;
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
        if ((seqs[middle] as number) <= seq) low = middle + 1;
        else high = middle;
      }
      start = low;
    }
    const records: StoredRecord[] = [];
    let last = -1;
    let at = start;
    for (; at < seqs.length && records.length < limit; at++) {
      const slot = this.#keys[at];
      if (slot === undefined) continue;
      const key = String(slot);
      records.push({ key, json: this.#whole(key, this.#jsons[at] as string) });
      last = at;
    }
    while (at < seqs.length && this.#keys[at] === undefined) at++;
    return at < seqs.length && last !== -1 ? { records, next: String(seqs[last]) } : { records };
  }

  /** Every record, in creation order. */
  *records(): Iterable<StoredRecord> {
    for (let at = 0; at < this.#keys.length; at++) {
      const slot = this.#keys[at];
      if (slot === undefined) continue;
      const key = String(slot);
      yield { key, json: this.#whole(key, this.#jsons[at] as string) };
    }
  }
}

const SHARDS = 17;

/** Which of the maps holds `slot`: prime many, so ids in strides (a multiple of 64, say) still spread. */
function shardOf(slot: Slot): number {
  if (typeof slot === 'number') return Math.abs(slot % SHARDS);
  let hash = slot.length;
  for (let i = Math.max(0, slot.length - 4); i < slot.length; i++) hash = hash * 31 + slot.charCodeAt(i);
  return hash % SHARDS;
}

/** A key as the map holds it: an integer's digits as the number (half the memory of the text), anything else as is. */
type Slot = RecordKey | number;

/** The number a key is the canonical digits of (no sign but minus, no leading zero, at most 15 digits: exact in a double), or the key. */
function slotOf(key: RecordKey): Slot {
  const length = key.length;
  if (length === 0 || length > 16) return key;
  let at = key.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (at === length || length - at > 15) return key;
  const first = key.charCodeAt(at);
  if (first === 48 /* 0 */) return length === 1 ? 0 : key;
  for (; at < length; at++) {
    const c = key.charCodeAt(at);
    if (c < 48 || c > 57) return key;
  }
  return Number(key);
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

export class MemoryStore implements ResourceStore {
  #collections = new Map<string, Collection>();
  readonly #sequence: CreationSequence = { next: 1 };

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

  create(collection: string, record: StoredRecord): CreateOutcome {
    const records = this.#collection(collection);
    if (records.has(record.key)) return 'duplicate';
    records.add(record.key, record.json);
    return 'created';
  }

  seed(collection: string, records: readonly StoredRecord[]): SeedOutcome {
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
    return this.#collections.get(collection)?.remove(key) ? 'deleted' : 'missing';
  }

  reset(): void {
    this.#collections = new Map();
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
