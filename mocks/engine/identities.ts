/**
 * Identities the mock assigns (openapi/operations/collections.ts says when): a sequence for an integer
 * identity, a UUID for `format: uuid`, a string matching the `pattern` (made from the sequence's
 * number), the sequence's digits as a string otherwise. A sequence
 * starts past the collection's record count and the highest key the store says was deleted
 * (`highestDeleted`), and a taken value is skipped on creation (the store answers 'duplicate'), so
 * values stay unique, deleted ones included, across restarts of a kept store and across replicas
 * sharing one, without the store knowing of sequences.
 */
import { randomUUID } from 'node:crypto';
import type { Collection } from '../../openapi/operations/collections.js';
import type { RecordKey, ResourceStore } from '../stores/store.js';
import { continueWith, type Maybe } from '../maybe.js';
import { PatternStrings } from '../../openapi/schema/pattern-strings.js';

/** The next values per store collection; one per engine (a reloaded spec starts again from the counts). */
export class AssignedIdentities {
  readonly #last = new Map<string, number>();
  /** Loaded by the first patterned identity. */
  #patterns: PatternStrings | undefined;

  /** A fresh key for a record of `collection` stored under `name`. */
  next(collection: Collection, name: string, store: ResourceStore): Maybe<RecordKey> {
    if (collection.identity.assigned === 'uuid') return JSON.stringify(randomUUID());
    const last = this.#last.get(name);
    if (last !== undefined) return this.#take(collection, name, last);
    // Past the records there are and the highest deleted one: kept by the store, so a restart never gives a deleted identity again.
    return continueWith(store.count(name), (count) => continueWith(store.highestDeleted(name), (deleted) => this.#take(collection, name, this.#last.get(name) ?? Math.max(count, deleted))));
  }

  /** After a taken value: jump past the ones other writers used. */
  skip(name: string, by: number): void {
    this.#last.set(name, (this.#last.get(name) ?? 0) + by);
  }

  #take(collection: Collection, name: string, last: number): RecordKey {
    const value = last + 1;
    this.#last.set(name, value);
    if (collection.identity.type === 'integer') return String(value);
    const { pattern } = collection.identity;
    // No string the pattern takes within the bounds: the digits (a store refusal says so, never a wrong key silently).
    const made = pattern && (this.#patterns ??= new PatternStrings()).nthStringFor(pattern, value);
    return JSON.stringify(made ?? String(value));
  }
}
