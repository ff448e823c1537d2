/**
 * What the store keeps of a request body, and what an answer shows of a stored record. A record
 * is the properties the create operation's body schema declares, exactly as received (integers
 * keep their digits); its key is the identity property's value as exact text. Answers carry
 * exactly the properties their own response schema declares. Nothing here names a field: the
 * spec does.
 */
import { exactJsonOf, holdsInexactNumbers, integerOfLiteral, needsExactParse, parseExactJson } from '../../openapi/schema/exact-json.js';
import type { Identity } from '../../openapi/operations/collections.js';
import type { RecordKey, StoredRecord } from '../stores/store.js';

/** The key of a parsed body's identity value; undefined when the body has none. */
export function keyOfBody(body: Record<string, unknown>, identity: Identity): RecordKey | undefined {
  // An object identity is keyed by its member the item path carries (`ehr_id.value`).
  const outer = body[identity.property];
  const holder = identity.member === undefined ? body : isPlainObject(outer) ? outer : undefined;
  const name = identity.member ?? identity.property;
  const value = holder?.[name];
  if (holder === undefined || value === undefined) return undefined;
  // The common case: a whole number the view holds as sent, whose digits are its JSON.
  if (typeof value === 'number' && Number.isSafeInteger(value) && !holdsInexactNumbers(holder)) return String(value);
  const text = exactJsonOf(holder, name);
  // An integer identity is its digits however it was written (1e3 and 1000 are one key); the
  // exact view already gives whole numbers as digits, only a huge exponent form needs reading.
  if (identity.type === 'integer' && !/^-?\d+$/.test(text)) return integerOfLiteral(text)?.toString() ?? text;
  return text;
}

/**
 * Why a collection cannot store a record under `key`, or undefined when it can: an empty string
 * (`""`) would name the record at `/codes/`, which is not its item path `/codes/{code}`, so it
 * could never be read, replaced or deleted (a strict provider refuses it). Where the collection
 * has no item path, no path names a record and the empty string is a key like any other.
 */
export function unreachableKey(key: RecordKey, collection: { identity: Identity; itemPath: string | undefined; noun: string }): string | undefined {
  if (key !== '""' || collection.itemPath === undefined) return undefined;
  return `${collection.identity.property} cannot be empty: it names the ${collection.noun} in the path ${collection.itemPath}`;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The key a path segment names (`/plants/{id}`); undefined when it cannot be an identity value. */
export function keyOfPathSegment(segment: string, identity: Identity): RecordKey | undefined {
  // Read as a body's value is: `1.0` and `1e0` name the integer 1, as they do in JSON. Digits
  // written as the integer's own (no leading zero, no `-0`) are the key as they are.
  if (identity.type === 'integer') return isCanonicalInteger(segment) ? segment : JSON_NUMBER.test(segment) ? integerOfLiteral(segment)?.toString() : undefined;
  if (identity.type === 'string') return JSON.stringify(segment);
  // Any other identity schema keys a body's value by its JSON text: a number's digits, a string quoted.
  return (/^-?\d+$/.test(segment) && integerOfLiteral(segment)?.toString()) || JSON.stringify(segment);
}

/**
 * Whether `text` is an integer written as its canonical digits, at most 40 of them (what
 * `integerOfLiteral` gives back exactly): `0`, or an optional minus and digits not starting with 0.
 */
export function isCanonicalInteger(text: string): boolean {
  const length = text.length;
  let at = length > 1 && text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (at === length || length - at > 40) return false;
  const first = text.charCodeAt(at);
  if (first === 48 /* 0 */) return length === 1;
  for (; at < length; at++) {
    const c = text.charCodeAt(at);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The key as a person reads it in a message: digits, or the string's text. */
export function keyInWords(key: RecordKey, identity: Identity): string {
  return identity.type === 'string' ? (JSON.parse(key) as string) : key;
}

/**
 * The record for a parsed body: the declared properties it has, in the order received. When the
 * body holds nothing else, the record is its text exactly as received (`text`, from which `body`
 * was parsed): nothing to write again.
 */
export function recordOf(body: Record<string, unknown>, key: RecordKey, declared: ReadonlySet<string>, text?: string): StoredRecord {
  return madeOf(body, key, declared, text).record;
}

/**
 * A record made from a body, and the value it reads back as when that is the body itself: a
 * body stored as its own text (every number in it exact as a plain parse reads it) parses back
 * to what the body is, so its answer need not parse the record again. Undefined when the record
 * was written anew.
 */
export interface MadeRecord {
  record: StoredRecord;
  value: Record<string, unknown> | undefined;
}

function madeOf(body: Record<string, unknown>, key: RecordKey, declared: ReadonlySet<string>, text: string | undefined): MadeRecord {
  if (text !== undefined && keptAsSent(text) && onlyDeclared(body, declared)) return { record: { key, json: text.trim() }, value: body };
  return { record: { key, json: projection(body, declared) }, value: undefined };
}

/**
 * The record of a body under `key`: the properties a client may set (`declared`), with the
 * identity first when the body does not carry it as one of them (assigned by the mock, read-only,
 * or named by the path). The key is the identity's JSON text already.
 */
export function identifiedRecord(body: Record<string, unknown>, key: RecordKey, identity: Identity, declared: ReadonlySet<string>, text?: string): StoredRecord {
  return madeRecord(body, key, identity, declared, text).record;
}

/** `identifiedRecord`, with the value the record reads back as when that is the body (see MadeRecord). */
export function madeRecord(body: Record<string, unknown>, key: RecordKey, identity: Identity, declared: ReadonlySet<string>, text?: string): MadeRecord {
  const { property, member } = identity;
  const sent = body[property];
  // An object identity sent without the member its key is (the mock assigned it): the member written into it.
  if (member !== undefined && isPlainObject(sent) && sent[member] === undefined) return madeOf({ ...body, [property]: { ...sent, [member]: parseExactJson(key) } }, key, declared, undefined);
  if (declared.has(property) && sent !== undefined) return madeOf(body, key, declared, text);
  const rest = projection(body, declared);
  // An object identity holds the key in its member (`"ehr_id":{"value":"…"}`).
  const head = `${JSON.stringify(property)}:${identity.member === undefined ? key : `{${JSON.stringify(identity.member)}:${key}}`}`;
  return { record: { key, json: rest === '{}' ? `{${head}}` : `{${head},${rest.slice(1)}` }, value: undefined };
}

/**
 * Whether a body's text can be the record as it is: on one line (stores keep records one per
 * line, and a JSON text's line breaks can only be white space between tokens), and with every
 * number written as the integer it is (no `1.0`, `2e3` or `-0`, which a record holds as `1`,
 * `2000` and `0`; nothing past a double's exact range).
 */
function keptAsSent(text: string): boolean {
  return text.indexOf('\n') === -1 && text.indexOf('\r') === -1 && text.indexOf('-0') === -1 && !needsExactParse(text);
}

function onlyDeclared(body: Record<string, unknown>, declared: ReadonlySet<string>): boolean {
  for (const property in body) if (!declared.has(property)) return false;
  return true;
}

/** A stored record's value, parsed exactly. */
export function recordValue(record: StoredRecord): Record<string, unknown> {
  return parseExactJson(record.json) as Record<string, unknown>;
}

/**
 * The JSON object of `value`'s `properties` (those a body or response schema declares), in its
 * own order, values exact, as one flat string: a record keeps it for as long as it lives, the
 * journal as long as the entry, and text built piece by piece would be a tree of pieces, several
 * times its size in memory.
 */
export function projection(value: Record<string, unknown>, properties: ReadonlySet<string>): string {
  // Nearly every body: values the view holds as sent. A fresh object of the kept properties goes
  // through JSON.stringify's own fast path, and comes out flat.
  if (!holdsInexactNumbers(value)) {
    let kept: Record<string, unknown> | undefined;
    let plain = true;
    const names = Object.keys(value);
    for (let i = 0; i < names.length; i++) {
      const property = names[i] as string;
      const item = value[property];
      if (item !== null && typeof item === 'object') plain = false;
      if (properties.has(property) && item !== undefined) {
        if (kept) kept[property] = item;
        continue;
      }
      // The first property to leave out: from here on, copy the ones kept.
      if (!kept) {
        kept = {};
        for (let j = 0; j < i; j++) kept[names[j] as string] = value[names[j] as string];
      }
    }
    // A nested value may hold exact numbers of its own.
    if (plain) return JSON.stringify(kept ?? value);
  }
  const parts = ['{'];
  for (const property of Object.keys(value)) {
    if (!properties.has(property) || value[property] === undefined) continue;
    if (parts.length > 1) parts.push(',');
    parts.push(JSON.stringify(property), ':', exactJsonOf(value, property));
  }
  parts.push('}');
  return parts.join('');
}

/**
 * The JSON text of `stored` with the declared properties of `patch` applied (JSON merge patch,
 * RFC 7396: null removes, an object merges into the object there), every value carried over as exact text.
 */
export function mergedJson(stored: Record<string, unknown>, patch: Record<string, unknown>, declared: ReadonlySet<string>): string {
  return mergedObject(stored, patch, declared);
}

function mergedObject(target: Record<string, unknown>, patch: Record<string, unknown>, declared?: ReadonlySet<string>): string {
  const parts = new Map<string, string>();
  for (const property of Object.keys(target)) parts.set(property, exactJsonOf(target, property));
  for (const property of Object.keys(patch)) {
    if (declared && !declared.has(property)) continue;
    const value = patch[property];
    if (value === null) parts.delete(property);
    else if (isPlainObject(value)) {
      // Nested depth is bounded by the body parser's limit (MAX_JSON_DEPTH).
      const current = target[property];
      parts.set(property, mergedObject(isPlainObject(current) ? current : {}, value));
    } else parts.set(property, exactJsonOf(patch, property));
  }
  return `{${[...parts].map(([property, json]) => `${JSON.stringify(property)}:${json}`).join(',')}}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
