/**
 * The request journal: every exchange the mock answered, whole — the request's and the answer's
 * headers and bodies, each cut at a bound in bytes and with credentials masked (exchange.ts) — so
 * a frontend developer sees what their app sent and why it was rejected.
 *
 * `RequestJournal` is what the mock needs of a journal; `MemoryJournal` keeps one in this process,
 * bounded in entries and in bytes. Another implementation (a capped Redis stream that several
 * replicas share) implements the same interface: `record` never waits and never throws, so the
 * answer never waits for the journal; reads may be asynchronous.
 */
import type { Violation } from '../../openapi/judge/violation.js';
import type { Maybe } from '../maybe.js';

/** A header line as it crossed the wire: the name as sent, the value masked when it carries a credential. */
export type HeaderLine = [name: string, value: string];

/** A request or answer body as the journal keeps it. */
export interface JournalBody {
  /** The whole body's size in bytes (for a body the mock never read, the declared Content-Length when there was one). */
  bytes: number;
  /** The body's first bytes, as UTF-8 text or, when they are not UTF-8, in base64. Absent in summaries and for unread bodies. */
  text?: string;
  encoding?: 'utf8' | 'base64';
  /** `text` holds only the first bytes: the body was larger than the journal keeps of one. */
  cut?: true;
  /** The mock answered without reading this body (a 401, 413 or 415 decided from the headers), and it had not arrived whole. */
  unread?: true;
}

/** One side of an exchange. */
export interface JournalMessage {
  headers: HeaderLine[];
  /** How many header lines were sent beyond what the journal keeps of one side. */
  headersCut?: number;
  body?: JournalBody;
}

/**
 * What the mock made of a request, in the terms of the fixture format's expectations
 * (fixtures/fixture-file.schema.json) where one applies.
 */
export type Verdict =
  | 'accepted'
  | 'rejected-body'
  | 'unauthenticated'
  | 'unsupported-media-type'
  /** `Prefer: code=N` chose the answer. */
  | 'forced'
  /** Any other 4xx: route, method, conflict, size, preferences. */
  | 'rejected'
  /** A 5xx the mock did not mean to answer. */
  | 'failed';

export interface JournalEntry {
  /** Increasing, never reused (not even after `clear`): the cursor of `entries({ after })`. */
  seq: number;
  /** When the request arrived, ISO 8601. */
  at: string;
  /** Which replica answered, when several share one journal. */
  replica?: string;
  method: string;
  /** The request target's path, without the query. */
  path: string;
  /** The query string without `?`, credentials masked, cut at the header bound. */
  query?: string;
  status: number;
  durationMs: number;
  verdict: Verdict;
  /** The spec operation that answered. */
  operationId?: string;
  /** False when the answer came from the spec's examples, not the store. */
  stateful?: boolean;
  /** The catalogue code of a rejection (mocks/errors.ts). */
  code?: string;
  message?: string;
  /** Each offending field of a rejected request, in words (at most a few; the message says how many more). */
  problems?: string[];
  /** The JSON pointer (into the body, or `/query parameter x` …) each problem concerns, index by index. */
  fields?: string[];
  request: JournalMessage;
  response: JournalMessage;
  /** Proxy mode: where the request or the upstream's answer departs from the spec. */
  violations?: readonly Violation[];
}

/** What the edge hands `record`: an entry before the journal numbers it. */
export type JournalRecord = Omit<JournalEntry, 'seq' | 'at' | 'replica'> & { time: number };

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';
export const STATUS_CLASSES: readonly StatusClass[] = ['1xx', '2xx', '3xx', '4xx', '5xx'];

export interface JournalQuery {
  /** Only entries newer than this seq (what a poller saw last). */
  after?: number;
  /** Only entries older than this seq (the next page back). */
  before?: number;
  /** At most this many entries (DEFAULT_JOURNAL_PAGE by default). */
  limit?: number;
  /** Only these status classes. */
  status?: readonly StatusClass[];
  /** Only entries whose path contains this. */
  path?: string;
  /** Only entries whose text (headers, bodies, message) contains this, ignoring case. */
  text?: string;
  /** Whole entries, bodies' text included; summaries (no body text) otherwise. */
  whole?: boolean;
}

export interface JournalPage {
  /** Newest first. */
  entries: JournalEntry[];
  /** The newest seq the journal has recorded (0 before the first): poll with `after` set to it. */
  last: number;
  /** Older entries match too: ask again with `before` set to the oldest seq of this page. */
  more: boolean;
}

/**
 * Which entries a listing shows, chosen as `entries` chooses them: their seqs, newest first. A
 * listing then asks for their texts a few at a time as the client reads (`texts`), so a client
 * that never reads holds this list and one piece, not a page.
 */
export interface JournalSelection {
  seqs: number[];
  last: number;
  more: boolean;
}

export interface JournalStats {
  entries: number;
  /** What the entries hold: the characters of their strings, plus an allowance per entry for their structure. */
  bytes: number;
  maxEntries: number;
  maxBytes: number;
}

/**
 * An exchange handed over before its record is made: a journal that keeps entries in memory
 * makes the record only when the entry is first read (most never are); one that sends entries
 * elsewhere makes it at once.
 */
export interface PendingRecord {
  readonly time: number;
  readonly status: number;
  readonly path: string;
  /** What the record will hold, as `entrySize` counts it (an upper estimate). */
  readonly size: number;
  toRecord(): JournalRecord;
  /** The record's JSON text, as JSON.stringify writes `toRecord()` without `time`, after the members `leading` holds. */
  toJson(leading: string): string;
}

export function isPendingRecord(entry: JournalRecord | PendingRecord): entry is PendingRecord {
  return typeof (entry as PendingRecord).toRecord === 'function';
}

/** A time's ISO 8601 text, kept for the last time asked: under load, entries come many to a millisecond. */
export class IsoTimes {
  #time = Number.NaN;
  #iso = '';

  of(time: number): string {
    if (time !== this.#time) {
      this.#time = time;
      this.#iso = new Date(time).toISOString();
    }
    return this.#iso;
  }
}

/**
 * An entry's JSON text: the members `leading` holds (its seq, its replica), `at` (the time as ISO
 * 8601, through the journal's `times`), then the record's own.
 */
export function entryJson(entry: JournalRecord | PendingRecord, leading: string, times: IsoTimes): string {
  const head = `${leading}${leading ? ',' : ''}"at":"${times.of(entry.time)}"`;
  if (isPendingRecord(entry)) return entry.toJson(head);
  const { time: _, ...rest } = entry;
  const members = JSON.stringify(rest);
  return `{${head}${members.length > 2 ? ',' : ''}${members.slice(1)}`;
}

export interface RequestJournal {
  /** Keeps one exchange. Never waits and never throws: the answer has already left. */
  record(entry: JournalRecord | PendingRecord): void;
  /** Entries matching `query`, newest first. */
  entries(query?: JournalQuery): Maybe<JournalPage>;
  /** One whole entry, or undefined once it has left the journal. */
  entry(seq: number): Maybe<JournalEntry | undefined>;
  /** The seqs of the entries matching `query`, newest first (what `entries` would return). */
  select(query?: JournalQuery): Maybe<JournalSelection>;
  /** The JSON texts of those of `seqs` still held, in the order given: whole entries, or summaries. */
  texts(seqs: readonly number[], whole: boolean): Maybe<string[]>;
  stats(): Maybe<JournalStats>;
  /** Forgets every entry; seq numbers go on from where they were. */
  clear(): Maybe<void>;
  /** Lets go of what the journal holds open (a connection); the mock calls it as it stops. */
  close?(): Maybe<void>;
  /**
   * Calls `listener` whenever entries may have been added (by this process or, for a shared journal,
   * any replica): a waiting reader then reads again (journal-wait.ts). Answers the function that stops
   * it, or undefined when the journal cannot tell now (a reader then polls).
   */
  watch?(listener: () => void): Maybe<(() => void) | undefined>;
}

export const DEFAULT_JOURNAL_SIZE = 500;
/** The journal's bound in bytes: with the per-entry cuts (exchange.ts) at least 40 entries of the largest kind. */
export const DEFAULT_JOURNAL_BYTES = 8 * 1024 * 1024;
export const DEFAULT_JOURNAL_PAGE = 100;
export const MAX_JOURNAL_PAGE = 1000;

/**
 * One kept entry: the record as handed over until it is first read, then its JSON text. The
 * record holds no string a client could make large beyond the cuts (exchange.ts copies what it
 * quotes), so keeping it costs what `bytes` says; serialising only on read keeps `record` cheap
 * on the request path, where most entries are never read before they leave.
 */
interface Kept {
  seq: number;
  status: number;
  path: string;
  bytes: number;
  record?: JournalRecord | PendingRecord;
  json?: string;
}

export interface MemoryJournalOptions {
  maxEntries?: number;
  maxBytes?: number;
}

/** What an entry holds, in characters of its strings, plus an allowance for its structure. */
export function entrySize(entry: JournalRecord): number {
  let size = ENTRY_OVERHEAD + entry.method.length + entry.path.length + (entry.query?.length ?? 0) + (entry.message?.length ?? 0);
  for (const problem of entry.problems ?? []) size += problem.length;
  for (const field of entry.fields ?? []) size += field.length;
  for (const violation of entry.violations ?? []) {
    size += VIOLATION_OVERHEAD + violation.code.length + violation.message.length;
    for (const problem of violation.problems ?? []) size += problem.length;
  }
  return size + sideSize(entry.request) + sideSize(entry.response);
}
/** A violation's fixed fields (`in`, `severity`) and structure. */
const VIOLATION_OVERHEAD = 64;

function sideSize(side: JournalMessage): number {
  let size = side.body?.text?.length ?? 0;
  for (const line of side.headers) size += line[0].length + line[1].length + 8;
  return size;
}
const ENTRY_OVERHEAD = 512;

/** The journal in this process: the newest entries that fit both bounds. */
export class MemoryJournal implements RequestJournal {
  readonly maxEntries: number;
  readonly maxBytes: number;
  /** Oldest first, from #head on. */
  #kept: Kept[] = [];
  #head = 0;
  #bytes = 0;
  #seq = 0;
  readonly #times = new IsoTimes();
  readonly #listeners = new Set<() => void>();

  constructor(options: MemoryJournalOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_JOURNAL_SIZE;
    this.maxBytes = options.maxBytes ?? DEFAULT_JOURNAL_BYTES;
  }

  record(entry: JournalRecord | PendingRecord): void {
    try {
      let record = entry;
      if (isPendingRecord(entry)) {
        if (entry.size <= this.maxBytes) return this.#keep(entry, entry.size);
        record = entry.toRecord();
      }
      let bytes = entrySize(record as JournalRecord);
      // The cuts keep an entry far below the bound; a journal configured smaller keeps it without the bodies' text.
      if (bytes > this.maxBytes) {
        const whole = record as JournalRecord;
        record = { ...whole, request: withoutText(whole.request), response: withoutText(whole.response) };
        bytes = entrySize(record);
      }
      this.#keep(record, bytes);
    } catch {
      // A journal must never fail the request it describes.
    }
  }

  #keep(record: JournalRecord | PendingRecord, bytes: number): void {
    try {
      this.#kept.push({ seq: ++this.#seq, status: record.status, path: record.path, bytes, record });
      this.#bytes += bytes;
      while (this.#kept.length - this.#head > this.maxEntries || (this.#bytes > this.maxBytes && this.#kept.length - this.#head > 1)) {
        this.#bytes -= (this.#kept[this.#head] as Kept).bytes;
        this.#kept[this.#head++] = undefined as unknown as Kept;
      }
      // Drop the evicted slots once they are half the array, so it stays proportional to what is kept.
      if (this.#head > 64 && this.#head * 2 > this.#kept.length) {
        this.#kept = this.#kept.slice(this.#head);
        this.#head = 0;
      }
      for (const listener of this.#listeners) listener();
    } catch {
      // A journal must never fail the request it describes.
    }
  }

  /** The entry's JSON text, made on first use. */
  #json(kept: Kept): string {
    if (kept.json === undefined) {
      kept.json = entryJson(kept.record as JournalRecord | PendingRecord, `"seq":${kept.seq}`, this.#times);
      kept.record = undefined;
    }
    return kept.json;
  }

  select(query: JournalQuery = {}): JournalSelection {
    const limit = Math.min(query.limit ?? DEFAULT_JOURNAL_PAGE, MAX_JOURNAL_PAGE);
    const classes = query.status?.length ? new Set(query.status.map((c) => Number(c.charAt(0)))) : undefined;
    const text = query.text ? new RegExp(escapeRegExp(query.text), 'i') : undefined;
    const seqs: number[] = [];
    let more = false;
    for (let index = this.#kept.length - 1; index >= this.#head; index--) {
      const kept = this.#kept[index] as Kept;
      if (query.before !== undefined && kept.seq >= query.before) continue;
      if (query.after !== undefined && kept.seq <= query.after) break;
      if (classes && !classes.has(Math.floor(kept.status / 100))) continue;
      if (query.path && !kept.path.includes(query.path)) continue;
      if (text && !text.test(this.#json(kept))) continue;
      if (seqs.length === limit) {
        more = true;
        break;
      }
      seqs.push(kept.seq);
    }
    return { seqs, last: this.#seq, more };
  }

  entries(query: JournalQuery = {}): JournalPage {
    const { seqs, last, more } = this.select(query);
    const entries: JournalEntry[] = [];
    for (const seq of seqs) {
      const entry = this.entry(seq) as JournalEntry;
      entries.push(query.whole ? entry : summary(entry));
    }
    return { entries, last, more };
  }

  texts(seqs: readonly number[], whole: boolean): string[] {
    const texts: string[] = [];
    for (const seq of seqs) {
      const kept = this.#find(seq);
      // A whole entry is the text the journal keeps, shared rather than copied.
      if (kept) texts.push(whole ? this.#json(kept) : summaryJson(this.#json(kept)));
    }
    return texts;
  }

  entry(seq: number): JournalEntry | undefined {
    const kept = this.#find(seq);
    return kept && (JSON.parse(this.#json(kept)) as JournalEntry);
  }

  #find(seq: number): Kept | undefined {
    // Entries are in seq order: a binary search.
    let low = this.#head;
    let high = this.#kept.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const kept = this.#kept[middle] as Kept;
      if (kept.seq === seq) return kept;
      if (kept.seq < seq) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  stats(): JournalStats {
    return { entries: this.#kept.length - this.#head, bytes: this.#bytes, maxEntries: this.maxEntries, maxBytes: this.maxBytes };
  }

  clear(): void {
    this.#kept = [];
    this.#head = 0;
    this.#bytes = 0;
  }

  watch(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** An entry without its bodies' text: what a listing shows before one is opened. */
export function summary(entry: JournalEntry): JournalEntry {
  return { ...entry, request: withoutText(entry.request), response: withoutText(entry.response) };
}

/** An entry's JSON text as its summary. */
export function summaryJson(json: string): string {
  return JSON.stringify(summary(JSON.parse(json) as JournalEntry));
}

function withoutText(message: JournalMessage): JournalMessage {
  if (message.body?.text === undefined) return message;
  const { text: _text, ...body } = message.body;
  return { ...message, body };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
