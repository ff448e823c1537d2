/**
 * The in-memory store against a plain model (a Map and an array in creation order): any sequence
 * of creates, replaces, deletes, reads, seeds and page walks answers as the model does, for every
 * kind of key (integers held as numbers, digits that are not canonical, text), through the
 * index's growth, its removed slots and the columns' compaction.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../stores/memory.js';
import type { StoredRecord } from '../stores/store.js';

const PLANTS = '/plants';

/** The rules of a store, written the plainest way. */
class ModelStore {
  readonly records = new Map<string, string>();

  create({ key, json }: StoredRecord): 'created' | 'duplicate' {
    if (this.records.has(key)) return 'duplicate';
    this.records.set(key, json);
    return 'created';
  }

  replace({ key, json }: StoredRecord): 'replaced' | 'missing' {
    if (!this.records.has(key)) return 'missing';
    this.records.set(key, json);
    return 'replaced';
  }

  delete(key: string): 'deleted' | 'missing' {
    return this.records.delete(key) ? 'deleted' : 'missing';
  }
}

function listAll(store: MemoryStore, limit: number, collection = PLANTS): StoredRecord[] {
  const records: StoredRecord[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100_000; pages++) {
    const page = store.page(collection, { after, limit });
    records.push(...page.records);
    if (!page.next) return records;
    after = page.next;
  }
  throw new Error('more than 100 000 pages');
}

/** Keys of every kind the store tells apart: small and large integers, negative, 15 and 16 digits, leading zeros, text. */
const keyArbitrary = fc.oneof(
  fc.integer({ min: -50, max: 50 }).map(String),
  fc.constantFrom('999999999999999', '-999999999999999', '1000000000000000', '9007199254740993', '007', '-0', '0', 'fern', ''),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
  fc.string({ maxLength: 6 }),
);

/** A record as the engine makes them: the identity first (so the store splits it), or anything else. */
const recordOf = (key: string, variant: number): StoredRecord => ({
  key,
  json: variant % 3 === 2 ? `{"name":"v${variant}","id":${JSON.stringify(key)}}` : `{"id":${/^-?\d+$/.test(key) ? key : JSON.stringify(key)},"name":"v${variant % 2}"}`,
});

type Operation =
  | { kind: 'create'; key: string; variant: number }
  | { kind: 'replace'; key: string; variant: number }
  | { kind: 'delete'; key: string }
  | { kind: 'get'; key: string }
  | { kind: 'page'; limit: number };

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), key: keyArbitrary, variant: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replace' as const), key: keyArbitrary, variant: fc.nat(5) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: keyArbitrary }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('get' as const), key: keyArbitrary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('page' as const), limit: fc.integer({ min: 1, max: 5 }) }) },
);

describe('the in-memory store answers as a plain map in creation order does', () => {
  it('for any sequence of operations on any keys', () => {
    fc.assert(
      fc.property(fc.array(operationArbitrary, { maxLength: 200 }), (operations) => {
        const store = new MemoryStore();
        const model = new ModelStore();
        for (const operation of operations) {
          if (operation.kind === 'create') expect(store.create(PLANTS, recordOf(operation.key, operation.variant))).toBe(model.create(recordOf(operation.key, operation.variant)));
          else if (operation.kind === 'replace') expect(store.replace(PLANTS, recordOf(operation.key, operation.variant))).toBe(model.replace(recordOf(operation.key, operation.variant)));
          else if (operation.kind === 'delete') expect(store.delete(PLANTS, operation.key)).toBe(model.delete(operation.key));
          else if (operation.kind === 'get') expect(store.get(PLANTS, operation.key)?.json).toBe(model.records.get(operation.key));
          else expect(listAll(store, operation.limit)).toEqual([...model.records].map(([key, json]) => ({ key, json })));
        }
        expect(store.count(PLANTS)).toBe(model.records.size);
        expect(listAll(store, 3)).toEqual([...model.records].map(([key, json]) => ({ key, json })));
      }),
      { numRuns: 300 },
    );
  });

  it('through the index growing many times, most records removed (the columns rebuilt) and keys created again', () => {
    const store = new MemoryStore();
    const model = new ModelStore();
    const keys = Array.from({ length: 60_000 }, (_, i) => String(i % 3 === 0 ? 9_000_000_000_000 + i * 7919 : i % 3 === 1 ? -i : `${i}`.padStart(17, '1')));
    for (const [i, key] of keys.entries()) expect(store.create(PLANTS, recordOf(key, i))).toBe(model.create(recordOf(key, i)));
    // Two thirds removed: past the point where the columns are rebuilt.
    for (const [i, key] of keys.entries()) if (i % 3 !== 2) expect(store.delete(PLANTS, key)).toBe(model.delete(key));
    for (const [i, key] of keys.entries()) if (i % 6 === 0) expect(store.create(PLANTS, recordOf(key, i + 1))).toBe(model.create(recordOf(key, i + 1)));
    for (const key of keys.slice(0, 3000)) expect(store.get(PLANTS, key)?.json).toBe(model.records.get(key));
    expect(store.count(PLANTS)).toBe(model.records.size);
    expect(listAll(store, 997)).toEqual([...model.records].map(([key, json]) => ({ key, json })));
  });

  it('a seed is all or nothing, and its records follow the ones before', () => {
    const store = new MemoryStore();
    store.create(PLANTS, recordOf('5', 0));
    expect(store.seed(PLANTS, [recordOf('6', 0), recordOf('5', 1)])).toEqual({ duplicates: ['5'] });
    expect(store.seed(PLANTS, [recordOf('7', 0), recordOf('7', 1)])).toEqual({ duplicates: ['7'] });
    expect(store.count(PLANTS)).toBe(1);
    expect(store.seed(PLANTS, [recordOf('9007199254740993', 0), recordOf('6', 1)])).toEqual({ created: 2 });
    expect(listAll(store, 2).map((record) => record.key)).toEqual(['5', '9007199254740993', '6']);
  });

  it('keeps nothing of a collection its deletes emptied (a scope per request grows no memory), and a key deleted there is not assigned again', () => {
    const store = new MemoryStore();
    for (let scope = 0; scope < 10_000; scope++) {
      const name = `/accounts/${scope}/offices`;
      expect(store.create(name, recordOf('1', scope))).toBe('created');
      expect(store.delete(name, '1')).toBe('deleted');
    }
    // At most a sweep's worth of emptied collections is kept (EMPTIED_KEPT, 256), never one per scope.
    expect([...store.collections()].length).toBeLessThanOrEqual(256);
    expect([...store.collections()].every(([, records]) => [...records].length === 0)).toBe(true);
    expect(store.highestDeleted('/accounts/9999/offices')).toBe(1);
    // Created again under a scope emptied before: listed as any new collection is.
    store.create('/accounts/7/offices', recordOf('2', 1));
    expect(listAll(store, 10, '/accounts/7/offices').map((record) => record.key)).toEqual(['2']);
  });
});
