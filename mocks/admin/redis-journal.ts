/**
 * The request journal that every replica of a sandbox shares: a capped Redis list, so the
 * inspector of any replica shows every replica's traffic, each entry marked with the replica that
 * answered. It implements the `RequestJournal` of ./journal.ts (the `journal` branch).
 *
 * Keys, for a prefix P (the store's prefix: one sandbox, one journal):
 * - `P:journal:entries`: a list of the entries' JSON texts (without their seq), oldest first;
 * - `P:journal:sizes`: a list of their sizes in bytes, index for index;
 * - `P:journal:seq`: the seq of the newest entry (INCRBY), kept by `clear`, so a seq is never
 *   reused; seqs are dense, so the entry at index i of n has seq `seq - n + 1 + i`. A Redis that
 *   was flushed has lost it: the first replica to record or read puts it back at the highest seq
 *   that replica has seen, so seqs do not start again at 1 under a reader's cursor;
 * - `P:journal:bytes`: the bytes the entries hold.
 *
 * Each record script also publishes the newest seq on the channel named as the seq key
 * (`P:journal:seq`): a replica holding a page's wait (journal-wait.ts) subscribes to it on its own
 * connection, opened on the first wait, so the page learns of every replica's entries at once.
 *
 * Adding and trimming are one Lua script, atomic across replicas: seqs are dense and in the order
 * Redis received the entries, and the list never holds more than the bounds in entries and in
 * bytes (exactly: the sizes list says what trimming drops without reading the entries). A batch is
 * one RPUSH of all its entries, so Redis' work per entry is little more than keeping its bytes
 * (a stream took an XADD per entry, and reading back the entries it trimmed). Reads are a script
 * too, so the seqs they compute and the entries they return are of one moment.
 *
 * `record` never waits and never throws: the entry goes out with the next pipelined write, and
 * one that Redis cannot take (out of reach) is dropped and counted. Reads reject with
 * StoreUnavailable while Redis is out of reach, which the admin routes answer 503.
 */
import { ReplyError, type Callback, type Redis, type Result } from 'ioredis';
import { connectRedis, type RedisConnectionOptions } from '../stores/redis-connection.js';
import { DEFAULT_STORE_PREFIX, parseStorePrefix, type RedisTarget } from '../stores/redis-target.js';
import { StorageFailure, StoreUnavailable } from '../stores/store.js';

import {
  DEFAULT_JOURNAL_BYTES,
  DEFAULT_JOURNAL_PAGE,
  DEFAULT_JOURNAL_SIZE,
  MAX_JOURNAL_PAGE,
  summaryJson,
  type JournalEntry,
  type JournalSelection,
  type JournalPage,
  type JournalQuery,
  type JournalRecord,
  type JournalStats,
  entryJson,
  IsoTimes,
  type PendingRecord,
  type RequestJournal,
} from './journal.js';

// A missing seq (a Redis that was flushed) goes on from the highest seq the calling replica has
// seen (ARGV[3]; 0 for a new sandbox), never from 0 again.
const RESTORE_SEQ = `
if redis.call('EXISTS', KEYS[SEQ]) == 0 and ARGV[3] ~= '0' then redis.call('SET', KEYS[SEQ], ARGV[3]) end`;

// KEYS: entries, sizes, seq, bytes. ARGV: max entries, max bytes, the highest seq this replica has
// seen, then each entry's JSON (its size in bytes is Lua's #). Returns the first entry's seq. One
// call takes the entries of a loop turn, in order; the oldest leave until both bounds hold, the
// newest always stays.
const RECORD = `${RESTORE_SEQ.replaceAll('SEQ', '3')}
local maxEntries, maxBytes = tonumber(ARGV[1]), tonumber(ARGV[2])
local count = #ARGV - 3
local sizes, added = {}, 0
for i = 1, count do
  local size = #ARGV[3 + i]
  sizes[i] = size
  added = added + size
end
local length = redis.call('RPUSH', KEYS[1], unpack(ARGV, 4))
redis.call('RPUSH', KEYS[2], unpack(sizes))
local last = redis.call('INCRBY', KEYS[3], count)
local bytes = redis.call('INCRBY', KEYS[4], added)
local drop = 0
while length - drop > 1 and (length - drop > maxEntries or bytes > maxBytes) do
  local want = math.max(length - drop - maxEntries, 16)
  local chunk = redis.call('LRANGE', KEYS[2], drop, drop + want - 1)
  if #chunk == 0 then break end
  for _, size in ipairs(chunk) do
    if length - drop <= 1 or (length - drop <= maxEntries and bytes <= maxBytes) then break end
    bytes = bytes - tonumber(size)
    drop = drop + 1
  end
end
if drop > 0 then
  redis.call('LTRIM', KEYS[1], drop, -1)
  redis.call('LTRIM', KEYS[2], drop, -1)
  redis.call('SET', KEYS[4], bytes)
end
redis.call('PUBLISH', KEYS[3], last)
return last - count + 1`;

// KEYS: entries, seq. ARGV: the highest seq wanted, how many at most, the highest seq this replica
// has seen. Returns the newest seq, the seq of the first entry returned, and the entries from that
// seq up to the highest one held that is at most ARGV[1], oldest first.
const READ = `${RESTORE_SEQ.replaceAll('SEQ', '2')}
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local length = redis.call('LLEN', KEYS[1])
local first = last - length + 1
local high = math.min(tonumber(ARGV[1]), last)
if high < first then return {last, high + 1, {}} end
local low = math.max(first, high - tonumber(ARGV[2]) + 1)
return {last, low, redis.call('LRANGE', KEYS[1], low - first, high - first)}`;

// KEYS: entries, sizes, bytes. The sequence is kept: seqs go on after a clear.
const CLEAR = `
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SET', KEYS[3], 0)
return 0`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `entries`: each entry's JSON (ioredis flattens an array argument). */
    recordJournalEntries(
      entries: string,
      sizes: string,
      seq: string,
      bytes: string,
      maxEntries: string,
      maxBytes: string,
      seen: string,
      json: string[],
      callback?: Callback<number>,
    ): Result<number, Context>;
    readJournalEntries(entries: string, seq: string, highest: string, count: string, seen: string, callback?: Callback<[number, number, string[]]>): Result<[number, number, string[]], Context>;
    clearJournal(entries: string, sizes: string, bytes: string, callback?: Callback<number>): Result<number, Context>;
  }
}

const SCRIPTS = {
  recordJournalEntries: { lua: RECORD, numberOfKeys: 4 },
  readJournalEntries: { lua: READ, numberOfKeys: 2 },
  clearJournal: { lua: CLEAR, numberOfKeys: 3 },
};

/** Entries read per script call while filtering a page. */
const READ_BATCH = 200;

/** Records waiting for the end of their loop turn, at most. */
const MAX_WAITING = 4096;

export interface RedisJournalOptions {
  /** The sandbox's prefix (the store's `--store-prefix`). */
  prefix?: string;
  /** The name this replica's entries carry (`--replica-name`). */
  replica: string;
  maxEntries?: number;
  maxBytes?: number;
}

/** Connects (as the store does) and answers with the journal; StoreUnavailable naming the URL when Redis is out of reach. */
export async function openRedisJournal(options: RedisJournalOptions & Omit<RedisConnectionOptions, 'scripts'>): Promise<RedisJournal> {
  const prefix = parseStorePrefix(options.prefix ?? DEFAULT_STORE_PREFIX);
  const { client, target } = await connectRedis({ ...options, scripts: SCRIPTS });
  return new RedisJournal(client, target, { ...options, prefix }, true);
}

export class RedisJournal implements RequestJournal {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly replica: string;
  /** `"replica":"…"`, the member each entry begins with. */
  readonly #replicaMember: string;
  readonly #times = new IsoTimes();
  readonly #client: Redis;
  readonly #target: RedisTarget;
  readonly #keys: { entries: string; sizes: string; seq: string; bytes: string };
  /** The client is ours to close (opened by openRedisJournal). */
  readonly #owned: boolean;
  #dropped = 0;
  /** The records of this loop turn, sent together once it ends. */
  #waiting: (JournalRecord | PendingRecord)[] = [];
  #sending: Promise<void> | undefined;
  /** The highest seq this replica has seen written or read: where the sequence goes on after a FLUSHALL. */
  #seen = 0;
  /** The connection subscribed to the record script's messages, opened by the first `watch`. */
  #subscriber: Promise<Redis | undefined> | undefined;
  readonly #listeners = new Set<() => void>();
  #closed = false;

  /** On a client connected by `connectRedis` (its scripts are defined here if it lacks them). */
  constructor(client: Redis, target: RedisTarget, options: RedisJournalOptions, owned = false) {
    const prefix = parseStorePrefix(options.prefix ?? DEFAULT_STORE_PREFIX);
    this.#client = client;
    this.#target = target;
    this.#owned = owned;
    this.replica = options.replica;
    this.#replicaMember = `"replica":${JSON.stringify(options.replica)}`;
    this.maxEntries = options.maxEntries ?? DEFAULT_JOURNAL_SIZE;
    this.maxBytes = options.maxBytes ?? DEFAULT_JOURNAL_BYTES;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) throw new RangeError(`A journal keeps at least one entry; asked for ${this.maxEntries}.`);
    if (!Number.isSafeInteger(this.maxBytes) || this.maxBytes < 1) throw new RangeError(`A journal keeps at least one byte; asked for ${this.maxBytes}.`);
    this.#keys = { entries: `${prefix}:journal:entries`, sizes: `${prefix}:journal:sizes`, seq: `${prefix}:journal:seq`, bytes: `${prefix}:journal:bytes` };
    for (const [name, script] of Object.entries(SCRIPTS)) {
      if (!(name in client)) client.defineCommand(name, script);
    }
  }

  /** Entries Redis could not take (out of reach, or refused) since this journal opened. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Keeps one exchange: with the others of this loop turn, in one script call once the turn ends
   * (a command per request cost a replica more than its request; docs/benchmarks.md). What waits
   * is bounded: past a loop turn's worth, entries Redis is too slow to take are dropped and counted.
   */
  record(entry: JournalRecord | PendingRecord): void {
    if (this.#client.status !== 'ready' || this.#waiting.length >= MAX_WAITING) {
      this.#dropped++;
      return;
    }
    if (this.#waiting.push(entry) === 1) setImmediate(() => void this.#send());
  }

  async #send(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    const entries: string[] = [];
    for (const entry of batch) {
      try {
        entries.push(entryJson(entry, this.#replicaMember, this.#times));
      } catch {
        // A journal must never fail the request it describes.
        this.#dropped++;
      }
    }
    if (!entries.length) return;
    const { entries: list, sizes, seq, bytes } = this.#keys;
    const sent = this.#client.recordJournalEntries(list, sizes, seq, bytes, String(this.maxEntries), String(this.maxBytes), String(this.#seen), entries).then(
      (first) => void this.#see(Number(first) + entries.length - 1),
      () => void (this.#dropped += entries.length),
    );
    this.#sending = sent;
    await sent;
    if (this.#sending === sent) this.#sending = undefined;
  }

  async select(query: JournalQuery = {}): Promise<JournalSelection> {
    const limit = Math.max(1, Math.min(query.limit ?? DEFAULT_JOURNAL_PAGE, MAX_JOURNAL_PAGE));
    const classes = query.status?.length ? new Set(query.status.map((c) => Number(c.charAt(0)))) : undefined;
    const text = query.text ? new RegExp(escapeRegExp(query.text), 'i') : undefined;
    const seqs: number[] = [];
    // Seqs start at 1: nothing lies before 1, everything after 0.
    const lowest = query.after !== undefined && query.after >= 1 ? Math.trunc(query.after) + 1 : 1;
    // Newest first, from just below `before` down to `lowest`, a batch at a time.
    let highest = query.before === undefined ? Number.MAX_SAFE_INTEGER : Math.ceil(query.before) - 1;
    let last: number | undefined;
    for (let batches = 0; batches * READ_BATCH <= this.maxEntries + READ_BATCH && highest >= lowest; batches++) {
      const [newest, low, batch] = await this.#read(highest, Math.min(READ_BATCH, highest - lowest + 1));
      last ??= newest;
      for (let index = batch.length - 1; index >= 0; index--) {
        const seq = low + index;
        if (seq < lowest) break;
        const json = batch[index] as string;
        const kept = parseKept(json);
        // An entry that is not one (garbage written by another program or version) is skipped, not a 500.
        if (!kept) continue;
        if (classes && !classes.has(Math.floor(kept.status / 100))) continue;
        if (query.path && !kept.path.includes(query.path)) continue;
        if (text && !text.test(json)) continue;
        if (seqs.length === limit) return { seqs, last, more: true };
        seqs.push(seq);
      }
      // What is older than this batch has left the journal, or was never there.
      if (batch.length === 0 || low <= lowest) break;
      highest = low - 1;
    }
    return { seqs, last: last ?? this.#see(Number((await this.#run(() => this.#client.get(this.#keys.seq))) ?? 0)), more: false };
  }

  async entries(query: JournalQuery = {}): Promise<JournalPage> {
    const { seqs, last, more } = await this.select(query);
    const texts = await this.texts(seqs, query.whole ?? false);
    return { entries: texts.map((text) => JSON.parse(text) as JournalEntry), last, more };
  }

  /** Reads runs of consecutive seqs with one script call each. */
  async texts(seqs: readonly number[], whole: boolean): Promise<string[]> {
    const texts: string[] = [];
    for (let start = 0; start < seqs.length;) {
      let end = start + 1;
      while (end < seqs.length && seqs[end] === (seqs[end - 1] as number) - 1) end++;
      const high = seqs[start] as number;
      const [, low, batch] = await this.#read(high, end - start);
      for (let index = batch.length - 1; index >= 0; index--) {
        const seq = low + index;
        if (seq > high || seq < (seqs[end - 1] as number)) continue;
        const json = batch[index] as string;
        if (!parseKept(json)) continue;
        const text = withSeq(seq, json);
        texts.push(whole ? text : summaryJson(text));
      }
      start = end;
    }
    return texts;
  }

  async entry(seq: number): Promise<JournalEntry | undefined> {
    if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
    const [, low, [json]] = await this.#read(seq, 1);
    if (json === undefined || low !== seq || !parseKept(json)) return undefined;
    return JSON.parse(withSeq(seq, json)) as JournalEntry;
  }

  async stats(): Promise<JournalStats> {
    const [entries, bytes] = await this.#run(() => Promise.all([this.#client.llen(this.#keys.entries), this.#client.get(this.#keys.bytes)]));
    return { entries, bytes: Number(bytes ?? 0), maxEntries: this.maxEntries, maxBytes: this.maxBytes };
  }

  /** The newest seq, and the entries (oldest first, from seq `low`) at most `count` up to `highest`. */
  async #read(highest: number, count: number): Promise<[number, number, string[]]> {
    const [last, low, batch] = await this.#run(() => this.#client.readJournalEntries(this.#keys.entries, this.#keys.seq, String(highest), String(Math.max(1, count)), String(this.#seen)));
    return [this.#see(Number(last)), Number(low), batch];
  }

  /** Notes a seq Redis answered with; answers the highest seen so far (a flushed Redis answers 0 before anything is put back). */
  #see(seq: number): number {
    if (Number.isSafeInteger(seq) && seq > this.#seen) this.#seen = seq;
    return Math.max(seq, this.#seen);
  }

  async clear(): Promise<void> {
    await this.#run(() => this.#client.clearJournal(this.#keys.entries, this.#keys.sizes, this.#keys.bytes));
  }

  /** Tells `listener` of every replica's entries, or answers undefined while the subscription is down (the reader polls). */
  async watch(listener: () => void): Promise<(() => void) | undefined> {
    const subscriber = await (this.#subscriber ??= this.#subscribe());
    if (subscriber?.status !== 'ready' || this.#closed) return undefined;
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #subscribe(): Promise<Redis | undefined> {
    if (this.#closed) return undefined;
    const subscriber = this.#client.duplicate();
    const changed = (): void => {
      for (const listener of this.#listeners) listener();
    };
    // Its outages are the journal's own connection's to report; ioredis reconnects and subscribes again.
    subscriber.on('error', () => undefined);
    subscriber.on('message', changed);
    // Entries recorded while it was away were never announced: the waits read again once it is back.
    subscriber.on('ready', changed);
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.#keys.seq);
      if (!this.#closed) return subscriber;
    } catch {
      // Not now: the next wait tries again.
      this.#subscriber = undefined;
    }
    subscriber.disconnect();
    return undefined;
  }

  /** Closes the connection when the journal opened it; a shared client is its owner's to close. */
  async close(): Promise<void> {
    this.#closed = true;
    const subscriber = await this.#subscriber;
    subscriber?.disconnect();
    if (this.#waiting.length) await this.#send();
    await this.#sending;
    if (!this.#owned) return;
    if (this.#client.status === 'ready') await this.#client.quit().catch(() => this.#client.disconnect());
    else this.#client.disconnect();
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    if (this.#client.status !== 'ready') throw new StoreUnavailable(`Redis at ${this.#target.display} is out of reach (connection ${this.#client.status})`);
    try {
      return await command();
    } catch (caught) {
      const error = caught as Error;
      if (error instanceof ReplyError) throw new StorageFailure(`Redis at ${this.#target.display} refused to read the journal: ${error.message}`);
      throw new StoreUnavailable(`Redis at ${this.#target.display} did not answer (${error.message})`);
    }
  }
}

/** An entry's JSON as Redis holds it (without its seq), with its seq first as the memory journal writes it. */
function withSeq(seq: number, json: string): string {
  return `{"seq":${seq}${json.length > 2 ? ',' : ''}${json.slice(1)}`;
}

/**
 * What a listing needs of an entry as Redis holds it, or undefined when it is not one: the list is
 * shared, and another program (or a replica of another version) may have written anything there.
 */
function parseKept(json: string): { status: number; path: string } | undefined {
  let kept: unknown;
  try {
    kept = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (kept === null || typeof kept !== 'object' || Array.isArray(kept)) return undefined;
  const { status, path, method, request, response } = kept as Record<string, unknown>;
  const side = (value: unknown): boolean => value !== null && typeof value === 'object' && Array.isArray((value as { headers?: unknown }).headers);
  if (typeof status !== 'number' || typeof path !== 'string' || typeof method !== 'string' || !side(request) || !side(response)) return undefined;
  return { status, path };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
