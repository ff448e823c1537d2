/**
 * The request journal that every replica of a sandbox shares: a capped Redis stream, so the
 * inspector of any replica shows every replica's traffic, each entry marked with the replica that
 * answered. It implements the `RequestJournal` of mocks/admin/journal.ts (the `journal` branch).
 *
 * Keys, for a prefix P (the store's prefix: one sandbox, one journal):
 * - `P:journal`: the stream; entry ID `<seq>-0`, fields `e` (the entry's JSON text without its
 *   seq) and `b` (its size in bytes);
 * - `P:journal:seq`: the sequence (INCR), kept by `clear`, so a seq is never reused;
 * - `P:journal:bytes`: the bytes the stream's entries hold.
 *
 * Adding and trimming are one Lua script, atomic across replicas: seqs are dense and in the order
 * Redis received the entries, and the stream never holds more than the bounds in entries and in
 * bytes. The trimming is exact rather than XADD's `MAXLEN ~`: Redis' approximate trim does not say
 * what it dropped, so the byte count could not stay true.
 *
 * `record` never waits and never throws: the entry goes out with the next pipelined write, and
 * one that Redis cannot take (out of reach) is dropped and counted. Reads reject with
 * StoreUnavailable while Redis is out of reach, which the admin routes answer 503.
 */
import { ReplyError, type Callback, type Redis, type Result } from 'ioredis';
import { connectRedis, type RedisConnectionOptions } from './redis-connection.js';
import { DEFAULT_STORE_PREFIX, parseStorePrefix, type RedisTarget } from './redis-target.js';
import { StorageFailure, StoreUnavailable } from './store.js';

import {
  DEFAULT_JOURNAL_BYTES,
  DEFAULT_JOURNAL_PAGE,
  DEFAULT_JOURNAL_SIZE,
  MAX_JOURNAL_PAGE,
  summary,
  type JournalEntry,
  type JournalPage,
  type JournalQuery,
  type JournalRecord,
  type JournalStats,
  entryJson,
  type PendingRecord,
  type RequestJournal,
} from '../admin/journal.js';

// KEYS: stream, seq, bytes. ARGV: max entries, max bytes, then each entry's JSON (its size in bytes is Lua's #).
// Returns the first entry's seq. One call takes the entries of a loop turn, in order. Redis runs
// it between the creates of every replica, so it costs one command per entry plus a few per call:
// the seqs of the batch in one INCRBY, the oldest entries read in one XRANGE and deleted in one XDEL
// (a command per entry each way cost Redis about as much as the creates themselves).
const RECORD = `
local maxEntries, maxBytes = tonumber(ARGV[1]), tonumber(ARGV[2])
local count = #ARGV - 2
local first = redis.call('INCRBY', KEYS[2], count) - count + 1
local added = 0
for i = 0, count - 1 do
  local size = #ARGV[3 + i]
  redis.call('XADD', KEYS[1], string.format('%d-0', first + i), 'e', ARGV[3 + i], 'b', size)
  added = added + size
end
local bytes = redis.call('INCRBY', KEYS[3], added)
local length = redis.call('XLEN', KEYS[1])
local trimmed = false
while length > 1 and (length > maxEntries or bytes > maxBytes) do
  local ids = {}
  local want = math.min(math.max(length - maxEntries, 8), length - 1, 1000)
  for _, oldest in ipairs(redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', want)) do
    if length <= 1 or (length <= maxEntries and bytes <= maxBytes) then break end
    local fields = oldest[2]
    for j = 1, #fields, 2 do
      if fields[j] == 'b' then bytes = bytes - tonumber(fields[j + 1]) end
    end
    ids[#ids + 1] = oldest[1]
    length = length - 1
  end
  redis.call('XDEL', KEYS[1], unpack(ids))
  trimmed = true
end
if trimmed then redis.call('SET', KEYS[3], bytes) end
return first`;

// KEYS: stream, bytes. The sequence is kept: seqs go on after a clear.
const CLEAR = `
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], 0)
return 0`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `entries`: each entry's JSON (ioredis flattens an array argument). */
    recordJournalEntries(stream: string, seq: string, bytes: string, maxEntries: string, maxBytes: string, entries: string[], callback?: Callback<number>): Result<number, Context>;
    clearJournal(stream: string, bytes: string, callback?: Callback<number>): Result<number, Context>;
  }
}

const SCRIPTS = {
  recordJournalEntries: { lua: RECORD, numberOfKeys: 3 },
  clearJournal: { lua: CLEAR, numberOfKeys: 2 },
};

/** Stream entries read per XREVRANGE while filtering a page. */
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
  readonly #client: Redis;
  readonly #target: RedisTarget;
  readonly #keys: { stream: string; seq: string; bytes: string };
  /** The client is ours to close (opened by openRedisJournal). */
  readonly #owned: boolean;
  #dropped = 0;
  /** The records of this loop turn, sent together once it ends. */
  #waiting: (JournalRecord | PendingRecord)[] = [];
  #sending: Promise<void> | undefined;

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
    this.#keys = { stream: `${prefix}:journal`, seq: `${prefix}:journal:seq`, bytes: `${prefix}:journal:bytes` };
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
        entries.push(entryJson(entry, this.#replicaMember));
      } catch {
        // A journal must never fail the request it describes.
        this.#dropped++;
      }
    }
    if (!entries.length) return;
    const { stream, seq, bytes } = this.#keys;
    const sent = this.#client
      .recordJournalEntries(stream, seq, bytes, String(this.maxEntries), String(this.maxBytes), entries)
      .then(
        () => undefined,
        () => void (this.#dropped += entries.length),
      );
    this.#sending = sent;
    await sent;
    if (this.#sending === sent) this.#sending = undefined;
  }

  async entries(query: JournalQuery = {}): Promise<JournalPage> {
    const limit = Math.max(1, Math.min(query.limit ?? DEFAULT_JOURNAL_PAGE, MAX_JOURNAL_PAGE));
    const classes = query.status?.length ? new Set(query.status.map((c) => Number(c.charAt(0)))) : undefined;
    const text = query.text ? new RegExp(escapeRegExp(query.text), 'i') : undefined;
    const last = Number((await this.#run(() => this.#client.get(this.#keys.seq))) ?? 0);
    const entries: JournalEntry[] = [];
    // Seqs start at 1: nothing lies before 1, everything after 0.
    if (query.before !== undefined && !(query.before > 1)) return { entries, last, more: false };
    const after = query.after !== undefined && query.after >= 1 ? query.after : undefined;
    // Newest first, from just below `before` down to just above `after`, a batch at a time.
    let end = query.before === undefined ? '+' : `(${seqId(query.before)}`;
    const start = after === undefined ? '-' : `(${seqId(after)}`;
    for (let batches = 0; batches * READ_BATCH <= this.maxEntries + READ_BATCH; batches++) {
      const batch = await this.#run(() => this.#client.xrevrange(this.#keys.stream, end, start, 'COUNT', READ_BATCH));
      for (const [id, fields] of batch) {
        const json = fieldOf(fields, 'e');
        if (json === undefined) continue;
        const kept = JSON.parse(json) as Omit<JournalEntry, 'seq'>;
        if (classes && !classes.has(Math.floor(kept.status / 100))) continue;
        if (query.path && !kept.path.includes(query.path)) continue;
        if (text && !text.test(json)) continue;
        if (entries.length === limit) return { entries, last, more: true };
        const entry = { seq: seqOf(id), ...kept } as JournalEntry;
        entries.push(query.whole ? entry : summary(entry));
      }
      if (batch.length < READ_BATCH) break;
      end = `(${(batch[batch.length - 1] as [string, string[]])[0]}`;
    }
    return { entries, last, more: false };
  }

  async entry(seq: number): Promise<JournalEntry | undefined> {
    if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
    const [found] = await this.#run(() => this.#client.xrange(this.#keys.stream, seqId(seq), seqId(seq)));
    const json = found && fieldOf(found[1], 'e');
    return json === undefined ? undefined : ({ seq, ...JSON.parse(json) } as JournalEntry);
  }

  async stats(): Promise<JournalStats> {
    const [entries, bytes] = await this.#run(() => Promise.all([this.#client.xlen(this.#keys.stream), this.#client.get(this.#keys.bytes)]));
    return { entries, bytes: Number(bytes ?? 0), maxEntries: this.maxEntries, maxBytes: this.maxBytes };
  }

  async clear(): Promise<void> {
    await this.#run(() => this.#client.clearJournal(this.#keys.stream, this.#keys.bytes));
  }

  /** Closes the connection when the journal opened it; a shared client is its owner's to close. */
  async close(): Promise<void> {
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

function seqId(seq: number): string {
  return `${Math.trunc(seq)}-0`;
}

function seqOf(id: string): number {
  return Number(id.slice(0, id.indexOf('-')));
}

function fieldOf(fields: string[], name: string): string | undefined {
  for (let i = 0; i < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
