/**
 * The Redis ResourceStore against a real redis-server (started per file on a free port): the
 * store's rules, atomicity across several client connections, prefix and db isolation, and
 * faults (Redis killed and restarted, frozen, wrong password) answered with StoreUnavailable.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_MS, startMockProcess } from './processes.js';
import { openRedisStore, type RedisResourceStore, type RedisStoreOptions } from '../stores/redis.js';
import { maskUrl, parseRedisUrl } from '../stores/redis-target.js';
import { StoreUnavailable, type StoredRecord } from '../stores/store.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const PLANTS = '/plants';
const plant = (id: bigint | number, name = `Plant ${id}`): StoredRecord => ({ key: String(id), json: `{"id":${id},"name":${JSON.stringify(name)}}` });

/** Every record of a collection, following the cursor page by page (bounded). */
async function listAll(store: RedisResourceStore, collection = PLANTS, limit = 7): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.page(collection, { after, limit });
    records.push(...page.records);
    if (!page.next) return records;
    after = page.next;
  }
  throw new Error('more than 10 000 pages');
}

/** Polls until the store reports `up` and answers a read (bounded by a safety limit, not a timing). */
async function untilServing(store: RedisResourceStore): Promise<void> {
  for (const started = Date.now(); Date.now() - started < PATIENT_MS;) {
    if (store.health().state === 'up') {
      try {
        await store.count(PLANTS);
        return;
      } catch {
        // not yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the store did not come back: ${JSON.stringify(store.health())}`);
}

describe('parseRedisUrl and maskUrl', () => {
  it('reads host, port, db, credentials and TLS from the URL, and names it with the password masked', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6380')).toMatchObject({ host: '127.0.0.1', port: 6380, db: 0, tls: false, display: 'redis://127.0.0.1:6380' });
    expect(parseRedisUrl('rediss://:s%40cret@cache.example:6390/3')).toMatchObject({
      host: 'cache.example',
      port: 6390,
      db: 3,
      password: 's@cret',
      username: undefined,
      tls: true,
      display: 'rediss://:***@cache.example:6390/3',
    });
    expect(parseRedisUrl('redis://alice:pw@[::1]/2')).toMatchObject({ host: '::1', port: 6379, db: 2, username: 'alice', password: 'pw', display: 'redis://alice:***@[::1]/2' });
    expect(maskUrl('redis://onlypassword@h:1')).toBe('redis://***@h:1');
  });

  it('refuses other schemes, queries that would override the store settings, and paths that are not a db, naming the URL masked', () => {
    expect(() => parseRedisUrl('http://h:1')).toThrow(/http:\/\/h:1 has the scheme http/);
    expect(() => parseRedisUrl('redis://:pw@h:1/?enableOfflineQueue=true')).toThrow(/redis:\/\/:\*\*\*@h:1\/\?enableOfflineQueue=true has a query/);
    expect(() => parseRedisUrl('redis://h:1/db0')).toThrow(/not a database number/);
    expect(() => parseRedisUrl('not a url :pw@')).toThrow(/is not a URL/);
    for (const bad of ['http://u:pw@h', 'redis://u:pw@h/x', 'redis://u:pw@h?a=b']) {
      expect(() => parseRedisUrl(bad)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('pw') }));
    }
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`RedisResourceStore on a real redis-server${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  let server: RedisServer;
  let inspect: Redis;
  const stores: RedisResourceStore[] = [];
  let prefixes = 0;

  /** A store on the shared server under a prefix of its own (or the given one). */
  async function open(options: Partial<RedisStoreOptions> = {}): Promise<RedisResourceStore> {
    const store = await openRedisStore({ url: server.url, prefix: `test-${++prefixes}`, ...options });
    stores.push(store);
    return store;
  }

  beforeAll(async () => {
    server = await RedisServer.start();
    inspect = new Redis({ port: server.port, lazyConnect: true });
    await inspect.connect();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    inspect?.disconnect();
    await server?.stop();
  });

  it('creates once per key: a duplicate is refused and leaves the first record unchanged', async () => {
    const store = await open();
    expect(await store.create(PLANTS, plant(1, 'Monstera'))).toBe('created');
    expect(await store.create(PLANTS, plant(1, 'Impostor'))).toBe('duplicate');
    expect(await store.get(PLANTS, '1')).toEqual(plant(1, 'Monstera'));
    expect(await store.get(PLANTS, '2')).toBeUndefined();
    expect(await store.count(PLANTS)).toBe(1);
    // Collections are apart: the same key elsewhere is another record.
    expect(await store.create('/pots', plant(1, 'Terracotta'))).toBe('created');
    expect(await store.get('/pots', '1')).toEqual(plant(1, 'Terracotta'));
  });

  it('keeps record text and keys exact: ids over the whole int64 range, neighbours that round to one double', async () => {
    const store = await open();
    const ids = [-(2n ** 63n), -(2n ** 63n) + 1n, -(2n ** 53n) - 1n, -1n, 0n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 2n, 2n ** 63n - 1n];
    const records = ids.map((id) => ({ key: String(id), json: `{"id":${id},"name":"exact ${id}","tag":"ünïcødé ✓"}` }));
    for (const record of records) expect(await store.create(PLANTS, record)).toBe('created');
    expect(await store.count(PLANTS)).toBe(ids.length);
    expect(await listAll(store, PLANTS, 2)).toEqual(records);
    for (const record of records) expect(await store.get(PLANTS, record.key)).toEqual(record);
    // A string identity is its JSON text: "1" and 1 never collide.
    expect(await store.create(PLANTS, { key: '"0"', json: '{"id":"0"}' })).toBe('created');
  });

  it('sends the creates of one tick together and keeps the order they were asked in, with reads and other collections between them', async () => {
    const store = await open();
    // All asked for in one tick: more than one script call holds, two collections, a repeat, reads and a delete between.
    const keys = Array.from({ length: 4500 }, (_, i) => 10_000 + i);
    const outcomes = keys.map((id) => store.create(PLANTS, plant(id)));
    const repeated = store.create(PLANTS, plant(10_000, 'Impostor'));
    const pot = store.create('/pots', plant(10_000, 'Terracotta'));
    const seen = store.get(PLANTS, '14499');
    const counted = store.count(PLANTS);
    const deleted = store.delete(PLANTS, '10001');
    const after = store.create(PLANTS, plant(10_001, 'again'));
    expect(await Promise.all(outcomes)).toEqual(keys.map(() => 'created'));
    expect(await repeated).toBe('duplicate');
    expect(await pot).toBe('created');
    // A read asked for after the creates sees them: a connection's commands run in the order asked.
    expect(await seen).toEqual(plant(14_499));
    expect(await counted).toBe(4500);
    expect(await deleted).toBe('deleted');
    expect(await after).toBe('created');
    const listed = (await listAll(store, PLANTS, 1000)).map((record) => record.key);
    expect(listed).toEqual([...keys.filter((id) => id !== 10_001).map(String), '10001']);
    expect(await store.get('/pots', '10000')).toEqual(plant(10_000, 'Terracotta'));
  });

  it('seeds all or nothing: a taken key or a repeat stores none and names them; otherwise all, in order', async () => {
    const store = await open();
    await store.create(PLANTS, plant(5));
    expect(await store.seed(PLANTS, [plant(6), plant(5), plant(7), plant(7)])).toEqual({ duplicates: ['5', '7'] });
    expect(await store.count(PLANTS)).toBe(1);
    expect(await store.seed(PLANTS, [plant(6), plant(7), plant(8)])).toEqual({ created: 3 });
    expect(await store.seed(PLANTS, [])).toEqual({ created: 0 });
    expect((await listAll(store)).map((record) => record.key)).toEqual(['5', '6', '7', '8']);
  });

  it('seeds a large batch in one atomic script (no argument spread limit)', async () => {
    // One script of 100 000 records: on a slow machine it may outlast the store's usual command timeout.
    const store = await open({ commandTimeoutMs: PATIENT_MS });
    const records = Array.from({ length: 100_000 }, (_, i) => plant(i));
    expect(await store.seed(PLANTS, records)).toEqual({ created: 100_000 });
    expect(await store.count(PLANTS)).toBe(100_000);
    const first = await store.page(PLANTS, { limit: 3 });
    expect(first.records.map((record) => record.key)).toEqual(['0', '1', '2']);
  });

  it('replaces a record in its place in creation order; deletes, and a deleted key is created again at the end', async () => {
    const store = await open();
    for (const id of [1, 2, 3]) await store.create(PLANTS, plant(id));
    expect(await store.replace(PLANTS, plant(2, 'Renamed'))).toBe('replaced');
    expect(await store.replace(PLANTS, plant(9))).toBe('missing');
    expect(await store.get(PLANTS, '9')).toBeUndefined();
    expect(await listAll(store)).toEqual([plant(1), plant(2, 'Renamed'), plant(3)]);
    expect(await store.delete(PLANTS, '1')).toBe('deleted');
    expect(await store.delete(PLANTS, '1')).toBe('missing');
    expect(await store.create(PLANTS, plant(1, 'Again'))).toBe('created');
    expect(await listAll(store)).toEqual([plant(2, 'Renamed'), plant(3), plant(1, 'Again')]);
    expect(await store.count(PLANTS)).toBe(3);
  });

  it('pages in creation order with a cursor that survives deletes and creates between pages', async () => {
    const store = await open();
    for (let id = 1; id <= 10; id++) await store.create(PLANTS, plant(id));
    const first = await store.page(PLANTS, { limit: 4 });
    expect(first.records.map((record) => record.key)).toEqual(['1', '2', '3', '4']);
    expect(first.next).toBeDefined();
    await store.delete(PLANTS, '4'); // the record the cursor names
    await store.delete(PLANTS, '5');
    await store.create(PLANTS, plant(11));
    const second = await store.page(PLANTS, { after: first.next, limit: 4 });
    expect(second.records.map((record) => record.key)).toEqual(['6', '7', '8', '9']);
    const last = await store.page(PLANTS, { after: second.next, limit: 4 });
    expect(last).toEqual({ records: [plant(10), plant(11)] });
    expect(await store.page(PLANTS, { limit: 2 }).then((page) => page.records.length)).toBe(2);
    expect(await store.page('/empty', { limit: 5 })).toEqual({ records: [] });
    // Exactly a full last page: no next.
    expect((await store.page(PLANTS, { after: second.next, limit: 2 })).next).toBeUndefined();
    await expect(store.page(PLANTS, { after: 'x', limit: 2 })).rejects.toThrow(RangeError);
    await expect(store.page(PLANTS, { limit: 0 })).rejects.toThrow(RangeError);
  });

  it('resets only its own prefix; keys are free again after', async () => {
    const mine = await open();
    const neighbour = await open();
    await mine.create(PLANTS, plant(1));
    await mine.create('/pots', plant(1));
    await neighbour.create(PLANTS, plant(1, 'Neighbour'));
    await mine.reset();
    expect(await mine.count(PLANTS)).toBe(0);
    expect(await mine.count('/pots')).toBe(0);
    expect(await mine.page(PLANTS, { limit: 5 })).toEqual({ records: [] });
    expect(await neighbour.get(PLANTS, '1')).toEqual(plant(1, 'Neighbour'));
    expect(await mine.create(PLANTS, plant(1, 'Fresh'))).toBe('created');
    // Nothing of `mine` is left but its sequence and what it stored since.
    expect((await inspect.keys(`${mine.prefix}:*`)).sort()).toEqual([`${mine.prefix}:collections`, `${mine.prefix}:order:/plants`, `${mine.prefix}:records:/plants`, `${mine.prefix}:seq`]);
  });

  it("keeps sandboxes apart by the URL's db as well as by prefix", async () => {
    const db1 = await open({ url: `${server.url}/1`, prefix: 'same' });
    const db2 = await open({ url: `${server.url}/2`, prefix: 'same' });
    await db1.create(PLANTS, plant(1, 'In db 1'));
    expect(await db2.get(PLANTS, '1')).toBeUndefined();
    expect(await db2.create(PLANTS, plant(1, 'In db 2'))).toBe('created');
    await db2.reset();
    expect(await db1.get(PLANTS, '1')).toEqual(plant(1, 'In db 1'));
  });

  it('refuses a prefix that could reach into another sandbox', async () => {
    await expect(openRedisStore({ url: server.url, prefix: 'a:b' })).rejects.toThrow(/store prefix "a:b" is not usable/);
    await expect(openRedisStore({ url: server.url, prefix: '' })).rejects.toThrow(/not usable/);
  });

  describe('across several connections (three stores on one prefix, as three replicas)', () => {
    let replicas: RedisResourceStore[];
    beforeAll(async () => {
      const prefix = `replicas-${++prefixes}`;
      replicas = [await open({ prefix }), await open({ prefix }), await open({ prefix })];
    });

    it('50 simultaneous creates of one key: exactly one created, 49 duplicates, the winner stored', async () => {
      await replicas[0]?.reset();
      const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => (replicas[i % 3] as RedisResourceStore).create(PLANTS, plant(42n, `attempt ${i}`))));
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(49);
      const winner = outcomes.indexOf('created');
      for (const replica of replicas) expect(await replica.get(PLANTS, '42')).toEqual(plant(42n, `attempt ${winner}`));
      expect(await replicas[1]?.count(PLANTS)).toBe(1);
    });

    it('600 distinct creates over 3 connections: each listed exactly once, each connection in its own order', async () => {
      await replicas[0]?.reset();
      const base = 2n ** 63n - 1000n;
      const keysOf = replicas.map((_, r) => Array.from({ length: 200 }, (_, i) => String(base + BigInt(i * 3 + r))));
      const outcomes = await Promise.all(replicas.flatMap((replica, r) => (keysOf[r] as string[]).map((key) => replica.create(PLANTS, { key, json: `{"id":${key}}` }))));
      expect(outcomes.every((outcome) => outcome === 'created')).toBe(true);
      for (const replica of replicas) {
        const listed = (await listAll(replica, PLANTS, 64)).map((record) => record.key);
        expect(listed).toHaveLength(600);
        expect(new Set(listed).size).toBe(600);
        expect(new Set(listed)).toEqual(new Set(keysOf.flat()));
        // One connection's commands run in the order it sent them, so its creates are listed in that order.
        for (const keys of keysOf) expect(listed.filter((key) => keys.includes(key))).toEqual(keys);
      }
      expect(await replicas[2]?.count(PLANTS)).toBe(600);
    });

    it('a reset during a burst leaves no half state: per connection, exactly the creates after the reset survive', async () => {
      await replicas[0]?.reset();
      const resetter = replicas[0] as RedisResourceStore;
      const issued: string[][] = replicas.map(() => []);
      let resetDone = false;
      let acknowledged = 0;
      let resetting: Promise<void> | undefined;
      // Four workers per connection create until each has sent 40 creates after the reset was acknowledged.
      const workers = replicas.flatMap((replica, r) =>
        Array.from({ length: 4 }, async (_, w) => {
          let after = 0;
          for (let i = 0; i < 5000 && after < 40; i++) {
            const key = `${r}${w}${String(i).padStart(5, '0')}`;
            (issued[r] as string[]).push(key); // the order this connection sends them in
            const sentAfterReset = resetDone; // sent once the reset was acknowledged: runs after it
            expect(await replica.create(PLANTS, { key, json: `{"id":${key}}` })).toBe('created');
            if (sentAfterReset) after++;
            if (++acknowledged === 300) resetting = resetter.reset().then(() => void (resetDone = true));
          }
        }),
      );
      await Promise.all(workers);
      await resetting;
      const listed = (await listAll(resetter, PLANTS, 100)).map((record) => record.key);
      expect(await resetter.count(PLANTS)).toBe(listed.length);
      let wiped = 0;
      for (const sent of issued) {
        const survivors = listed.filter((key) => sent.includes(key));
        // The survivors of each connection are exactly the tail of what it sent: all before the reset gone, all after kept.
        expect(survivors).toEqual(sent.slice(sent.length - survivors.length));
        wiped += sent.length - survivors.length;
      }
      expect(wiped).toBeGreaterThanOrEqual(300);
      expect(listed.length).toBeGreaterThanOrEqual(3 * 4 * 40);
      // The hash and the order set agree, member for member.
      const prefix = resetter.prefix;
      const ordered = await inspect.zrange(`${prefix}:order:${PLANTS}`, '0', '-1');
      expect(new Set(await inspect.hkeys(`${prefix}:records:${PLANTS}`))).toEqual(new Set(ordered));
    });
  });

  it('names the URL with the password masked in health, and refuses a wrong password at open with StoreUnavailable', async () => {
    const guarded = await RedisServer.start({ args: ['--requirepass', 'hunter2'] });
    try {
      const url = `redis://:hunter2@127.0.0.1:${guarded.port}/0`;
      const store = await openRedisStore({ url, prefix: 'guarded' });
      try {
        expect(store.health()).toEqual({ state: 'up', kind: 'redis', detail: `redis://:***@127.0.0.1:${guarded.port}/0 (prefix guarded)` });
        expect(JSON.stringify(store.health())).not.toContain('hunter2');
      } finally {
        await store.close();
      }
      const refused = openRedisStore({ url: `redis://:wrong@127.0.0.1:${guarded.port}` });
      await expect(refused).rejects.toThrow(StoreUnavailable);
      await expect(refused).rejects.toThrow(`Cannot reach Redis at redis://:***@127.0.0.1:${guarded.port}`);
    } finally {
      await guarded.stop();
    }
  });

  it('refuses to open when nothing listens, naming the URL', async () => {
    const gone = await RedisServer.start();
    const url = gone.url;
    await gone.stop();
    const refused = openRedisStore({ url });
    await expect(refused).rejects.toThrow(StoreUnavailable);
    await expect(refused).rejects.toThrow(new RegExp(`^Cannot reach Redis at ${url}: .*ECONNREFUSED`));
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`RedisResourceStore when Redis fails${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  it('killed with kill -9 and restarted: every operation fails with StoreUnavailable meanwhile, the same store serves again after, acknowledged records kept', async () => {
    const server = await RedisServer.start({ persistence: 'aof-always' });
    const warnings: string[] = [];
    const store = await openRedisStore({
      url: server.url,
      prefix: 'crash',
      logger: { warn: (_, message) => warnings.push(message), info: (_, message) => warnings.push(message) },
    });
    try {
      const acknowledged = Array.from({ length: 200 }, (_, i) => plant(i));
      expect(await Promise.all(acknowledged.map((record) => store.create(PLANTS, record)))).toEqual(acknowledged.map(() => 'created'));
      expect(store.health().state).toBe('up');

      // A burst killed midway: 20 workers create until Redis is gone; every create is either
      // acknowledged or refused with StoreUnavailable, never lost once acknowledged.
      const acknowledgedInBurst: StoredRecord[] = [];
      const refusals: unknown[] = [];
      let killed: Promise<void> | undefined;
      await Promise.all(
        Array.from({ length: 20 }, async (_, worker) => {
          for (let i = 0; i < 10_000; i++) {
            const record = plant(10_000 + worker * 10_000 + i);
            try {
              expect(await store.create(PLANTS, record)).toBe('created');
              acknowledgedInBurst.push(record);
              if (acknowledgedInBurst.length === 500) killed = server.kill();
            } catch (error) {
              refusals.push(error);
              return;
            }
          }
        }),
      );
      await killed;
      expect(acknowledgedInBurst.length).toBeGreaterThanOrEqual(500);
      expect(refusals).toHaveLength(20);
      for (const refusal of refusals) expect(refusal).toBeInstanceOf(StoreUnavailable);

      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['create', () => store.create(PLANTS, plant(1000))],
        ['seed', () => store.seed(PLANTS, [plant(1001)])],
        ['get', () => store.get(PLANTS, '1')],
        ['replace', () => store.replace(PLANTS, plant(1, 'x'))],
        ['delete', () => store.delete(PLANTS, '1')],
        ['reset', () => store.reset()],
        ['page', () => store.page(PLANTS, { limit: 5 })],
        ['count', () => store.count(PLANTS)],
      ];
      for (const [name, attempt] of attempts) {
        await expect(attempt(), name).rejects.toThrow(StoreUnavailable);
      }
      expect(store.health()).toMatchObject({ state: 'down', kind: 'redis', detail: expect.stringContaining(server.url) });

      await server.restart();
      await untilServing(store);
      expect(store.health()).toEqual({ state: 'up', kind: 'redis', detail: `${server.url} (prefix crash)` });
      // appendfsync always: whatever Redis acknowledged before the kill is there, in order.
      const listed = await listAll(store, PLANTS, 500);
      expect(listed.slice(0, acknowledged.length)).toEqual(acknowledged);
      const keys = new Set(listed.map((record) => record.key));
      expect(acknowledgedInBurst.filter((record) => !keys.has(record.key))).toEqual([]);
      expect(await store.create(PLANTS, plant(1000))).toBe('created');
      expect(await store.get(PLANTS, '1001')).toBeUndefined(); // the refused seed left nothing
      expect(warnings).toEqual(['lost Redis; requests needing the store get 503 until it is back', 'Redis is back; serving']);
    } finally {
      await store.close();
      await server.stop();
    }
  });

  it('frozen (no answer): commands fail with StoreUnavailable after the command timeout, then serve again', async () => {
    const server = await RedisServer.start();
    const store = await openRedisStore({ url: server.url, prefix: 'frozen', commandTimeoutMs: 300 });
    try {
      server.pause();
      // Sent and unanswered: it may have been applied, and the error says so.
      await expect(store.create(PLANTS, plant(1))).rejects.toThrow(
        expect.objectContaining({ name: 'StoreUnavailable', maybeApplied: true, message: expect.stringMatching(/did not answer \(Command timed out\)/) }),
      );
      expect(store.health()).toMatchObject({ state: 'down', detail: `${server.url}: Command timed out` });
      // Later commands are not sent into the silence: refused at once, each saying nothing was sent.
      await expect(store.create(PLANTS, plant(2))).rejects.toThrow(expect.objectContaining({ maybeApplied: false, message: expect.stringMatching(/out of reach \(Command timed out\)$/) }));
      server.resume();
      await untilServing(store);
      // The unanswered create may have run once Redis woke (never twice): it is a duplicate or missing, never doubled.
      expect(await store.count(PLANTS)).toBeLessThanOrEqual(1);
      expect(await store.create(PLANTS, plant(2))).toBe('created');
    } finally {
      await store.close();
      await server.stop();
    }
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`the mock on a Redis out of memory${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  it('answers a refused create 503 (not a 500 about the disk) and health says the store refuses changes, until Redis takes them again (issue 24)', async () => {
    const server = await RedisServer.start({ args: ['--maxmemory', '3mb', '--maxmemory-policy', 'noeviction'] });
    try {
      const mock = await startMockProcess(['--store', server.url, '--store-prefix', 'oom', '--log-level', 'warn']);
      const name = 'n'.repeat(50_000);
      let refused: Response | undefined;
      for (let id = 1; id <= 200 && !refused; id++) {
        const response = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ id, name }) });
        if (response.status !== 200) refused = response;
        else await response.arrayBuffer();
      }
      expect(refused?.status).toBe(503);
      const text = await refused?.text();
      expect(text).not.toMatch(/disk/i);
      const health = await fetch(`${mock.url}/__mock/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'unavailable', store: { state: 'down', kind: 'redis' } });
      // Freed (a reset deletes), Redis takes changes again, and health says so after the next one.
      expect((await fetch(`${mock.url}/__mock/plants`, { method: 'DELETE' })).status).toBe(204);
      expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`a clear on a Redis past its maxmemory${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  // Redis refuses a script whose first write may grow it (HSET) while it is past maxmemory, not one
  // that begins by freeing: a clear must free a full store, whatever the memory is at that moment.
  it('forgets the collection and still keeps its highest id, then takes creates again', async () => {
    const server = await RedisServer.start({ args: ['--maxmemory-policy', 'noeviction'] });
    const admin = new Redis(server.url);
    try {
      const mock = await startMockProcess(['--store', server.url, '--store-prefix', 'full', '--log-level', 'warn']);
      for (const id of [5, 9]) {
        const created = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ id, name: 'Fern' }) });
        expect(created.status).toBe(200);
      }
      await admin.config('SET', 'maxmemory', '1'); // past it from now on, whatever is stored
      const refused = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ id: 11, name: 'Fern' }) });
      expect(refused.status).toBe(503);
      const cleared = await fetch(`${mock.url}/__mock/plants`, { method: 'DELETE' });
      expect(cleared.status, await cleared.text()).toBe(204);
      expect(await admin.hget('full:deleted', '/plants')).toBe('9');
      await admin.config('SET', 'maxmemory', '0');
      expect(await (await fetch(`${mock.url}/__mock/plants`)).json()).toEqual([]);
    } finally {
      admin.disconnect();
      await server.stop();
    }
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`the mock on a Redis holding garbage${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  it('answers a key of the wrong type planted by another program with a 500 about Redis (not the disk), stores nothing, serves once the key is gone, and a record that is not JSON is a 500 too (issue 24)', async () => {
    const server = await RedisServer.start();
    const inspect = new Redis(server.url);
    try {
      const mock = await startMockProcess(['--store', server.url, '--store-prefix', 'garbage', '--log-level', 'warn']);
      await inspect.hset('garbage:order:/plants', 'planted', 'by another program');
      const post = (id: number) =>
        fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ id, name: 'fern' }) });
      const refused = await post(1);
      expect(refused.status).toBe(500);
      const text = await refused.text();
      expect(text).toMatch(/Redis store refused this request \(WRONGTYPE\)/);
      expect(text).not.toMatch(/disk|bug in the mock/i);
      // Nothing half-stored: no record in the hash without its place in the order.
      expect(await inspect.exists('garbage:records:/plants')).toBe(0);
      // The mock's health is its store's: Redis serves; once the planted key is gone the collection serves again.
      expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
      await inspect.del('garbage:order:/plants');
      expect((await post(5)).status).toBe(200);
      // A record another program wrote that is not JSON: a 500 about Redis, never a 200 whose body is not JSON.
      await inspect.hset('garbage:records:/plants', '5', '{"id":5,"na');
      const listing = await fetch(`${mock.url}/__mock/plants`);
      expect(listing.status).toBe(500);
      expect(await listing.text()).toMatch(/Redis store refused this request \(NOTJSON\)/);
    } finally {
      inspect.disconnect();
      await server.stop();
    }
  });
});
