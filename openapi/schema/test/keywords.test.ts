/** The one keyword table (openapi/schema/keywords.ts): what each keyword's schemas judge, and the walkers over it. */
import { describe, expect, it } from 'vitest';
import { mapSubschemas, NAMED_SCHEMA_KEYWORDS, subschemas } from '../keywords.js';

describe('the keyword table', () => {
  it('lists the schemas a schema holds with the part of the value they judge, schemas only', () => {
    const schema = {
      type: 'object',
      allOf: [{ minProperties: 1 }],
      not: { required: ['x'] },
      then: true,
      properties: { id: { type: 'integer' }, flag: false },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: false,
      prefixItems: [{ type: 'string' }],
      contains: { const: 1 },
      // Draft 7's: a schema, or (no schema) the names a member needs beside it.
      dependencies: { card: { required: ['cvc'] }, iban: ['bic'] },
      $defs: { Id: { type: 'integer' } },
      enum: [{ properties: { data: {} } }],
    };
    expect([...subschemas(schema)].map(({ keyword, key, judges, sameValue }) => [keyword, key, judges, sameValue])).toEqual([
      ['allOf', '0', 'value', true],
      ['not', undefined, 'condition', true],
      ['then', undefined, 'valueWhen', true],
      ['dependencies', 'card', 'valueWhen', true],
      ['properties', 'id', 'property', false],
      ['properties', 'flag', 'property', false],
      ['patternProperties', '^x-', 'patternProperty', false],
      ['additionalProperties', undefined, 'otherProperties', false],
      ['prefixItems', '0', 'prefixItem', false],
      ['contains', undefined, 'item', false],
      ['$defs', 'Id', 'nothing', false],
    ]);
    expect([...subschemas(schema, { sameValueOnly: true })].map(({ keyword }) => keyword)).toEqual(['allOf', 'not', 'then', 'dependencies']);
    expect([...subschemas(schema, { skipDefinitions: true })].map(({ keyword }) => keyword)).not.toContain('$defs');
    expect([...NAMED_SCHEMA_KEYWORDS].sort()).toEqual(['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'patternProperties', 'properties']);
  });

  it('rewrites the schemas a schema holds, sharing what did not change, into a copy the caller made when given one', () => {
    const schema = { properties: { a: { type: 'string' }, b: { type: 'integer' } }, items: { type: 'integer' }, anyOf: [{ type: 'null' }] };
    const integersAsNumbers = (inner: unknown): unknown => ((inner as { type?: string }).type === 'integer' ? { type: 'number' } : inner);
    const rewritten = mapSubschemas(schema, integersAsNumbers);
    expect(rewritten).toEqual({ properties: { a: { type: 'string' }, b: { type: 'number' } }, items: { type: 'number' }, anyOf: [{ type: 'null' }] });
    expect(schema.properties.b).toEqual({ type: 'integer' });
    expect((rewritten.properties as Record<string, unknown>).a).toBe(schema.properties.a);
    expect(rewritten.anyOf).toBe(schema.anyOf);
    expect(mapSubschemas(schema, (inner) => inner)).toBe(schema);
    const copy = { ...schema };
    expect(mapSubschemas(schema, integersAsNumbers, {}, copy)).toBe(copy);
    expect(copy.items).toEqual({ type: 'number' });
  });
});
