/**
 * The ResourceStore behind `--store redis://…`: every replica of a sandbox shares one Redis, so a
 * record created through one replica is listed, and its key refused, by every other.
 *
 * Keys, for a prefix P (letters, digits, `.`, `_`, `-`; never `:`, so no two prefixes or
 * collections can produce the same key):
 * - `P:records:<collection>`: a hash, record key → exact JSON text;
 * - `P:order:<collection>`: a sorted set, record key scored by its creation sequence number;
 * - `P:seq`: the sequence (INCR), kept across resets so a cursor never points into reused numbers;
 *   when it is missing (new, or flushed) it starts at Redis' clock in microseconds (SHARED_LUA);
 * - `P:collections`: the collections that hold records, so a reset or a clear finds them without SCAN;
 * - `P:deleted`: a hash, collection → the highest sequence number a deleted key of it was
 *   (`highestDeleted`), forgotten by a reset.
 *
 * Every change is one Lua script, which Redis runs atomically (no other command of any client
 * interleaves): no half-created record, no create interleaved with a reset, and a nested record's
 * create checks its parent record in its own script (no replica's delete of the parent falls
 * between). A seed is the exception: its scripts are chunks, so a large one does not hold Redis
 * from the other replicas; a refused seed leaves nothing behind (`seed`).
 * There are no locks of our own. Record keys are the caller's exact text (integer digits as
 * digits), so two int64 ids that round to the same double are two hash fields.
 *
 * Faults: while Redis is out of reach (refused, lost, not answering within the command timeout)
 * every operation rejects with StoreUnavailable and nothing is queued for later: commands are
 * never buffered offline nor resent after a reconnect, so a change is applied at most once and
 * only a change Redis acknowledged is reported as done. The client reconnects by itself.
 */
import { type Redis, ReplyError, type Result, type Callback } from 'ioredis';
import {
  sequenceNumberOf,
  StorageFailure,
  StoreUnavailable,
  type CreateOutcome,
  type DeleteOutcome,
  type Page,
  type PageQuery,
  type ParentRecord,
  type ReplaceOutcome,
  type ResourceStore,
  type SeedOutcome,
  type StoreHealth,
  type StoredRecord,
} from './store.js';
import { connectRedis, type RedisConnectionOptions } from './redis-connection.js';
import { DEFAULT_STORE_PREFIX, parseStorePrefix, type RedisTarget } from './redis-target.js';

// The next n sequence numbers of KEYS[3]. A missing sequence (a new prefix, or a Redis that was
// flushed) starts at Redis' clock in microseconds, not at 0: a cursor issued before a FLUSHALL
// then still lies below every number issued after it, so it never names a new record's place.
// (Exact: ~1.8e15 < 2^53, and a sequence outruns the clock only at a million creates a second.)
const SHARED_LUA = `
-- Redis does not undo a script's earlier writes when a later command fails: a key of another
-- type (or a sequence that is not a number) planted by another program is refused before anything
-- is written, so a change is never half applied (a record in the hash but not in the order).
local function refuseForeignKeys(types)
  for i, expected in ipairs(types) do
    local actual = redis.call('TYPE', KEYS[i]).ok
    if actual ~= 'none' and actual ~= expected then
      return redis.error_reply('WRONGTYPE ' .. KEYS[i] .. ' holds a ' .. actual .. ', not a ' .. expected .. ' (written by another program?)')
    end
  end
  local seq = types[3] and redis.call('GET', KEYS[3])
  if seq and not string.match(seq, '^%d+$') then
    return redis.error_reply('ERR ' .. KEYS[3] .. ' holds ' .. string.format('%q', string.sub(seq, 1, 40)) .. ', not a sequence number')
  end
end
local function nextSeq(n)
  if redis.call('EXISTS', KEYS[3]) == 0 then
    local now = redis.call('TIME')
    redis.call('SET', KEYS[3], now[1] .. string.format('%06d', tonumber(now[2])))
  end
  return redis.call('INCRBY', KEYS[3], n)
end`;

// KEYS: records, order, seq, collections, and for nested records the parent's records. ARGV:
// collection, the parent's key (nested records only), then key and json of each create, in the
// order they were asked for. Returns one flag per create: 1 stored, 0 the key was taken (an
// earlier create of the same call counts), 2 the parent record is missing (nothing stored). The
// created get their sequence numbers in that order.
const CREATE = `${SHARED_LUA}
local refused = refuseForeignKeys({'hash', 'zset', 'string', 'set', KEYS[5] and 'hash'})
if refused then return refused end
local flags, created = {}, {}
local first = 2
if KEYS[5] then
  -- In the script that stores: no delete of the parent (by any replica) falls between the check and the create.
  if redis.call('HEXISTS', KEYS[5], ARGV[2]) == 0 then
    for i = 3, #ARGV, 2 do flags[#flags + 1] = 2 end
    return flags
  end
  first = 3
end
for i = first, #ARGV, 2 do
  local stored = redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
  flags[#flags + 1] = stored
  if stored == 1 then created[#created + 1] = ARGV[i] end
end
if #created > 0 then
  local seq = nextSeq(#created) - #created
  local scored = {}
  for j, key in ipairs(created) do
    scored[2 * j - 1] = seq + j
    scored[2 * j] = key
  end
  redis.call('ZADD', KEYS[2], unpack(scored))
  redis.call('SADD', KEYS[4], ARGV[1])
end
return flags`;

// KEYS: records, order, seq, collections, and for nested records the parent's records. ARGV:
// collection, the parent's key (nested records only), then key and json of each record. Returns
// the keys that are taken or repeat (nothing stored), an empty array (all stored), or 0 when the
// parent record is missing (nothing stored).
const SEED = `${SHARED_LUA}
local refused = refuseForeignKeys({'hash', 'zset', 'string', 'set', KEYS[5] and 'hash'})
if refused then return refused end
local first = 2
if KEYS[5] then
  -- As in CREATE: checked in the script that stores, so no replica's delete of the parent falls between.
  if redis.call('HEXISTS', KEYS[5], ARGV[2]) == 0 then return 0 end
  first = 3
end
local seen, duplicates = {}, {}
for i = first, #ARGV, 2 do
  local key = ARGV[i]
  if seen[key] or redis.call('HEXISTS', KEYS[1], key) == 1 then duplicates[#duplicates + 1] = key end
  seen[key] = true
end
local count = (#ARGV - first + 1) / 2
if #duplicates > 0 or count == 0 then return duplicates end
local seq = nextSeq(count) - count
for i = first, #ARGV, 2 do
  seq = seq + 1
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[2], seq, ARGV[i])
end
redis.call('SADD', KEYS[4], ARGV[1])
return duplicates`;

// KEYS: records, order. ARGV: keys. Takes back the chunks of a seed refused by a later chunk.
const UNSEED = `
for i = 1, #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
  redis.call('ZREM', KEYS[2], ARGV[i])
end
return #ARGV`;

// KEYS: records. ARGV: key, json. The order set is left alone: the record keeps its place.
const REPLACE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

// KEYS: records, order, deleted. ARGV: key, collection, the key's sequence number ('' when it is none).
const DELETE = `${SHARED_LUA}
local refused = refuseForeignKeys({'hash', 'zset'})
if refused then return refused end
local deletedType = redis.call('TYPE', KEYS[3]).ok
if deletedType ~= 'none' and deletedType ~= 'hash' then
  return redis.error_reply('WRONGTYPE ' .. KEYS[3] .. ' holds a ' .. deletedType .. ', not a hash (written by another program?)')
end
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[3] ~= '' then
  local highest = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0') or 0
  if tonumber(ARGV[3]) > highest then redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) end
end
return 1`;

// KEYS: collections, deleted. ARGV: the records key and the order key of a collection, without its name.
// UNLINK frees large collections off Redis' main thread; they are gone for every reader at once.
const RESET = `
for _, collection in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('UNLINK', ARGV[1] .. collection, ARGV[2] .. collection)
end
redis.call('UNLINK', KEYS[1], KEYS[2])
return 0`;

// KEYS: collections, deleted. ARGV: the collection, the records key and the order key of a collection without its
// name, then the path templates whose collections stay (store.ts, `clear`'s keep).
// Forgets the collection and every one named `collection/<key>/…`, found in the registry of
// collections (no SCAN). Each one's highest key number goes into the deleted hash, as its
// deletes would have put it (a key of digits, or of digits in quotes, up to 15 of them), so no
// assigned identity is given again. Every key is checked before anything is written.
const CLEAR = `
local function refuseType(key, expected)
  local actual = redis.call('TYPE', key).ok
  if actual ~= 'none' and actual ~= expected then
    return redis.error_reply('WRONGTYPE ' .. key .. ' holds a ' .. actual .. ', not a ' .. expected .. ' (written by another program?)')
  end
end
local refused = refuseType(KEYS[1], 'set') or refuseType(KEYS[2], 'hash')
if refused then return refused end
-- A name's segments, empty ones included ('/a//b' is '', 'a', '', 'b'): as split('/') in store.ts.
local function segments(text)
  local out, start = {}, 1
  while true do
    local at = string.find(text, '/', start, true)
    if not at then
      out[#out + 1] = string.sub(text, start)
      return out
    end
    out[#out + 1] = string.sub(text, start, at - 1)
    start = at + 1
  end
end
-- As fitsTemplate (store.ts): a template segment holding a '{' stands for any one segment.
local function fits(name, template)
  local named, wanted = segments(name), segments(template)
  if #named ~= #wanted then return false end
  for i = 1, #wanted do
    if named[i] ~= wanted[i] and not string.find(wanted[i], '{', 1, true) then return false end
  end
  return true
end
local function kept(name)
  for i = 4, #ARGV do
    if fits(name, ARGV[i]) then return true end
  end
  return false
end
local nested = ARGV[1] .. '/'
local cleared = {}
for _, collection in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  -- As isClearedBy (store.ts): a name one segment below (/users/me), or fitting a kept template, is no record's.
  if collection == ARGV[1] or (string.sub(collection, 1, #nested) == nested and string.find(collection, '/', #nested + 1, true) and not kept(collection)) then
    refused = refuseType(ARGV[2] .. collection, 'hash') or refuseType(ARGV[3] .. collection, 'zset')
    if refused then return refused end
    cleared[#cleared + 1] = collection
  end
end
local raised = {}
for _, collection in ipairs(cleared) do
  local highest = tonumber(redis.call('HGET', KEYS[2], collection) or '0') or 0
  local higher = false
  for _, key in ipairs(redis.call('HKEYS', ARGV[2] .. collection)) do
    local digits = string.match(key, '^(%d+)$') or string.match(key, '^"(%d+)"$')
    if digits and #digits <= 15 and tonumber(digits) > highest then
      highest = tonumber(digits)
      higher = true
    end
  end
  if higher then raised[#raised + 1] = {collection, string.format('%.0f', highest)} end
end
-- The deletes go first: Redis out of memory (maxmemory, noeviction) refuses a script whose first
-- write may grow it (HSET), not one that has begun by freeing, and a clear is how a full store is freed.
for _, collection in ipairs(cleared) do
  redis.call('UNLINK', ARGV[2] .. collection, ARGV[3] .. collection)
  redis.call('SREM', KEYS[1], collection)
end
for _, mark in ipairs(raised) do redis.call('HSET', KEYS[2], mark[1], mark[2]) end
return #cleared`;

// KEYS: records, order. ARGV: lowest score (exclusive '(N', or '-inf'), limit.
// Returns {key, json, key, json, …}, 1 when more records follow, and the score of the last member
// read (the next page's cursor). A member with no record (planted by another program) is passed
// over: a nil in the reply would cut it short.
const PAGE = `
local limit = tonumber(ARGV[2])
local members = redis.call('ZRANGE', KEYS[2], ARGV[1], '+inf', 'BYSCORE', 'LIMIT', 0, limit + 1, 'WITHSCORES')
local records, last = {}, ''
for i = 1, math.min(#members / 2, limit) do
  local key = members[2 * i - 1]
  local json = redis.call('HGET', KEYS[1], key)
  last = members[2 * i]
  if json then
    records[#records + 1] = key
    records[#records + 1] = json
  end
end
return {records, #members / 2 > limit and 1 or 0, last}`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `pairs`: key, json, key, json, … of the creates, in order. */
    createRecords(records: string, order: string, seq: string, collections: string, collection: string, pairs: string[], callback?: Callback<number[]>): Result<number[], Context>;
    /** As createRecords, for the records of one parent (`parentRecords`: the parent's collection's hash). */
    createNestedRecords(
      records: string,
      order: string,
      seq: string,
      collections: string,
      parentRecords: string,
      collection: string,
      parentKey: string,
      pairs: string[],
      callback?: Callback<number[]>,
    ): Result<number[], Context>;
    /** `pairs`: key, json, key, json, … (ioredis flattens an array argument, so no spread of a large seed). */
    seedRecords(records: string, order: string, seq: string, collections: string, collection: string, pairs: string[], callback?: Callback<string[]>): Result<string[], Context>;
    /** As seedRecords, for the records of one parent (`parentRecords`: the parent's collection's hash); 0 when it is missing. */
    seedNestedRecords(
      records: string,
      order: string,
      seq: string,
      collections: string,
      parentRecords: string,
      collection: string,
      parentKey: string,
      pairs: string[],
      callback?: Callback<string[] | 0>,
    ): Result<string[] | 0, Context>;
    unseedRecords(records: string, order: string, keys: string[], callback?: Callback<number>): Result<number, Context>;
    replaceRecord(records: string, key: string, json: string, callback?: Callback<number>): Result<number, Context>;
    deleteRecord(records: string, order: string, deleted: string, key: string, collection: string, number: string, callback?: Callback<number>): Result<number, Context>;
    clearRecords(collections: string, deleted: string, collection: string, recordsPrefix: string, orderPrefix: string, ...keep: string[]): Result<number, Context>;
    resetRecords(collections: string, deleted: string, recordsPrefix: string, orderPrefix: string, callback?: Callback<number>): Result<number, Context>;
    pageRecords(records: string, order: string, after: string, limit: string, callback?: Callback<[string[], number, string]>): Result<[string[], number, string], Context>;
  }
}

/** A change may have been applied when Redis got it but never answered; a read changes nothing either way. */
const CHANGE = 'change';
const READ = 'read';
type CommandKind = typeof CHANGE | typeof READ;
/** ioredis' refusal of a command it did not write: the connection was not writable (no offline queue). */
const NOT_SENT = /^Stream isn't writeable/;

const SCRIPTS = {
  createRecords: { lua: CREATE, numberOfKeys: 4 },
  createNestedRecords: { lua: CREATE, numberOfKeys: 5 },
  seedRecords: { lua: SEED, numberOfKeys: 4 },
  seedNestedRecords: { lua: SEED, numberOfKeys: 5 },
  unseedRecords: { lua: UNSEED, numberOfKeys: 2 },
  replaceRecord: { lua: REPLACE, numberOfKeys: 1 },
  deleteRecord: { lua: DELETE, numberOfKeys: 3 },
  clearRecords: { lua: CLEAR, numberOfKeys: 2 },
  resetRecords: { lua: RESET, numberOfKeys: 2 },
  pageRecords: { lua: PAGE, numberOfKeys: 2 },
};

export interface RedisStoreLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface RedisStoreOptions extends Omit<RedisConnectionOptions, 'scripts'> {
  /** Keeps sandboxes that share one Redis (and db) apart; a reset touches only its own prefix. */
  prefix?: string;
  /** Told when the connection is lost and when it is back. */
  logger?: RedisStoreLogger;
}

/**
 * Connects to Redis and answers once it serves; throws StoreUnavailable naming the URL (password
 * masked) when it cannot be reached or refuses the credentials, and an Error for a bad URL or prefix.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisResourceStore> {
  const prefix = parseStorePrefix(options.prefix ?? DEFAULT_STORE_PREFIX);
  const { client, target } = await connectRedis({ ...options, scripts: SCRIPTS });
  return new RedisResourceStore(client, target, prefix, options.logger);
}

export class RedisResourceStore implements ResourceStore {
  readonly #client: Redis;
  readonly #target: RedisTarget;
  readonly #prefix: string;
  readonly #logger: RedisStoreLogger | undefined;
  /** Why Redis is out of reach (the connection is down, or it left a command unanswered); undefined while it serves. */
  #outage: string | undefined;
  /** A connection that left a command unanswered: nothing is sent on it but a probe until it answers again. */
  #unanswered = false;
  #closing = false;
  /** Creates asked for this tick, per collection, not yet sent. */
  readonly #creates = new Map<string, WaitingCreates>();

  constructor(client: Redis, target: RedisTarget, prefix: string, logger?: RedisStoreLogger) {
    this.#client = client;
    this.#target = target;
    this.#prefix = prefix;
    this.#logger = logger;
    client.on('error', (error: Error) => this.#lose(error.message));
    client.on('close', () => this.#lose('the connection to Redis closed'));
    client.on('ready', () => this.#recover());
  }

  /** The store's prefix (its keys all start with `prefix:`). */
  get prefix(): string {
    return this.#prefix;
  }

  /**
   * Creates are sent together: those asked for in one tick (the requests of a loop turn), per
   * collection, go out as one script call once the tick's work is done, or sooner when one call's
   * worth is waiting (or a create names another parent record than those waiting). A command per
   * create cost a replica and Redis more than the create itself (docs/benchmarks.md). Every other operation sends the waiting creates first, so each
   * connection's commands still run in the order they were asked for.
   */
  create(collection: string, record: StoredRecord, parent?: ParentRecord): Promise<CreateOutcome> {
    // Durability: the outcome is Redis' acknowledgement, so a 'created' here means the record
    // is in Redis and visible to every replica, and survives the loss of any mock process. Past
    // a Redis restart it survives as Redis' persistence is configured (docs/state.md: with AOF and
    // `appendfsync always` nothing acknowledged is lost; with `everysec` up to a second on a
    // host crash; with RDB alone everything since the last snapshot). We promise no more than
    // that: waiting for an fsync or a replica (WAITAOF/WAIT) per create would put a disk or a
    // network round trip into every 200 of a sandbox whose operator chose Redis' settings.
    if (!this.#serving()) return Promise.reject(this.#outOfReach());
    let waiting = this.#creates.get(collection);
    // One call checks one parent: a create under another one (or none) sends those waiting first, keeping the order asked for.
    if (waiting !== undefined && (waiting.parent?.collection !== parent?.collection || waiting.parent?.key !== parent?.key)) {
      this.#sendCreates();
      waiting = undefined;
    }
    if (waiting === undefined) {
      waiting = new WaitingCreates(parent);
      this.#creates.set(collection, waiting);
      if (this.#creates.size === 1) process.nextTick(() => this.#sendCreates());
    }
    const outcome = waiting.add(record);
    if (waiting.count >= MAX_CREATES_PER_CALL) this.#sendCreates();
    return outcome;
  }

  /** Sends every waiting create, a call per collection. */
  #sendCreates(): void {
    if (this.#creates.size === 0) return;
    for (const [collection, waiting] of this.#creates) {
      const { parent, pairs } = waiting;
      const keys = this.#collectionKeys(collection);
      waiting.settle(
        this.#run(CHANGE, () =>
          parent === undefined
            ? this.#client.createRecords(...keys, collection, pairs)
            : this.#client.createNestedRecords(...keys, this.#key('records', parent.collection), collection, parent.key, pairs),
        ),
      );
    }
    this.#creates.clear();
  }

  /**
   * A seed, in chunks: Redis runs a script alone, and one script for a large seed held every other
   * replica's commands back (docs/security.md). Keys taken or repeated are found first (reads in
   * chunks) and refuse the seed whole; a key another replica takes meanwhile refuses the chunk
   * that holds it, and the chunks stored before it are taken back. Readers may see part of a seed
   * while it is applied. A nested seed's every chunk checks the parent in its script, as a create
   * does: a parent deleted between chunks refuses the next one, and those before it are taken back
   * (the delete's own sweep of the parent's records may have taken them already).
   */
  async seed(collection: string, records: readonly StoredRecord[], parent?: ParentRecord): Promise<SeedOutcome> {
    this.#sendCreates();
    const keys = this.#collectionKeys(collection);
    const parentRecords = parent && this.#key('records', parent.collection);
    // Read first so a missing parent is the answer before any duplicate (and for an empty seed); the scripts check it again.
    if (parent && parentRecords && (await this.#run(READ, () => this.#client.hexists(parentRecords, parent.key))) === 0) return 'parent-missing';
    const chunks = seedChunks(records);
    const seen = new Set<string>();
    const duplicates: string[] = [];
    for (const chunk of chunks) {
      const stored = await this.#run(READ, () => this.#client.hmget(keys[0], ...chunk.map((record) => record.key)));
      chunk.forEach((record, i) => {
        if (seen.has(record.key) || stored[i] !== null) duplicates.push(record.key);
        seen.add(record.key);
      });
    }
    if (duplicates.length) return { duplicates };
    const applied: StoredRecord[][] = [];
    for (const chunk of chunks) {
      const pairs = chunk.flatMap((record) => [record.key, record.json]);
      const taken = await this.#run(CHANGE, () =>
        parent && parentRecords ? this.#client.seedNestedRecords(...keys, parentRecords, collection, parent.key, pairs) : this.#client.seedRecords(...keys, collection, pairs),
      );
      if (taken === 0 || taken.length) {
        for (const done of applied)
          await this.#run(CHANGE, () =>
            this.#client.unseedRecords(
              keys[0],
              keys[1],
              done.map((record) => record.key),
            ),
          );
        return taken === 0 ? 'parent-missing' : { duplicates: taken };
      }
      applied.push(chunk);
    }
    return { created: records.length };
  }

  async get(collection: string, key: string): Promise<StoredRecord | undefined> {
    this.#sendCreates();
    const json = await this.#run(READ, () => this.#client.hget(this.#key('records', collection), key));
    return json === null ? undefined : { key, json: this.#checked(collection, key, json) };
  }

  async replace(collection: string, record: StoredRecord): Promise<ReplaceOutcome> {
    this.#sendCreates();
    const replaced = await this.#run(CHANGE, () => this.#client.replaceRecord(this.#key('records', collection), record.key, record.json));
    return replaced === 1 ? 'replaced' : 'missing';
  }

  async delete(collection: string, key: string): Promise<DeleteOutcome> {
    this.#sendCreates();
    const number = String(sequenceNumberOf(key) ?? '');
    const deleted = await this.#run(CHANGE, () => this.#client.deleteRecord(this.#key('records', collection), this.#key('order', collection), `${this.#prefix}:deleted`, key, collection, number));
    return deleted === 1 ? 'deleted' : 'missing';
  }

  /**
   * One script: every replica sees the collections before or after, never part way. It reads the
   * cleared keys (for their highest number), so it holds Redis for as long as that takes: about a
   * second for a million records.
   */
  async clear(collection: string, keep: readonly string[] = []): Promise<void> {
    this.#sendCreates();
    await this.#run(CHANGE, () => this.#client.clearRecords(`${this.#prefix}:collections`, `${this.#prefix}:deleted`, collection, this.#key('records', ''), this.#key('order', ''), ...keep));
  }

  async reset(): Promise<void> {
    this.#sendCreates();
    await this.#run(CHANGE, () => this.#client.resetRecords(`${this.#prefix}:collections`, `${this.#prefix}:deleted`, this.#key('records', ''), this.#key('order', '')));
  }

  async highestDeleted(collection: string): Promise<number> {
    const number = await this.#run(READ, () => this.#client.hget(`${this.#prefix}:deleted`, collection));
    const value = Number(number ?? 0);
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  }

  async page(collection: string, query: PageQuery): Promise<Page> {
    this.#sendCreates();
    if (!Number.isSafeInteger(query.limit) || query.limit < 1) throw new RangeError(`A page holds at least one record; asked for ${query.limit}.`);
    const after = query.after === undefined ? '-inf' : `(${sequenceOf(query.after)}`;
    const [flat, more, last] = await this.#run(READ, () => this.#client.pageRecords(this.#key('records', collection), this.#key('order', collection), after, String(query.limit)));
    const records: StoredRecord[] = [];
    for (let i = 0; i < flat.length; i += 2) records.push({ key: flat[i] as string, json: this.#checked(collection, flat[i] as string, flat[i + 1] as string) });
    return more === 1 ? { records, next: last } : { records };
  }

  /**
   * A record as Redis holds it, refused (StorageFailure, a 500 about Redis) unless it has the shape
   * of a JSON object's text: Redis is shared, and text another program wrote under the mock's keys
   * (a truncated record, a plain string) must not be sent as a 200 body that is not JSON. The check
   * is its first and last characters, not a parse: it sits on the listing's path.
   */
  #checked(collection: string, key: string, json: string): string {
    const text = json.trim();
    if (text.length < 2 || text[0] !== '{' || text[text.length - 1] !== '}') {
      throw new StorageFailure(
        `Redis at ${this.#target.display} holds a record that is not a JSON object under ${this.#key('records', collection)} field ${JSON.stringify(key.slice(0, 100))} (written by another program?)`,
        {
          code: 'NOTJSON',
          backend: 'redis',
        },
      );
    }
    return json;
  }

  async count(collection: string): Promise<number> {
    this.#sendCreates();
    return this.#run(READ, () => this.#client.hlen(this.#key('records', collection)));
  }

  health(): StoreHealth {
    // Out of memory, Redis still answers reads but refuses every change: health says so until a change is taken.
    if (this.#serving() && this.#writesRefused !== undefined) return { state: 'down', kind: 'redis', detail: `${this.#target.display}: refuses changes (${this.#writesRefused})` };
    return this.#serving()
      ? { state: 'up', kind: 'redis', detail: `${this.#target.display} (prefix ${this.#prefix})` }
      : { state: 'down', kind: 'redis', detail: `${this.#target.display}: ${this.#outage ?? `connection ${this.#client.status}`}` };
  }

  async close(): Promise<void> {
    this.#sendCreates();
    this.#closing = true;
    if (this.#client.status === 'ready') {
      await this.#client.quit().catch(() => this.#client.disconnect());
    } else {
      this.#client.disconnect();
    }
  }

  #serving(): boolean {
    return this.#client.status === 'ready' && !this.#unanswered;
  }

  /** Why Redis refused the last change (out of memory), until a change is taken again. */
  #writesRefused: string | undefined;

  #outOfReach(): StoreUnavailable {
    return new StoreUnavailable(`Redis at ${this.#target.display} is out of reach (${this.#outage ?? `connection ${this.#client.status}`})`);
  }

  /** Runs one command, turning a Redis out of reach into StoreUnavailable and a refusal into StorageFailure. */
  async #run<T>(kind: CommandKind, command: () => Promise<T>): Promise<T> {
    if (!this.#serving()) throw this.#outOfReach();
    try {
      const result = await command();
      if (kind !== READ) this.#writesRefused = undefined;
      return result;
    } catch (error) {
      throw this.#fault(error as Error, kind);
    }
  }

  #fault(error: Error, kind: CommandKind): Error {
    if (error instanceof ReplyError) {
      const message = `Redis at ${this.#target.display} refused the command: ${error.message}`;
      // Redis answered but cannot serve yet (loading its data, a script running too long, a
      // replica without its primary): out of reach for now. Any other refusal is a failure.
      // Out of memory (maxmemory reached, noeviction): nothing was stored, and the fix is Redis', not the disk's.
      if (/^OOM\b/.test(error.message)) {
        this.#writesRefused = error.message.slice(0, 200);
        return new StoreUnavailable(message);
      }
      return /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|READONLY)\b/.test(error.message)
        ? new StoreUnavailable(message)
        : new StorageFailure(message, { code: /^[A-Z]+\b/.exec(error.message)?.[0], backend: 'redis' });
    }
    if (this.#client.status === 'ready' && !this.#unanswered) {
      // Connected, yet no answer (frozen, overloaded): later commands fail at once instead of
      // each waiting out the timeout, until a probe is answered.
      this.#unanswered = true;
      this.#lose(error.message);
      void this.#probe();
    }
    // The connection went down between the check and the write: the command never left.
    if (NOT_SENT.test(error.message)) return new StoreUnavailable(`Redis at ${this.#target.display} is out of reach (${error.message})`);
    // Sent, but unanswered (connection lost, or no answer within the timeout): Redis may have
    // applied a change. It is not reported as done, nor as not done, and it is never resent.
    return new StoreUnavailable(`Redis at ${this.#target.display} did not answer (${error.message})`, { maybeApplied: kind === CHANGE });
  }

  /** PINGs (each bounded by the command timeout) until Redis answers, a reconnect takes over, or the store closes. */
  async #probe(): Promise<void> {
    while (this.#unanswered && !this.#closing && this.#client.status === 'ready') {
      await new Promise((resolve) => setTimeout(resolve, 250).unref());
      try {
        await this.#client.ping();
        this.#recover();
      } catch {
        // still no answer
      }
    }
  }

  #lose(reason: string): void {
    if (this.#closing) return;
    if (this.#outage === undefined) this.#logger?.warn({ store: this.#target.display, reason }, 'lost Redis; requests needing the store get 503 until it is back');
    this.#outage = reason;
  }

  #recover(): void {
    this.#unanswered = false;
    if (this.#outage !== undefined) this.#logger?.info({ store: this.#target.display }, 'Redis is back; serving');
    this.#outage = undefined;
  }

  #key(kind: 'records' | 'order', collection: string): string {
    return `${this.#prefix}:${kind}:${collection}`;
  }

  #collectionKeys(collection: string): [string, string, string, string] {
    return [this.#key('records', collection), this.#key('order', collection), `${this.#prefix}:seq`, `${this.#prefix}:collections`];
  }
}

/** Creates in one script call at most (its arguments are two per create; Lua's unpack has a bound). */
const MAX_CREATES_PER_CALL = 1000;

/** The creates of one collection (under one parent record) waiting to be sent, and the one answer they share. */
class WaitingCreates {
  readonly parent: ParentRecord | undefined;
  /** Key, json, key, json, … in the order the creates were asked for. */
  readonly pairs: string[] = [];
  readonly #flags: Promise<number[]>;
  #settle!: (flags: Promise<number[]>) => void;

  constructor(parent: ParentRecord | undefined) {
    this.parent = parent;
    this.#flags = new Promise((resolve) => (this.#settle = resolve));
  }

  get count(): number {
    return this.pairs.length >> 1;
  }

  /** Adds a create; its outcome follows its flag in the call's answer. */
  add(record: StoredRecord): Promise<CreateOutcome> {
    const index = this.pairs.push(record.key, record.json) / 2 - 1;
    return this.#flags.then((flags) => OUTCOMES[flags[index] as number] ?? 'duplicate');
  }

  /** The call that carries them: its answer (or its failure) is every create's. */
  settle(flags: Promise<number[]>): void {
    this.#settle(flags);
  }
}

/** A create's outcome by its flag in the script's answer. */
const OUTCOMES: readonly CreateOutcome[] = ['duplicate', 'created', 'parent-missing'];

/** A cursor is the creation sequence number of the last record of a page: exact integer digits. */
function sequenceOf(cursor: string): string {
  if (!/^\d{1,16}$/.test(cursor) || Number(cursor) > Number.MAX_SAFE_INTEGER) throw new RangeError(`${JSON.stringify(cursor)} is not a page cursor of this store.`);
  return cursor;
}

/** Records of one seed script at most, and characters of their keys and JSON: a chunk holds Redis for milliseconds. */
const SEED_CHUNK_RECORDS = 500;
const SEED_CHUNK_CHARS = 64 * 1024;

/** A seed's records in chunks within both bounds (a record larger than the bound is a chunk alone). */
function seedChunks(records: readonly StoredRecord[]): StoredRecord[][] {
  const chunks: StoredRecord[][] = [];
  let chunk: StoredRecord[] = [];
  let chars = 0;
  for (const record of records) {
    const size = record.key.length + record.json.length;
    if (chunk.length > 0 && (chunk.length >= SEED_CHUNK_RECORDS || chars + size > SEED_CHUNK_CHARS)) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(record);
    chars += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
