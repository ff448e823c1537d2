/**
 * What the store keeps of a request body, and what an answer shows of a stored record. A record
 * is the properties the create operation's body schema declares, exactly as received (integers
 * keep their digits); its key is the identity property's value as exact text. Answers carry
 * exactly the properties their own response schema declares. Nothing here names a field: the
 * spec does.
 */
import { exactJsonOf, integerOfLiteral, parseExactJson } from '../../spec/exact-json.js';
import type { Schema } from '../../spec/contract.js';
import type { RecordKey, StoredRecord } from '../stores/store.js';

/** Which property identifies a record, and how its values become keys. */
export interface Identity {
  property: string;
  /** The identity's JSON type as the create body schema declares it. */
  type: 'integer' | 'string' | 'other';
}

export function identityOf(property: string, schema: Schema | undefined): Identity {
  const type = schema?.type;
  return { property, type: type === 'integer' ? 'integer' : type === 'string' ? 'string' : 'other' };
}

/** The key of a parsed body's identity value; undefined when the body has none. */
export function keyOfBody(body: Record<string, unknown>, identity: Identity): RecordKey | undefined {
  const value = body[identity.property];
  if (value === undefined) return undefined;
  const text = exactJsonOf(body, identity.property);
  // An integer identity is its digits however it was written (1e3 and 1000 are one key); the
  // exact view already gives whole numbers as digits, only a huge exponent form needs reading.
  if (identity.type === 'integer' && !/^-?\d+$/.test(text)) return integerOfLiteral(text)?.toString() ?? text;
  return text;
}

/** The key a path segment names (`/plants/{id}`); undefined when it cannot be an identity value. */
export function keyOfPathSegment(segment: string, identity: Identity): RecordKey | undefined {
  if (identity.type === 'integer') return /^-?\d+$/.test(segment) ? integerOfLiteral(segment)?.toString() : undefined;
  if (identity.type === 'string') return JSON.stringify(segment);
  return segment;
}

/** The key as a person reads it in a message: digits, or the string's text. */
export function keyInWords(key: RecordKey, identity: Identity): string {
  return identity.type === 'string' ? (JSON.parse(key) as string) : key;
}

/** The record for a parsed body: the declared properties it has, in the order received. */
export function recordOf(body: Record<string, unknown>, key: RecordKey, declared: ReadonlySet<string>): StoredRecord {
  let json = '';
  for (const property of Object.keys(body)) {
    if (!declared.has(property) || body[property] === undefined) continue;
    json += `${json ? ',' : '{'}${JSON.stringify(property)}:${exactJsonOf(body, property)}`;
  }
  return { key, json: json ? `${json}}` : '{}' };
}

/** A stored record's value, parsed exactly. */
export function recordValue(record: StoredRecord): Record<string, unknown> {
  return parseExactJson(record.json) as Record<string, unknown>;
}

/** The JSON text of `value` with only `properties` (those a response schema declares), in the record's order. */
export function projection(value: Record<string, unknown>, properties: ReadonlySet<string>): string {
  let json = '';
  for (const property of Object.keys(value)) {
    if (!properties.has(property) || value[property] === undefined) continue;
    json += `${json ? ',' : '{'}${JSON.stringify(property)}:${exactJsonOf(value, property)}`;
  }
  return json ? `${json}}` : '{}';
}

/**
 * The JSON text of `stored` with the declared properties of `patch` applied (JSON merge patch,
 * RFC 7396, at the top level: null removes), every value carried over as exact text.
 */
export function mergedJson(stored: Record<string, unknown>, patch: Record<string, unknown>, declared: ReadonlySet<string>): string {
  const parts = new Map<string, string>();
  for (const property of Object.keys(stored)) parts.set(property, exactJsonOf(stored, property));
  for (const property of Object.keys(patch)) {
    if (!declared.has(property)) continue;
    if (patch[property] === null) parts.delete(property);
    else parts.set(property, exactJsonOf(patch, property));
  }
  return `{${[...parts].map(([property, json]) => `${JSON.stringify(property)}:${json}`).join(',')}}`;
}
