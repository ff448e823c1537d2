/**
 * One conformance suite for every ResourceStore (memory, state file, Redis): the same model-based
 * property test (fast-check commands against a plain model: a Map in creation order and a
 * sequence that never restarts) runs over each store's factory, plus the faults each store can
 * meet, in the store's own terms: a durable store closed and opened again, a state file with
 * garbage after its last record, a Redis flushed under the store, out of memory, or holding a key
 * of the wrong type. Runs are few and short, so the suite is bounded on a busy machine. A create
 * naming a parent record (a nested one) is kept only while the parent is stored, also when the
 * parent is deleted (by another replica) between a check of it and the create.
 */
import { appendFileSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../stores/memory.js';
import { openRedisStore } from '../stores/redis.js';
import { openStateFile } from '../stores/state-file.js';
import { StorageFailure, StoreUnavailable, type ParentRecord, type ResourceStore, type StoredRecord } from '../stores/store.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const PLANTS = '/plants';
const POTS = '/pots';
/**
 * A collection nested under /plants (as openapi/operations/collections.ts names one), one whose name /plants is a
 * prefix of but not nested under it, and one a segment below /plants that is no plant's (a spec path `/plants/me`).
 */
const PLANT_POTS = '/plants/1/pots';
const PLANTSX = '/plantsx';
const PLANTS_ME = '/plants/me';
/** A collection of a spec path two segments below /plants (`/plants/shelf/{part}`), no plant's: every clear is told to keep what fits KEPT. */
const PLANTS_SHELF = '/plants/shelf/pots';
const KEPT = ['/plants/shelf/{part}'];
const COLLECTIONS = [PLANTS, POTS, PLANT_POTS, PLANTSX, PLANTS_ME, PLANTS_SHELF] as const;

/** The rules of a store, written the plainest way: per collection a Map in creation order, each record with its place in one sequence. */
class Model {
  readonly collections = new Map<string, Map<string, { json: string; seq: number }>>();
  /** Per collection, the highest number a deleted key was: digits, or a string of digits (up to 15). */
  readonly deleted = new Map<string, number>();
  seq = 0;
  /** The place a cursor held by the test names (the last record of a first page), if one is held. */
  held: { collection: string; seq: number } | undefined;

  of(collection: string): Map<string, { json: string; seq: number }> {
    let records = this.collections.get(collection);
    if (!records) this.collections.set(collection, (records = new Map()));
    return records;
  }

  listed(collection: string, afterSeq = 0): StoredRecord[] {
    return [...this.of(collection)].filter(([, { seq }]) => seq > afterSeq).map(([key, { json }]) => ({ key, json }));
  }
}

/** What a command acts on: the store (replaced when it is opened again) and the cursor it handed out. */
interface Real {
  store: ResourceStore;
  cursor: string | undefined;
}

/** How a suite makes a store of one kind, and opens it again over the same data (durable stores). */
interface StoreFactory {
  name: string;
  numRuns: number;
  open(): Promise<ResourceStore>;
  /** Closes and opens the same data again; undefined for a store that keeps nothing. */
  reopen?: (store: ResourceStore) => Promise<ResourceStore>;
  /** The store-specific faults the model survives, as extra commands. */
  faults?: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[];
}

const keyArbitrary = fc.constantFrom('1', '2', '3', '9007199254740993', '9007199254740992', '007', '-5', '"fern"', '""');
const collectionArbitrary = fc.constantFrom(...COLLECTIONS);
/** Valid JSON whatever the key (the engine hands a store exact JSON text; a store need not keep anything else). */
const recordOf = (key: string, variant: number): StoredRecord => ({ key, json: `{"id":${JSON.stringify(key)},"name":"v${variant}"}` });

async function listAll(store: ResourceStore, collection: string, limit: number, after?: string): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  for (let pages = 0; pages < 1000; pages++) {
    const page = await store.page(collection, { after, limit });
    records.push(...page.records);
    if (!page.next) return records;
    after = page.next;
  }
  throw new Error('more than 1000 pages');
}

function command(describe: string, run: (model: Model, real: Real) => Promise<void>): fc.AsyncCommand<Model, Real> {
  return { check: () => true, run, toString: () => describe };
}

const create = fc.record({ collection: collectionArbitrary, key: keyArbitrary, variant: fc.nat(9) }).map(({ collection, key, variant }) =>
  command(`create ${collection} ${key} v${variant}`, async (model, real) => {
    const records = model.of(collection);
    const expected = records.has(key) ? 'duplicate' : 'created';
    if (expected === 'created') records.set(key, { json: recordOf(key, variant).json, seq: ++model.seq });
    expect(await real.store.create(collection, recordOf(key, variant))).toBe(expected);
  }),
);

/** A create into POTS naming a plant as its parent: kept only while that plant is stored. */
const createUnder = fc.record({ parent: keyArbitrary, key: keyArbitrary, variant: fc.nat(9) }).map(({ parent, key, variant }) =>
  command(`create ${POTS} ${key} v${variant} under ${PLANTS} ${parent}`, async (model, real) => {
    const records = model.of(POTS);
    const expected = !model.of(PLANTS).has(parent) ? 'parent-missing' : records.has(key) ? 'duplicate' : 'created';
    if (expected === 'created') records.set(key, { json: recordOf(key, variant).json, seq: ++model.seq });
    expect(await real.store.create(POTS, recordOf(key, variant), { collection: PLANTS, key: parent })).toBe(expected);
  }),
);

const seed = fc.record({ collection: collectionArbitrary, keys: fc.array(keyArbitrary, { minLength: 1, maxLength: 4 }), variant: fc.nat(9) }).map(({ collection, keys, variant }) =>
  command(`seed ${collection} ${keys.join(',')}`, async (model, real) => {
    const records = model.of(collection);
    const taken = keys.filter((key, index) => records.has(key) || keys.indexOf(key) !== index);
    const outcome = await real.store.seed(
      collection,
      keys.map((key) => recordOf(key, variant)),
    );
    if (taken.length) {
      expect(typeof outcome === 'object' && 'duplicates' in outcome && new Set(outcome.duplicates)).toEqual(new Set(taken));
    } else {
      expect(outcome).toEqual({ created: keys.length });
      for (const key of keys) records.set(key, { json: recordOf(key, variant).json, seq: ++model.seq });
    }
  }),
);

/** A seed into POTS naming a plant as its parent: all of it, or nothing while that plant is not stored. */
const seedUnder = fc.record({ parent: keyArbitrary, keys: fc.array(keyArbitrary, { minLength: 0, maxLength: 4 }), variant: fc.nat(9) }).map(({ parent, keys, variant }) =>
  command(`seed ${POTS} ${keys.join(',')} under ${PLANTS} ${parent}`, async (model, real) => {
    const records = model.of(POTS);
    const taken = keys.filter((key, index) => records.has(key) || keys.indexOf(key) !== index);
    const outcome = await real.store.seed(
      POTS,
      keys.map((key) => recordOf(key, variant)),
      { collection: PLANTS, key: parent },
    );
    if (!model.of(PLANTS).has(parent)) {
      expect(outcome).toBe('parent-missing');
    } else if (taken.length) {
      expect(typeof outcome === 'object' && 'duplicates' in outcome && new Set(outcome.duplicates)).toEqual(new Set(taken));
    } else {
      expect(outcome).toEqual({ created: keys.length });
      for (const key of keys) records.set(key, { json: recordOf(key, variant).json, seq: ++model.seq });
    }
  }),
);

const replace = fc.record({ collection: collectionArbitrary, key: keyArbitrary, variant: fc.nat(9) }).map(({ collection, key, variant }) =>
  command(`replace ${collection} ${key} v${variant}`, async (model, real) => {
    const existing = model.of(collection).get(key);
    if (existing) existing.json = recordOf(key, variant).json;
    expect(await real.store.replace(collection, recordOf(key, variant))).toBe(existing ? 'replaced' : 'missing');
  }),
);

const remove = fc.record({ collection: collectionArbitrary, key: keyArbitrary }).map(({ collection, key }) =>
  command(`delete ${collection} ${key}`, async (model, real) => {
    const deleted = model.of(collection).delete(key);
    const digits = /^(\d{1,15})$|^"(\d{1,15})"$/.exec(key);
    if (deleted && digits) model.deleted.set(collection, Math.max(model.deleted.get(collection) ?? 0, Number(digits[1] ?? digits[2])));
    expect(await real.store.delete(collection, key)).toBe(deleted ? 'deleted' : 'missing');
  }),
);

const get = fc.record({ collection: collectionArbitrary, key: keyArbitrary }).map(({ collection, key }) =>
  command(`get ${collection} ${key}`, async (model, real) => {
    expect((await real.store.get(collection, key))?.json).toBe(model.of(collection).get(key)?.json);
  }),
);

const list = fc.record({ collection: collectionArbitrary, limit: fc.integer({ min: 1, max: 4 }) }).map(({ collection, limit }) =>
  command(`list ${collection} by ${limit}`, async (model, real) => {
    expect(await listAll(real.store, collection, limit)).toEqual(model.listed(collection));
    expect(await real.store.count(collection)).toBe(model.of(collection).size);
    expect(await real.store.highestDeleted(collection)).toBe(model.deleted.get(collection) ?? 0);
  }),
);

/** Takes a first page and keeps its cursor: later commands may read on from it, whatever happened meanwhile. */
const hold = fc.record({ collection: collectionArbitrary, limit: fc.integer({ min: 1, max: 3 }) }).map(({ collection, limit }) =>
  command(`hold a cursor of ${collection} after ${limit}`, async (model, real) => {
    const page = await real.store.page(collection, { limit });
    const expected = model.listed(collection);
    expect(page.records).toEqual(expected.slice(0, limit));
    if (page.next === undefined) return;
    const last = model.of(collection).get(expected[limit - 1]?.key as string);
    real.cursor = page.next;
    model.held = { collection, seq: last?.seq as number };
  }),
);

/** Reads on from the held cursor: the records created after its place, in order (its own record may be gone). */
const readOn = fc.integer({ min: 1, max: 4 }).map((limit) =>
  command(`read on from the held cursor by ${limit}`, async (model, real) => {
    if (!model.held || real.cursor === undefined) return;
    expect(await listAll(real.store, model.held.collection, limit, real.cursor)).toEqual(model.listed(model.held.collection, model.held.seq));
  }),
);

/**
 * Forgets the collection and those nested under its records (`/plants/<key>/…`, not `/plantsx`,
 * `/plants/me` nor `/plants/shelf/<x>`, which fits KEPT), each keeping its highest deleted number as its deletes would.
 */
const clear = collectionArbitrary.map((cleared) =>
  command(`clear ${cleared}`, async (model, real) => {
    for (const [collection, records] of model.collections) {
      if (collection !== cleared && !(collection.startsWith(`${cleared}/`) && collection.slice(cleared.length + 1).includes('/') && !/^\/plants\/shelf\/[^/]*$/.test(collection))) continue;
      for (const key of records.keys()) {
        const digits = /^(\d{1,15})$|^"(\d{1,15})"$/.exec(key);
        if (digits) model.deleted.set(collection, Math.max(model.deleted.get(collection) ?? 0, Number(digits[1] ?? digits[2])));
      }
      records.clear();
    }
    await real.store.clear(cleared, KEPT);
  }),
);

const reset = fc.constant(
  command('reset', async (model, real) => {
    model.collections.clear();
    model.deleted.clear();
    await real.store.reset();
  }),
);

function reopenCommand(factory: StoreFactory): fc.Arbitrary<fc.AsyncCommand<Model, Real>> {
  return fc.constant(
    command('close and open again', async (model, real) => {
      real.store = await (factory.reopen as NonNullable<StoreFactory['reopen']>)(real.store);
      // A cursor is a place in one store's numbering; after a reopen a new one is taken.
      real.cursor = undefined;
      model.held = undefined;
    }),
  );
}

function runConformance(factory: StoreFactory): void {
  it(`${factory.name}: any sequence of creates (some naming a parent), seeds, replaces, deletes, reads, page walks, held cursors, clears and resets answers as the model does`, async () => {
    const commands = [
      create,
      create,
      create,
      createUnder,
      createUnder,
      seed,
      seedUnder,
      replace,
      remove,
      get,
      list,
      hold,
      readOn,
      readOn,
      clear,
      reset,
      ...(factory.reopen ? [reopenCommand(factory)] : []),
      ...(factory.faults ?? []),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'max' }), async (cmds) => {
        const real: Real = { store: await factory.open(), cursor: undefined };
        const model = new Model();
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          // Nothing was lost between the last command and a final walk of every collection.
          for (const collection of COLLECTIONS) expect(await listAll(real.store, collection, 3)).toEqual(model.listed(collection));
        } finally {
          await real.store.close();
        }
      }),
      { numRuns: factory.numRuns },
    );
  });
}

/**
 * The parent check of a nested create, by example: `replica` opens a second store on the same data
 * (another mock process on one Redis), or answers the same store where one process owns the data.
 */
function runParentChecks(name: string, open: () => Promise<ResourceStore>, replica: (store: ResourceStore) => Promise<ResourceStore>): void {
  const owner = (key: string): ParentRecord => ({ collection: PLANTS, key });

  it(`${name}: a create naming its parent is 'parent-missing' and stores nothing while the parent is not stored, and is a create (or a duplicate) while it is`, async () => {
    const store = await open();
    try {
      expect(await store.create(POTS, recordOf('1', 0), owner('7'))).toBe('parent-missing');
      expect(await store.get(POTS, '1')).toBeUndefined();
      expect(await store.count(POTS)).toBe(0);
      expect(await listAll(store, POTS, 2)).toEqual([]);
      expect(await store.create(PLANTS, recordOf('7', 0))).toBe('created');
      expect(await store.create(POTS, recordOf('1', 1), owner('7'))).toBe('created');
      expect(await store.create(POTS, recordOf('1', 2), owner('7'))).toBe('duplicate');
      // Another key of the parent's collection is another parent; the collection's other records are no parent of it.
      expect(await store.create(POTS, recordOf('2', 0), owner('"7"'))).toBe('parent-missing');
      expect(await store.create(POTS, recordOf('2', 0), { collection: POTS, key: '7' })).toBe('parent-missing');
      expect(await store.delete(PLANTS, '7')).toBe('deleted');
      expect(await store.create(POTS, recordOf('3', 0), owner('7'))).toBe('parent-missing');
      expect(await listAll(store, POTS, 2)).toEqual([recordOf('1', 1)]);
    } finally {
      await store.close();
    }
  });

  it(`${name}: a seed naming its parent is 'parent-missing' and stores none of it while the parent is not stored, and all of it (or, a key taken, none) while it is`, async () => {
    const store = await open();
    try {
      expect(await store.seed(POTS, [recordOf('1', 0), recordOf('2', 0)], owner('7'))).toBe('parent-missing');
      expect(await store.seed(POTS, [], owner('7'))).toBe('parent-missing');
      expect(await store.count(POTS)).toBe(0);
      expect(await store.create(PLANTS, recordOf('7', 0))).toBe('created');
      expect(await store.seed(POTS, [recordOf('1', 1), recordOf('2', 1)], owner('7'))).toEqual({ created: 2 });
      expect(await store.seed(POTS, [recordOf('3', 1), recordOf('2', 2)], owner('7'))).toEqual({ duplicates: ['2'] });
      expect(await store.delete(PLANTS, '7')).toBe('deleted');
      expect(await store.seed(POTS, [recordOf('3', 0)], owner('7'))).toBe('parent-missing');
      expect(await listAll(store, POTS, 10)).toEqual([recordOf('1', 1), recordOf('2', 1)]);
    } finally {
      await store.close();
    }
  });

  it(`${name}: creates asked for together under a stored parent, a missing one and none each get their own outcome`, async () => {
    const store = await open();
    try {
      expect(await store.create(PLANTS, recordOf('1', 0))).toBe('created');
      // Not awaited one by one: a store that sends creates together (Redis) must not mix their parents up.
      const outcomes = await Promise.all([
        store.create(POTS, recordOf('10', 0), owner('1')),
        store.create(POTS, recordOf('20', 0), owner('2')),
        store.create(POTS, recordOf('30', 0)),
        store.create(POTS, recordOf('11', 0), owner('1')),
        store.create(POTS, recordOf('21', 0), owner('2')),
        store.create(POTS, recordOf('10', 1), owner('1')),
      ]);
      expect(outcomes).toEqual(['created', 'parent-missing', 'created', 'created', 'parent-missing', 'duplicate']);
      expect(await listAll(store, POTS, 10)).toEqual([recordOf('10', 0), recordOf('30', 0), recordOf('11', 0)]);
    } finally {
      await store.close();
    }
  });

  it(`${name}: the parent deleted (by another replica) after a check of it and before the create: the create is 'parent-missing', and no record outlives its parent`, async () => {
    const store = await open();
    const other = await replica(store);
    try {
      expect(await store.create(PLANTS, recordOf('5', 0))).toBe('created');
      // What the engine does for POST /plants/5/pots: it reads the parent, then creates. Between the two, the other replica's DELETE /plants/5 runs whole.
      expect(await store.get(PLANTS, '5')).toEqual(recordOf('5', 0));
      expect(await other.delete(PLANTS, '5')).toBe('deleted');
      expect(await listAll(other, POTS, 10)).toEqual([]);
      expect(await store.create(POTS, recordOf('1', 0), owner('5'))).toBe('parent-missing');
      expect(await store.seed(POTS, [recordOf('2', 0)], owner('5'))).toBe('parent-missing');
      // The parent created again with that id starts with nothing under it.
      expect(await other.create(PLANTS, recordOf('5', 1))).toBe('created');
      expect(await listAll(store, POTS, 10)).toEqual([]);
    } finally {
      if (other !== store) await other.close();
      await store.close();
    }
  });
}

/**
 * A clear by example: the collection and those nested under it go, in one step, nothing else; the
 * highest numbers their keys were stay known (past a reopen of a durable store), so a sequence of
 * assigned identities never gives one again; a reset forgets them.
 */
function runClearChecks(name: string, open: () => Promise<ResourceStore>, reopen?: (store: ResourceStore) => Promise<ResourceStore>): void {
  it(`${name}: clear forgets the collection and the collections nested under it, keeps every other one and the highest key numbers${reopen ? ', also after a reopen' : ''}`, async () => {
    let store = await open();
    try {
      for (const key of ['1', '2', '12']) expect(await store.create(PLANTS, recordOf(key, 0))).toBe('created');
      expect(await store.create(PLANT_POTS, recordOf('"5"', 0), { collection: PLANTS, key: '1' })).toBe('created');
      expect(await store.create('/plants/2/care', recordOf('0', 0), { collection: PLANTS, key: '2' })).toBe('created');
      expect(await store.create(PLANTSX, recordOf('40', 0))).toBe('created');
      expect(await store.create(POTS, recordOf('41', 0))).toBe('created');
      expect(await store.create('/plant', recordOf('42', 0))).toBe('created');
      expect(await store.create(PLANTS_ME, recordOf('0', 0))).toBe('created');
      expect(await store.create(PLANTS_SHELF, recordOf('7', 0))).toBe('created');
      expect(await store.delete(PLANTS, '2')).toBe('deleted');
      await store.clear(PLANTS, KEPT);
      const check = async (): Promise<void> => {
        for (const gone of [PLANTS, PLANT_POTS, '/plants/2/care']) {
          expect(await listAll(store, gone, 5)).toEqual([]);
          expect(await store.count(gone)).toBe(0);
        }
        expect(await store.get(PLANTS, '1')).toBeUndefined();
        expect(await listAll(store, PLANTSX, 5)).toEqual([recordOf('40', 0)]);
        expect(await listAll(store, POTS, 5)).toEqual([recordOf('41', 0)]);
        expect(await listAll(store, '/plant', 5)).toEqual([recordOf('42', 0)]);
        expect(await listAll(store, PLANTS_ME, 5)).toEqual([recordOf('0', 0)]);
        expect(await listAll(store, PLANTS_SHELF, 5)).toEqual([recordOf('7', 0)]);
        expect(await store.highestDeleted(PLANTS_SHELF)).toBe(0);
        expect(await store.highestDeleted(PLANTS)).toBe(12);
        expect(await store.highestDeleted(PLANT_POTS)).toBe(5);
        expect(await store.highestDeleted(PLANTSX)).toBe(0);
      };
      await check();
      if (reopen) {
        store = await reopen(store);
        await check();
      }
      // A nested collection alone, and one never stored: nothing else goes.
      expect(await store.create(PLANTS, recordOf('3', 0))).toBe('created');
      expect(await store.create(PLANT_POTS, recordOf('6', 0))).toBe('created');
      await store.clear(PLANT_POTS);
      await store.clear('/never');
      expect(await listAll(store, PLANTS, 5)).toEqual([recordOf('3', 0)]);
      expect(await listAll(store, PLANT_POTS, 5)).toEqual([]);
      expect(await store.highestDeleted(PLANT_POTS)).toBe(6);
      expect(await store.create(PLANT_POTS, recordOf('7', 0))).toBe('created');
      expect(await listAll(store, PLANT_POTS, 5)).toEqual([recordOf('7', 0)]);
      await store.reset();
      expect(await store.highestDeleted(PLANTS)).toBe(0);
      expect(await store.highestDeleted(PLANT_POTS)).toBe(0);
      if (reopen) {
        store = await reopen(store);
        expect(await store.highestDeleted(PLANTS)).toBe(0);
        expect(await store.count(PLANTSX)).toBe(0);
      }
    } finally {
      await store.close();
    }
  });
}

describe('store conformance: memory', () => {
  runConformance({ name: 'memory', numRuns: 150, open: () => Promise.resolve(new MemoryStore()) });
  runParentChecks(
    'memory',
    () => Promise.resolve(new MemoryStore()),
    (store) => Promise.resolve(store),
  );
  runClearChecks('memory', () => Promise.resolve(new MemoryStore()));
});

describe('store conformance: state file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-conformance-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  const paths = new WeakMap<ResourceStore, string>();
  const openAt = async (path: string): Promise<ResourceStore> => {
    const store = await openStateFile(path, { logger: { error: () => undefined, warn: () => undefined, info: () => undefined } });
    paths.set(store, path);
    return store;
  };
  const pathOf = (store: ResourceStore): string => paths.get(store) as string;

  /** A write torn by a crash leaves part of a record after the last whole one: the next open keeps every whole record. */
  const tornTail = fc.constantFrom('{"op":"create","c', '\n{"op":"del', '\u0000\u0000\u0000', '{"not":"a record"}\n').map((garbage) =>
    fc.constant(
      command(`close, append ${JSON.stringify(garbage)}, open again`, async (model, real) => {
        const path = pathOf(real.store);
        await real.store.close();
        appendFileSync(path, garbage);
        real.store = await openAt(path);
        real.cursor = undefined;
        model.held = undefined;
      }),
    ),
  );

  runConformance({
    name: 'state file',
    numRuns: 40,
    open: () => openAt(join(dir, `plants-${++files}.state`)),
    reopen: async (store) => {
      const path = pathOf(store);
      await store.close();
      return openAt(path);
    },
    faults: [tornTail.chain((c) => c)],
  });
  runParentChecks(
    'state file',
    () => openAt(join(dir, `plants-${++files}.state`)),
    (store) => Promise.resolve(store),
  );
  runClearChecks(
    'state file',
    () => openAt(join(dir, `plants-${++files}.state`)),
    async (store) => {
      const path = pathOf(store);
      await store.close();
      return openAt(path);
    },
  );

  it('state file: a parent not yet on disk is no parent (as a read says), and a nested record kept is there after a restart', async () => {
    const path = join(dir, 'nested.state');
    let store = await openAt(path);
    const parent = store.create(PLANTS, recordOf('1', 0));
    expect(await store.create(POTS, recordOf('9', 0), { collection: PLANTS, key: '1' })).toBe('parent-missing');
    expect(await parent).toBe('created');
    expect(await store.create(POTS, recordOf('9', 1), { collection: PLANTS, key: '1' })).toBe('created');
    await store.close();
    store = await openAt(path);
    expect(await listAll(store, POTS, 2)).toEqual([recordOf('9', 1)]);
    await store.close();
  });

  it('state file: cut inside its last record (a crash mid-write), opens with every record before it and appends after them', async () => {
    const path = join(dir, 'torn.state');
    let store = await openAt(path);
    for (const key of ['1', '2', '3']) await store.create(PLANTS, recordOf(key, 0));
    await store.close();
    truncateSync(path, statSync(path).size - 7);
    store = await openAt(path);
    expect(await listAll(store, PLANTS, 2)).toEqual([recordOf('1', 0), recordOf('2', 0)]);
    expect(await store.create(PLANTS, recordOf('3', 1))).toBe('created');
    await store.close();
    store = await openAt(path);
    expect(await listAll(store, PLANTS, 2)).toEqual([recordOf('1', 0), recordOf('2', 0), recordOf('3', 1)]);
    await store.close();
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`store conformance: Redis${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  let server: RedisServer;
  let inspect: Redis;
  beforeAll(async () => {
    server = await RedisServer.start();
    inspect = new Redis(server.url);
  });
  afterAll(async () => {
    inspect?.disconnect();
    await server?.stop();
  });
  let prefixes = 0;
  const prefixOf = new WeakMap<ResourceStore, string>();
  const openWith = async (prefix: string): Promise<ResourceStore> => {
    const store = await openRedisStore({ url: server.url, prefix });
    prefixOf.set(store, prefix);
    return store;
  };

  /** Every key of the store's prefix gone at once, as a FLUSHALL (or FLUSHDB) does under a running mock. */
  const flushed = fc.constant(
    command('FLUSHALL', async (model) => {
      await inspect.flushall();
      // What Redis held is gone; the held cursor must still mean "after that place", never a new record's.
      model.collections.clear();
      model.deleted.clear();
    }),
  );

  runConformance({
    name: 'Redis',
    numRuns: 60,
    open: () => openWith(`conformance-${++prefixes}`),
    reopen: async (store) => {
      const prefix = prefixOf.get(store) as string;
      await store.close();
      return openWith(prefix);
    },
    faults: [flushed, flushed],
  });
  runParentChecks(
    'Redis',
    () => openWith(`parents-${++prefixes}`),
    (store) => openWith(prefixOf.get(store) as string),
  );
  runClearChecks(
    'Redis',
    () => openWith(`clears-${++prefixes}`),
    async (store) => {
      const prefix = prefixOf.get(store) as string;
      await store.close();
      return openWith(prefix);
    },
  );

  it('Redis: after a FLUSHALL a cursor issued before it still reads every new record, and none repeats a place (issue 24)', async () => {
    const store = await openWith('flushed');
    try {
      for (const key of ['1', '2', '3', '4', '5']) await store.create(PLANTS, recordOf(key, 0));
      const first = await store.page(PLANTS, { limit: 4 });
      expect(first.next).toBeDefined();
      await inspect.flushall();
      for (const key of ['6', '7']) await store.create(PLANTS, recordOf(key, 0));
      expect((await store.page(PLANTS, { after: first.next, limit: 10 })).records.map((record) => record.key)).toEqual(['6', '7']);
      // The new records' places lie after every place handed out before the flush.
      const walked = await store.page(PLANTS, { limit: 1 });
      expect(BigInt(walked.next as string)).toBeGreaterThan(BigInt(first.next as string));
    } finally {
      await store.close();
    }
  });

  it('Redis: a key of the wrong type planted in its place fails that collection with StorageFailure, never a hang, and the others serve', async () => {
    const store = await openWith('planted');
    try {
      await inspect.set(`planted:records:${POTS}`, 'not a hash');
      await inspect.hset(`planted:order:${PLANTS}`, 'x', 'not a sorted set');
      for (const attempt of [() => store.create(POTS, recordOf('1', 0)), () => store.get(POTS, '1'), () => store.page(PLANTS, { limit: 2 }), () => store.count(POTS)]) {
        await expect(attempt()).rejects.toBeInstanceOf(StorageFailure);
      }
      // Refused before anything is written: no record in the hash without its place in the order (Redis undoes nothing of a failed script).
      await expect(store.create(PLANTS, recordOf('1', 0))).rejects.toThrow(/WRONGTYPE planted:order:\/plants holds a hash, not a zset/);
      await expect(store.seed(PLANTS, [recordOf('2', 0)])).rejects.toBeInstanceOf(StorageFailure);
      expect(await inspect.exists(`planted:records:${PLANTS}`)).toBe(0);
      expect(await store.create('/other', recordOf('1', 0))).toBe('created');
      expect(await listAll(store, '/other', 2)).toEqual([recordOf('1', 0)]);
      // A record that is not JSON (truncated, or text of another program) is refused where it is read, never handed on as a record.
      expect(await store.create('/texts', recordOf('1', 0))).toBe('created');
      expect(await store.create('/texts', recordOf('3', 0))).toBe('created');
      await inspect.hset('planted:records:/texts', '2', '{"id":2,"na');
      await inspect.zadd('planted:order:/texts', Number.MAX_SAFE_INTEGER - 1, '2');
      await expect(store.get('/texts', '2')).rejects.toThrow(/holds a record that is not a JSON object under planted:records:\/texts field "2"/);
      await expect(listAll(store, '/texts', 5)).rejects.toBeInstanceOf(StorageFailure);
      expect(await store.get('/texts', '1')).toEqual(recordOf('1', 0));
      // A place in the order with no record (planted) is passed over, and the walk goes on past it.
      await inspect.hdel('planted:records:/texts', '2');
      await inspect.zadd('planted:order:/texts', 0, 'orphan');
      expect(await listAll(store, '/texts', 1)).toEqual([recordOf('1', 0), recordOf('3', 0)]);
      // A sequence that is not a number refuses creates, clearly, and stores none of them.
      await inspect.set('planted:seq', 'garbage');
      await expect(store.create('/other', recordOf('2', 0))).rejects.toThrow(/refused the command: ERR planted:seq holds "garbage", not a sequence number/);
      expect(await store.count('/other')).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('Redis: out of memory, a change is refused with StoreUnavailable (nothing stored), health reports the store cannot write, and both recover', async () => {
    const small = await RedisServer.start({ args: ['--maxmemory', '2mb', '--maxmemory-policy', 'noeviction'] });
    const store = await openRedisStore({ url: small.url, prefix: 'oom' });
    try {
      const name = 'n'.repeat(20_000);
      let refusal: unknown;
      let created = 0;
      for (let id = 1; id <= 500 && refusal === undefined; id++) {
        try {
          await store.create(PLANTS, { key: String(id), json: `{"id":${id},"name":"${name}"}` });
          created++;
        } catch (error) {
          refusal = error;
        }
      }
      expect(refusal).toBeInstanceOf(StoreUnavailable);
      expect((refusal as StoreUnavailable).maybeApplied).toBe(false);
      expect(String((refusal as Error).message)).toMatch(/OOM/);
      expect(store.health()).toMatchObject({ state: 'down', kind: 'redis', detail: expect.stringMatching(/refuses changes/) });
      expect(await store.count(PLANTS)).toBe(created);
      await store.reset();
      expect(store.health()).toMatchObject({ state: 'up' });
      expect(await store.create(PLANTS, recordOf('1', 0))).toBe('created');
    } finally {
      await store.close();
      await small.stop();
    }
  });
});
