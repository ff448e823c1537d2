/**
 * The names the store keeps a collection's records (or a singleton's document) under, and the path
 * a person reads for them.
 *
 * A top-level collection is its path (`/plants`). A nested one is its path with each parent
 * record's identity in place of the parameter naming it, as the store keys that record (its
 * canonical key, records.ts: `7` for `/orders/7.0/lines`, `/orders/7e0/lines` and `/orders/7/lines`
 * alike), percent-encoded and wrapped in braces: `/orders/{7}/lines`, `/plants/{%22archive%22}/entries`.
 * A fixed segment of a spec's path never holds a brace (OpenAPI reads one as a template, and the
 * CRUD rule keeps no path with a template that is not a parent record's), so no record's name can
 * be a fixed path's (`/plants/archive/entries`), and deleting the plant `archive` never touches it.
 * A scope (a template no operation creates: `{accountId}` of `/v2/accounts/{accountId}/offices`) is
 * written the same way with the value as sent, as a string's key: `/v2/accounts/{%22A%22}/offices`.
 */
import type { Collection } from '../../openapi/operations/collections.js';
import type { RecordKey } from '../stores/store.js';
import { keyOfPathSegment } from './records.js';

/** A collection or a singleton: where it is, and the record it belongs to. */
type Placed = Pick<Collection, 'path' | 'parent' | 'scope'>;

/** Whether `target`'s store name depends on the request's path (a parent record's, or a scope's). */
export function underPath(target: Placed): boolean {
  return target.parent !== undefined || (target.scope?.length ?? 0) > 0;
}

/** The keys of the records a request's path parameters name above `target`, by parameter; undefined when a segment can be no record's key. */
export function parentKeys(target: Placed, params: Readonly<Record<string, string>>): Map<string, RecordKey> | undefined {
  const keys = new Map<string, RecordKey>();
  for (let parent = target.parent; parent; parent = parent.collection.parent) {
    const key = keyOfPathSegment(params[parent.parameter] ?? '', parent.collection.identity);
    if (key === undefined) return undefined;
    keys.set(parent.parameter, key);
  }
  // A scope is the value itself, whatever it is: nothing the mock stores types it.
  for (const name of target.scope ?? []) keys.set(name, JSON.stringify(params[name] ?? ''));
  return keys;
}

/**
 * The store's name for `target` under the records a request's path names. A segment that can be
 * no record's key (`/orders/abc/lines` of integer orders) gives `{}`, which no record names: such a
 * request is answered 404 before anything is stored.
 */
export function storeName(target: Placed, params: Readonly<Record<string, string>>): string {
  if (!underPath(target)) return target.path;
  return nameOf(target.path, parentKeys(target, params) ?? new Map());
}

/** The store's name for `path` under the parent records `keys` names (by parameter). */
export function nameOf(path: string, keys: ReadonlyMap<string, RecordKey>): string {
  return storeNamer(path)(keys);
}

/**
 * `nameOf` for one path, its template split once: a record's delete names each collection nested
 * under it (netlify's sites have five and their singletons), and a split per name was a tenth of a delete.
 */
export function storeNamer(path: string): (keys: ReadonlyMap<string, RecordKey>) => string {
  // Odd places hold the parameters' names: `/a/{x}/b` splits into `/a/`, `x`, `/b`.
  const parts = path.split(/\{([^/{}]+)\}/);
  const head = parts[0] as string;
  return (keys) => {
    let name = head;
    for (let i = 1; i < parts.length; i += 2) name += `{${encodeURIComponent(keys.get(parts[i] as string) ?? '')}}${parts[i + 1] as string}`;
    return name;
  };
}

/**
 * The API path of `target` under the records a request's path names, each parent as a person writes
 * its identity (`/orders/7/lines` for `/orders/7.0/lines`); a segment that is no key stays as sent.
 * What a Location header and a message's `/__mock` listing show.
 */
export function pathOf(target: Placed, params: Readonly<Record<string, string>>): string {
  if (!underPath(target)) return target.path;
  const keys = parentKeys(target, params);
  return target.path.replace(/\{([^/{}]+)\}/g, (whole, name: string) => {
    const key = keys?.get(name);
    const sent = params[name];
    return encodeURIComponent(key !== undefined ? keyWords(key) : (sent ?? whole));
  });
}

/** A key as a path segment says it: a string's text, a number's digits. */
export function keyWords(key: RecordKey): string {
  return key.charCodeAt(0) === 0x22 ? (JSON.parse(key) as string) : key;
}
