/**
 * A seed (the admin route's `POST /__mock/<collection>`, `--seed`): its items validated all or
 * nothing, then stored as creates store their records: an item that names no identity, in a
 * collection whose identity the mock assigns, gets the next one of the collection's sequence (or a
 * UUID), as `POST <collection>` would give it. All or nothing, like every seed (a nested seed's
 * parent included): when an assigned key is already stored, the whole seed is assigned again past
 * it (a bounded number of times); a key the seed names itself stays a 409.
 */
import type { Collection } from '../../openapi/operations/collections.js';
import { exactPlanOfArray } from '../../openapi/schema/exact-json.js';
import { describeProblems, describeType, DEFAULT_PROBLEM_LIMIT } from '../../openapi/schema/problems.js';
import { reject, type Rejection } from '../errors.js';
import type { ParentRecord, RecordKey, ResourceStore } from '../stores/store.js';
import { parseJsonBody } from './body.js';
import type { AssignedIdentities } from './identities.js';
import { identifiedRecord, keyOfBody, unreachableKey } from './records.js';

/**
 * One item of a seed: a valid create body, and its key — undefined when the collection's identity
 * is the mock's to assign and the item does not name one (storeSeed assigns it as a create does).
 */
export interface SeedItem {
  body: Record<string, unknown>;
  key: RecordKey | undefined;
}

/** The items of a seed body (a JSON array of create bodies), all valid, or the 400 naming the problems. */
export function parseSeed(body: Buffer, collection: Collection): SeedItem[] | Rejection {
  const schema = collection.resource;
  if (body.length === 0) return reject('INVALID_SEED', { schema, problems: ['the body is empty'] });
  const parsed = parseJsonBody(body, exactPlanOfArray(collection.body.exactPlan));
  if (!parsed.ok) return reject('INVALID_SEED', { schema, problems: [parsed.rejection.message] });
  return seedRecords(parsed.value, collection);
}

/**
 * The records of an already parsed seed (from a file or the admin route). Each item is validated
 * on its own and the words stop after a few problems, so a seed of a million bad items costs a
 * count, not a million sentences.
 */
export function seedRecords(value: unknown, collection: Collection): SeedItem[] | Rejection {
  const schema = collection.resource;
  if (!Array.isArray(value)) {
    return reject('INVALID_SEED', { schema, problems: [`expected a JSON array of ${schema}s, got ${describeType(value)}`] });
  }
  const validate = collection.body.validate;
  const problems: string[] = [];
  const fields: string[] = [];
  let more = 0;
  const records: SeedItem[] = [];
  value.forEach((item, index) => {
    let unreachable: string | undefined;
    if (validate?.(item)) {
      const key = keyOfBody(item as Record<string, unknown>, collection.identity);
      unreachable = key === undefined ? undefined : unreachableKey(key, collection);
      if ((key !== undefined || collection.identity.assigned) && unreachable === undefined) {
        records.push({ body: item as Record<string, unknown>, key });
        return;
      }
    }
    if (problems.length >= DEFAULT_PROBLEM_LIMIT) {
      more++;
      return;
    }
    if (unreachable !== undefined) {
      problems.push(`[${index}] ${unreachable}`);
      fields.push(`/${index}/${collection.identity.property}`);
      return;
    }
    const found = describeProblems(validate?.errors, { root: item, prefix: `[${index}] `, pointerPrefix: `/${index}`, limit: DEFAULT_PROBLEM_LIMIT - problems.length });
    if (!found.sentences.length) {
      found.sentences.push(`[${index}] ${collection.identity.property} is required`);
      found.fields.push(`/${index}/${collection.identity.property}`);
    }
    problems.push(...found.sentences);
    fields.push(...found.fields);
    more += found.more;
  });
  if (problems.length) return reject('INVALID_SEED', { schema, problems, more, fields });
  return records;
}

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
