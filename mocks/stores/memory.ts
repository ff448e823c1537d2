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

/** One record and its place in creation order. */
interface Entry {
  seq: number;
  key: RecordKey;
  json: string;
  /** Set once deleted: the entry stays in `order` until the next compaction. */
  gone?: true;
}

/** One collection: records by key, and the same entries in creation order for paging. */
class Collection {
  readonly byKey = new Map<RecordKey, Entry>();
  order: Entry[] = [];
  #nextSeq = 1;
  #gone = 0;

  add(key: RecordKey, json: string): void {
    const entry: Entry = { seq: this.#nextSeq++, key, json };
    this.byKey.set(key, entry);
    this.order.push(entry);
  }

  remove(entry: Entry): void {
    this.byKey.delete(entry.key);
    entry.gone = true;
    // Deleted entries are skipped when paging; the order is rebuilt once they are most of it.
    if (++this.#gone > 1024 && this.#gone * 2 > this.order.length) {
      this.order = this.order.filter((e) => !e.gone);
      this.#gone = 0;
    }
  }

  page({ after, limit }: PageQuery): Page {
    let start = 0;
    if (after !== undefined) {
      const seq = Number(after);
      // The first entry created after the cursor's: a binary search, entries are in seq order.
      let low = 0;
      let high = this.order.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((this.order[middle] as Entry).seq <= seq) low = middle + 1;
        else high = middle;
      }
      start = low;
    }
    const records: StoredRecord[] = [];
    let last: Entry | undefined;
    let index = start;
    for (; index < this.order.length && records.length < limit; index++) {
      const entry = this.order[index] as Entry;
      if (entry.gone) continue;
      records.push({ key: entry.key, json: entry.json });
      last = entry;
    }
    while (index < this.order.length && (this.order[index] as Entry).gone) index++;
    return index < this.order.length && last ? { records, next: String(last.seq) } : { records };
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
    const entry = this.#collections.get(collection)?.byKey.get(key);
    return entry && { key: entry.key, json: entry.json };
  }

  replace(collection: string, record: StoredRecord): ReplaceOutcome {
    const entry = this.#collections.get(collection)?.byKey.get(record.key);
    if (!entry) return 'missing';
    entry.json = record.json;
    return 'replaced';
  }

  delete(collection: string, key: RecordKey): DeleteOutcome {
    const records = this.#collections.get(collection);
    const entry = records?.byKey.get(key);
    if (!records || !entry) return 'missing';
    records.remove(entry);
    return 'deleted';
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
    for (const [name, records] of this.#collections) {
      yield [name, (function* () {
        for (const entry of records.order) if (!entry.gone) yield { key: entry.key, json: entry.json };
      })()];
    }
  }

  health(): StoreHealth {
    return { state: 'up', kind: 'memory' };
  }

  close(): void {}
}
