/**
 * What the mock needs of a store, whatever keeps the records: memory, the state file, Redis.
 *
 * A store holds records of the spec's resources, one collection per resource (named by its
 * collection path, `/plants`), each record under its identity key. It knows nothing of the spec:
 * the engine decides what a record holds and which property is its identity, and hands the store
 * exact JSON text. So a spec that adds, renames or retypes a property changes no store.
 *
 * A nested record (a payment of `/bookings/7/payments`) is created with its parent record named:
 * the store keeps it only while the parent exists, decided in the create's own atomic step (one
 * Redis script, one synchronous decision in memory). The engine deletes a record's nested records
 * after the record itself, listing them only then; so a create either lands before the parent's
 * delete (and is listed and deleted with it) or finds the parent gone, even when another replica
 * deletes it between the engine's own check and the create. A grandparent needs no such check:
 * its delete deletes the parent before listing the parent's records.
 *
 * Every method may answer synchronously (memory) or with a promise that settles once the change
 * is durable in the store's own sense (on disk, acknowledged by Redis). A method that cannot keep
 * a change throws (or rejects with) `StoreUnavailable` or `StorageFailure`; nothing of that change
 * is kept, except that a StoreUnavailable saying `maybeApplied` cannot tell.
 */
import type { Maybe } from '../maybe.js';

/**
 * The identity of a record as exact text: the decimal digits of an integer identity (never a
 * double: `9223372036854775807` and `9223372036854775806` are two keys), the JSON text of a
 * string identity (`"abc"`), so keys of different types never collide.
 */
export type RecordKey = string;

/** One stored record. */
export interface StoredRecord {
  key: RecordKey;
  /**
   * The record as exact JSON text (an object): the properties the create body declares, as
   * received, identity included. Integers keep their digits.
   */
  json: string;
}

/** The record a nested record belongs to: `/bookings` and key `7` for a record of `/bookings/7/payments`. */
export interface ParentRecord {
  collection: string;
  key: RecordKey;
}

export type CreateOutcome = 'created' | 'duplicate' | 'parent-missing';
export type SeedOutcome = { created: number } | { duplicates: RecordKey[] } | 'parent-missing';
export type ReplaceOutcome = 'replaced' | 'missing';
export type DeleteOutcome = 'deleted' | 'missing';

/** Where a page of a collection starts: after the record this cursor names (opaque to callers). */
export type PageCursor = string;

export interface Page {
  /** Records in creation order. */
  records: StoredRecord[];
  /** The cursor of the next page; undefined on the last page. */
  next?: PageCursor;
}

export interface PageQuery {
  /** Start after this cursor (from a previous page); from the first record when undefined. */
  after?: PageCursor;
  /** At most this many records. */
  limit: number;
}

/** How a store is doing, for /__mock/health. */
export interface StoreHealth {
  /** `up`: serving; `down`: changes and reads are refused until it recovers. */
  state: 'up' | 'down';
  /** Which store: `memory`, `state-file`, `redis`. */
  kind: string;
  /** Why it is down, or what it is (the file, the Redis URL with the password masked). */
  detail?: string;
}

export interface ResourceStore {
  /**
   * Stores the record unless its key is taken in the collection (a duplicate leaves the first
   * unchanged) or, given its parent, unless the parent record is not stored then ('parent-missing',
   * nothing stored): checked in the same atomic step as the store, never before it.
   */
  create(collection: string, record: StoredRecord, parent?: ParentRecord): Maybe<CreateOutcome>;
  /**
   * Stores every record, or none when any key is taken or repeats (all or nothing) or, given their
   * parent, when the parent record is not stored ('parent-missing'), checked as `create` checks it.
   */
  seed(collection: string, records: readonly StoredRecord[], parent?: ParentRecord): Maybe<SeedOutcome>;
  /** The record under `key`, if any. */
  get(collection: string, key: RecordKey): Maybe<StoredRecord | undefined>;
  /** Replaces the record under `record.key`, keeping its place in creation order. */
  replace(collection: string, record: StoredRecord): Maybe<ReplaceOutcome>;
  /** Forgets the record under `key`. */
  delete(collection: string, key: RecordKey): Maybe<DeleteOutcome>;
  /**
   * Forgets every record of the collection and of every collection nested under its records, whose
   * name starts with `${collection}/<key>/` (`/bookings/{7}/payments` and `/bookings/{7}/notes` for
   * `/bookings`; not `/bookingsX`, nor `/bookings/settings`: `isClearedBy`), in one atomic step;
   * other collections are untouched. `keep`: path templates of the spec's own below the
   * collection that are no record's (`/bookings/settings/display`, `/bookings/archive/{id}/tags`):
   * a collection whose name fits one stays. As a delete does, it
   * keeps each cleared collection's highest deleted number (`highestDeleted`), so no assigned
   * identity is given again after a clear.
   */
  clear(collection: string, keep?: readonly string[]): Maybe<void>;
  /** Forgets every record of every collection; keys may be reused after. */
  reset(): Maybe<void>;
  /** One page of a collection, in creation order. Throws a RangeError for a cursor this store never issues. */
  page(collection: string, query: PageQuery): Maybe<Page>;
  /** How many records the collection holds. */
  count(collection: string): Maybe<number>;
  /**
   * The highest number a deleted key of the collection was (an integer key, or a string of
   * digits: `sequenceNumberOf`) since the last reset, kept as long as the records are; 0 when
   * none. A sequence of identities the mock assigns resumes past it, so no deleted record's
   * identity is given again after a restart (engine/identities.ts).
   */
  highestDeleted(collection: string): Maybe<number>;
  health(): StoreHealth;
  close(): Maybe<void>;
}

/**
 * The number a key is for a sequence of assigned identities: an integer key's digits, or a string
 * key of digits (`"12"`), up to 15 digits (exact as a double); undefined for any other key.
 */
export function sequenceNumberOf(key: RecordKey): number | undefined {
  const digits = key.length > 2 && key.charCodeAt(0) === 0x22 && key.charCodeAt(key.length - 1) === 0x22 ? key.slice(1, -1) : key;
  return /^\d{1,15}$/.test(digits) ? Number(digits) : undefined;
}

/**
 * Whether a store collection is `collection` or nested under one of its records (what `clear`
 * forgets): `collection/<key>/…`, two segments below or more. A name one segment below
 * (`/users/me`, `/bookings/settings`) is a path of the spec's own, no record's.
 */
export function isClearedBy(name: string, collection: string, keep: readonly string[] = []): boolean {
  if (name === collection) return true;
  if (!name.startsWith(`${collection}/`) || name.indexOf('/', collection.length + 1) === -1) return false;
  return !keep.some((template) => fitsTemplate(name, template));
}

/**
 * Whether a store collection's name is a path template with its parameters filled in: segment by
 * segment, a template segment holding a `{…}` stands for any one segment (a filled parameter never
 * holds a `/`: engine/store-names.ts encodes it), any other must be equal. The Redis clear script
 * matches the same way.
 */
export function fitsTemplate(name: string, template: string): boolean {
  const named = name.split('/');
  const wanted = template.split('/');
  return named.length === wanted.length && wanted.every((segment, i) => segment === named[i] || segment.includes('{'));
}

/** What a store throws when it cannot keep a change; nothing of that change was stored (500). */
export class StorageFailure extends Error {
  override name = 'StorageFailure';
  /** The system's error code (ENOSPC, EIO) when there is one: what a client may be told; the message, with the file's path, goes to the log. */
  readonly code: string | undefined;
  /** What failed: the disk (the state file) or the Redis server (a refusal: a key of another type, a script error). */
  readonly backend: 'disk' | 'redis';

  constructor(message: string, options: { code?: string | undefined; backend?: 'disk' | 'redis' } = {}) {
    super(message);
    this.code = options.code;
    this.backend = options.backend ?? 'disk';
  }
}

/**
 * What a store throws while its backend is out of reach (503). Usually nothing was sent, so
 * nothing was stored; but a change sent and never acknowledged (the connection dropped, no answer
 * in time) may have been applied, and the answer must not say otherwise.
 */
export class StoreUnavailable extends Error {
  override name = 'StoreUnavailable';
  /** True when the change reached the backend unacknowledged: it may or may not have been applied. */
  readonly maybeApplied: boolean;

  constructor(message: string, options: { maybeApplied?: boolean } = {}) {
    super(message);
    this.maybeApplied = options.maybeApplied ?? false;
  }
}
