/**
 * What a store kept from a run on another spec that this spec cannot serve: a record its create
 * body's schema now refuses, or one whose identity is no longer the key it is stored under (the
 * identity's name or type changed: listed, but every read of it a 404). Checked once at start over
 * a state file; such records are refused at start, naming a few, or dropped when the user says so
 * (`--discard-unkept-records`), with the records nested under them. Records of collections the spec
 * no longer has are not served and stay in the file untouched.
 */
import type { Collection } from '../../openapi/operations/collections.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import type { RecordKey, ResourceStore } from '../stores/store.js';
import { keyOfBody, recordValue } from './records.js';
import { keyWords, nameOf } from './store-names.js';

/** How many unkept records a refusal names; it counts the rest. */
export const NAMED_UNKEPT = 5;
const PAGE = 1000;

export interface UnkeptRecord {
  /** The store's name of its collection. */
  collection: string;
  key: RecordKey;
  /** Why, in words: the schema's first problem, the identity, or its parent's going. */
  reason: string;
}

export interface UnkeptRecords {
  count: number;
  /** The first NAMED_UNKEPT of them. */
  named: UnkeptRecord[];
}

/** Finds the records of the spec's collections that it cannot serve; with `discard`, deletes them (and those nested under them). */
export async function unkeptRecords(collections: readonly Collection[], store: ResourceStore, discard: boolean): Promise<UnkeptRecords> {
  const found: UnkeptRecords = { count: 0, named: [] };
  const children = (parent: Collection): Collection[] => collections.filter((c) => c.parent?.collection === parent);
  const walk = async (collection: Collection, keys: ReadonlyMap<string, RecordKey>, parentGoes: boolean): Promise<void> => {
    const name = nameOf(collection.path, keys);
    const records: Array<{ key: RecordKey; reason: string | undefined }> = [];
    let after: string | undefined;
    do {
      const page = await store.page(name, { after, limit: PAGE });
      for (const record of page.records) records.push({ key: record.key, reason: parentGoes ? 'the record it belongs to goes' : whyUnkept(collection, record.key, record.json) });
      after = page.next;
    } while (after !== undefined);
    for (const { key, reason } of records) {
      if (reason !== undefined) {
        found.count++;
        if (found.named.length < NAMED_UNKEPT) found.named.push({ collection: name, key, reason });
        if (discard) await store.delete(name, key);
      }
      for (const child of children(collection)) await walk(child, new Map(keys).set(child.parent?.parameter as string, key), reason !== undefined);
    }
  };
  // A scoped collection's names are one per value a client sent, which the spec cannot list: its records are not walked.
  for (const collection of collections) if (!collection.parent && !collection.scope?.length) await walk(collection, new Map(), false);
  return found;
}

/** Why this spec cannot serve a stored record of `collection`; undefined when it can. */
function whyUnkept(collection: Collection, key: RecordKey, json: string): string | undefined {
  let value: Record<string, unknown>;
  try {
    value = recordValue({ key, json });
  } catch {
    return 'it is not JSON';
  }
  const { identity } = collection;
  if (keyOfBody(value, identity) !== key) return `its ${identity.property} is not the identity it is stored under (the identity's name or type changed)`;
  // As an update checks it: what a create would accept, the identity aside where the create body does not declare it.
  const candidate = collection.body.propertySchemas.has(identity.property) ? value : withoutIdentity(value, identity.property);
  if (collection.body.validate?.(candidate) !== false) return undefined;
  return describeProblems(collection.body.validate?.errors, { root: candidate, limit: 1 }).sentences[0] ?? `${collection.resource} refuses it`;
}

function withoutIdentity(value: Record<string, unknown>, property: string): Record<string, unknown> {
  const copy = { ...value };
  delete copy[property];
  return copy;
}

/** The refusal at start: the records named, the rest counted, and the two ways on. */
export function unkeptMessage(found: UnkeptRecords, file: string): string {
  const named = found.named.map((record) => `${record.collection} ${keyWords(record.key)} (${record.reason})`).join('; ');
  const more = found.count > found.named.length ? `, and ${found.count - found.named.length} more` : '';
  return (
    `The state file ${file} holds ${found.count} record${found.count === 1 ? '' : 's'} this spec cannot serve: ${named}${more}. ` +
    'Start with --discard-unkept-records to drop them (and what is nested under them) and keep the others, or with another --state-file.'
  );
}
