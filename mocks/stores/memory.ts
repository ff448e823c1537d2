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
 * million records then holds two strings per record and no object of its own, which keeps the
 * garbage collector's work down (docs/benchmarks.md).
 */
class Collection {
  /** Key → position in the arrays. */
  readonly byKey = new Map<RecordKey, number>();
  #keys: (RecordKey | undefined)[] = [];
  #jsons: (string | undefined)[] = [];
  #seqs: number[] = [];
  #nextSeq = 1;
  #gone = 0;

  get size(): number {
    return this.byKey.size;
  }

  add(key: RecordKey, json: string): void {
    this.byKey.set(key, this.#keys.length);
    this.#keys.push(key);
    this.#jsons.push(json);
    this.#seqs.push(this.#nextSeq++);
  }

  json(key: RecordKey): string | undefined {
    const at = this.byKey.get(key);
    return at === undefined ? undefined : this.#jsons[at];
  }

  replace(key: RecordKey, json: string): boolean {
    const at = this.byKey.get(key);
    if (at === undefined) return false;
    this.#jsons[at] = json;
    return true;
  }

  remove(key: RecordKey): boolean {
    const at = this.byKey.get(key);
    if (at === undefined) return false;
    this.byKey.delete(key);
    this.#keys[at] = undefined;
    this.#jsons[at] = undefined;
    // Deleted slots are skipped when paging; the arrays are rebuilt once they are most of them.
    if (++this.#gone > 1024 && this.#gone * 2 > this.#keys.length) this.#compact();
    return true;
  }

  #compact(): void {
    const keys: RecordKey[] = [];
    const jsons: string[] = [];
    const seqs: number[] = [];
    for (let at = 0; at < this.#keys.length; at++) {
      const key = this.#keys[at];
      if (key === undefined) continue;
      this.byKey.set(key, keys.length);
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
      const key = this.#keys[at];
      if (key === undefined) continue;
      records.push({ key, json: this.#jsons[at] as string });
      last = at;
    }
    while (at < seqs.length && this.#keys[at] === undefined) at++;
    return at < seqs.length && last !== -1 ? { records, next: String(seqs[last]) } : { records };
  }

  /** Every record, in creation order. */
  *records(): Iterable<StoredRecord> {
    for (let at = 0; at < this.#keys.length; at++) {
      const key = this.#keys[at];
      if (key !== undefined) yield { key, json: this.#jsons[at] as string };
    }
  }
}

export class MemoryStore implements ResourceStore {
  #collections = new Map<string, Collection>();

  #collection(name: string): Collection {
    let collection = this.#collections.get(name);
    if (!collection) this.#collections.set(name, (collection = new Collection()));
    return collection;
  }

  /** Records in every collection. */
  get size(): number {
    let size = 0;
    for (const collection of this.#collections.values()) size += collection.byKey.size;
    return size;
  }

  has(collection: string, key: RecordKey): boolean {
    return this.#collections.get(collection)?.byKey.has(key) ?? false;
  }

  create(collection: string, record: StoredRecord): CreateOutcome {
    const records = this.#collection(collection);
    if (records.byKey.has(record.key)) return 'duplicate';
    records.add(record.key, record.json);
    return 'created';
  }

  seed(collection: string, records: readonly StoredRecord[]): SeedOutcome {
    const existing = this.#collection(collection);
    const seen = new Set<RecordKey>();
    const duplicates: RecordKey[] = [];
    for (const { key } of records) {
      if (existing.byKey.has(key) || seen.has(key)) duplicates.push(key);
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
    return this.#collections.get(collection)?.byKey.size ?? 0;
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
