/**
 * The invariant of issue 37 §1, held over generated schemas and records: whatever a client stored,
 * its projection to the answer's schema is valid against that schema and leaks no writeOnly
 * property, with no mock bug left to log.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeOnlyLeaks } from '../../judge/write-only.js';
import { createSpecAjv } from '../ajv.js';
import { parseExactJson } from '../exact-json.js';
import { Projector } from '../project.js';
import type { Schema } from '../resolve.js';

const NAMES = ['id', 'name', 'to', 'status', 'token', 'createdAt', 'cvc', 'tags'] as const;

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'string', format: 'date-time' }),
  fc.constant({ type: 'string', format: 'email' }),
  fc.constant({ type: 'string', minLength: 3, maxLength: 8 }),
  fc.constant({ type: 'string', pattern: '^T-[0-9]{4}$' }),
  fc.constant({ type: 'integer', minimum: 1 }),
  fc.constant({ type: 'number' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'string', enum: ['queued', 'sent'] }),
  fc.constant({ type: 'array', items: { type: 'string' } }),
  fc.constant({ type: ['string', 'null'] }),
);

const property: fc.Arbitrary<Schema> = fc.tuple(leaf, fc.boolean(), fc.boolean()).map(([schema, writeOnly, nested]) => {
  const inner = nested ? { type: 'object', required: ['value'], properties: { value: schema }, additionalProperties: false } : schema;
  return writeOnly ? { ...inner, writeOnly: true } : inner;
});

const object: fc.Arbitrary<Schema> = fc.tuple(fc.dictionary(fc.constantFrom(...NAMES), property, { maxKeys: 5 }), fc.subarray([...NAMES]), fc.boolean()).map(([properties, required, closed]) => ({
  type: 'object',
  properties,
  // A writeOnly property required in an answer has no valid answer at all: no spec declares that.
  required: required.filter((name) => name in properties && (properties[name] as Schema).writeOnly !== true),
  ...(closed ? { additionalProperties: false } : {}),
}));

const union: fc.Arbitrary<Schema> = fc.tuple(object, object).map(([a, b]) => ({
  oneOf: [
    { ...a, required: [...(a.required as string[]), 'kind'], properties: { ...(a.properties as object), kind: { const: 'a' } } },
    { ...b, required: [...(b.required as string[]), 'kind'], properties: { ...(b.properties as object), kind: { const: 'b' } } },
  ],
}));

const schemas = fc.oneof(
  object,
  union,
  object.map((items) => ({ type: 'array', items })),
);

const records = fc.oneof(
  fc.dictionary(fc.constantFrom(...NAMES, 'kind', 'extra', 'password'), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('a', 'b')), { maxKeys: 8 }),
  fc.array(fc.dictionary(fc.constantFrom(...NAMES, 'extra'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }), { maxLength: 3 }),
);

describe('a stored record projected to its answer schema', () => {
  it('is valid against the schema and leaks no writeOnly property', () => {
    const ajv = createSpecAjv({ verbose: true });
    fc.assert(
      fc.property(schemas, records, (schema, record) => {
        // A property one branch answers and another marks writeOnly makes every answer holding it a leak to the judge: no answer is valid, no spec means that.
        fc.pre(!contradictory(schema));
        const validate = ajv.compile(schema);
        const projector = new Projector({});
        const projected = projector.project(record, schema, validate);
        const answer = projected ? parseExactJson(projected.json) : record;
        expect(projected?.problems).toBeUndefined();
        expect(validate(answer), JSON.stringify({ answer, errors: validate.errors })).toBe(true);
        expect(writeOnlyLeaks(answer, schema)).toEqual([]);
      }),
      { numRuns: 150, seed: 37 },
    );
  });

  it('keeps what the schema allows as stored: a valid record without writeOnly members is answered as it is', () => {
    const projector = new Projector({});
    const schema = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    expect(projector.project({ id: 1, name: 'a', extra: true }, schema)).toBeUndefined();
  });

  it('converts what is obvious and keeps exact digits', () => {
    const projector = new Projector({});
    const schema = { type: 'object', required: ['id', 'to'], properties: { id: { type: 'integer' }, to: { type: 'array', items: { type: 'string' } }, secret: { type: 'string', writeOnly: true } } };
    const stored = parseExactJson('{"id":9223372036854775807,"to":"a@b","secret":"x"}');
    expect(projector.project(stored, schema)?.json).toBe('{"id":9223372036854775807,"to":["a@b"]}');
  });
});

function contradictory(schema: Schema): boolean {
  if (!Array.isArray(schema.oneOf)) return false;
  const marks = new Map<string, Set<boolean>>();
  for (const branch of schema.oneOf as Schema[]) {
    for (const [name, property] of Object.entries((branch.properties ?? {}) as Record<string, Schema>)) marks.set(name, (marks.get(name) ?? new Set()).add(property.writeOnly === true));
  }
  return [...marks.values()].some((seen) => seen.size > 1);
}
