/**
 * A seed (the admin route's `POST /__mock/<collection>`, `--seed`) stored as creates store their
 * records: an item that names no identity, in a collection whose identity the mock assigns, gets
 * the next one of the collection's sequence (or a UUID), as `POST <collection>` would give it.
 * All or nothing, like every seed (a nested seed's parent included): when an assigned key is already stored, the whole seed is
 * assigned again past it (a bounded number of times); a key the seed names itself stays a 409.
 */
import type { Collection } from '../../openapi/operations/collections.js';
import type { ParentRecord, RecordKey, ResourceStore } from '../stores/store.js';
import type { SeedItem } from './body.js';
import type { AssignedIdentities } from './identities.js';
import { identifiedRecord } from './records.js';

export type StoredSeed = { created: number; keys: RecordKey[] } | { duplicates: RecordKey[] };

/** As many times as a create tries past taken keys (stateful.ts). */
const ATTEMPTS = 32;

interface SeedOptions {
  /** false answers the duplicates at once: a seed applied only to an empty store (another replica may have seeded it). */
  retry?: boolean;
}

/**
 * `parent`: a nested collection's parent record, which the store checks in the seed's own atomic
 * step (store.ts): 'parent-missing' when it is not stored then, and nothing is stored.
 */
export async function storeSeed(store: ResourceStore, identities: AssignedIdentities, collection: Collection, name: string, items: readonly SeedItem[], options?: SeedOptions): Promise<StoredSeed>;
export async function storeSeed(
  store: ResourceStore,
  identities: AssignedIdentities,
  collection: Collection,
  name: string,
  items: readonly SeedItem[],
  options: SeedOptions & { parent: ParentRecord | undefined },
): Promise<StoredSeed | 'parent-missing'>;
export async function storeSeed(
  store: ResourceStore,
  identities: AssignedIdentities,
  collection: Collection,
  name: string,
  items: readonly SeedItem[],
  { retry = true, parent }: SeedOptions & { parent?: ParentRecord | undefined } = {},
): Promise<StoredSeed | 'parent-missing'> {
  const named = new Set(items.flatMap((item) => (item.key === undefined ? [] : [item.key])));
  for (let attempt = 0; ; attempt++) {
    const keys: RecordKey[] = [];
    for (const item of items) {
      let key = item.key;
      // A value the seed names for another item is skipped: at most that many times.
      for (let tries = 0; key === undefined || (item.key === undefined && named.has(key) && tries <= named.size); tries++) {
        key = await identities.next(collection, name, store);
      }
      keys.push(key);
    }
    const records = items.map((item, index) => identifiedRecord(item.body, keys[index] as RecordKey, collection.identity, collection.declared));
    const outcome = await store.seed(name, records, parent);
    if (outcome === 'parent-missing') return outcome;
    if (!('duplicates' in outcome)) return { created: outcome.created, keys };
    if (!retry || outcome.duplicates.some((key) => named.has(key)) || attempt + 1 >= ATTEMPTS) return outcome;
    // Taken (records kept from before, another replica): jump further each time, as a create does.
    identities.skip(name, 2 ** attempt);
  }
}
