/**
 * Server fields: the properties a collection's answers require that the client never sends (a
 * `token`, `createdAt`, a `status`), made once when a record is created and stored with it, so
 * every later read, list and update answers the same value (issue 37, §1). Each is made from its
 * schema: its `default`, else its example, else what its format says a server would set (the
 * create's time for `date-time`, a fresh UUID), else a sample of the schema (its `pattern`, `enum`…).
 */
import { randomUUID } from 'node:crypto';
import type { Collection } from '../../openapi/operations/collections.js';
import type { ObjectShape } from '../../openapi/operations/model.js';
import type { Projector } from '../../openapi/schema/project.js';
import { exactJsonOf } from '../../openapi/schema/exact-json.js';
import type { Schema } from '../../openapi/schema/resolve.js';
import type { StoredRecord } from '../stores/store.js';

export interface ServerField {
  name: string;
  schema: Schema;
}

/**
 * The server fields of a collection: what any of its answers (`shapes`: the create's, the read's,
 * the list's items…) requires, other than the identity, a writeOnly property, or one the create body
 * requires (the client always sends that one).
 */
export function serverFieldsOf(collection: Collection, shapes: Iterable<ObjectShape | undefined>): ServerField[] {
  const fields = new Map<string, Schema>();
  const sent = new Set(collection.body.required);
  for (const shape of shapes) {
    if (!shape) continue;
    for (const name of shape.required) {
      const schema = shape.properties.get(name);
      if (!schema || fields.has(name) || name === collection.identity.property || sent.has(name)) continue;
      if (schema.writeOnly === true || collection.writeOnly.has(name)) continue;
      fields.set(name, schema);
    }
  }
  return [...fields].map(([name, schema]) => ({ name, schema }));
}

/**
 * The value a server would give a field at create: default, example, format, else a sample. A
 * default or example its own schema refuses is passed over (hf-tgi's integer `created` gives the
 * example "1706270835", a string): the answer must obey the schema, not the example.
 */
export function serverValue(schema: Schema, projector: Projector): unknown {
  if ('const' in schema) return schema.const;
  const validate = projector.validatorOf(schema);
  const fits = (value: unknown): boolean => value !== undefined && (validate === undefined || validate(value) === true);
  const given = [schema.default, Array.isArray(schema.examples) ? (schema.examples as unknown[])[0] : undefined, schema.example];
  const chosen = given.find(fits);
  if (chosen !== undefined) return chosen;
  if (!Array.isArray(schema.enum)) {
    const now = new Date();
    if (schema.format === 'date-time') return now.toISOString();
    if (schema.format === 'date') return now.toISOString().slice(0, 10);
    if (schema.format === 'uuid') return randomUUID();
  }
  const sampled = projector.sampled(schema);
  return fits(sampled) ? sampled : projector.sampled(schema, false);
}

/**
 * `record` with the server fields it lacks added at its end (`holds`: whether the record already has
 * one, a field the body may carry and the client sent), `kept`'s values where the record replaces one
 * that has them (a PUT keeps `createdAt`).
 */
export function withServerFields(record: StoredRecord, holds: (name: string) => boolean, fields: readonly ServerField[], projector: Projector, kept?: Readonly<Record<string, unknown>>): StoredRecord {
  const members: string[] = [];
  for (const { name, schema } of fields) {
    if (holds(name)) continue;
    const json = kept && kept[name] !== undefined ? exactJsonOf(kept, name) : JSON.stringify(serverValue(schema, projector));
    if (json !== undefined) members.push(`${JSON.stringify(name)}:${json}`);
  }
  if (!members.length) return record;
  return { ...record, json: record.json === '{}' ? `{${members.join(',')}}` : `${record.json.slice(0, -1)},${members.join(',')}}` };
}
