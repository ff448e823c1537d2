/** The schema toolkit (openapi/schema/shape.ts): refs, allOf, declared, readOnly and writeOnly properties. */
import { describe, expect, it } from 'vitest';
import { declaredProperties, flattenObject, inlineSchema, mergeAllOf, mergeSchemas, readOnlyProperties, writeOnlyProperties } from '../shape.js';
import { jsonPointer, jsonPointerTokens, pointerTarget, pointerTokens, refName, refProblem, resolveRef, resolveRefAt, unescapePointerToken } from '../resolve.js';

const document = {
  components: {
    schemas: {
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid', readOnly: true }, 'a/b': { type: 'integer' } } },
      Card: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          { type: 'object', required: ['cvc'], additionalProperties: false, properties: { cvc: { type: 'string', writeOnly: true }, number: { $ref: '#/components/schemas/Digits' } } },
        ],
      },
      Digits: { allOf: [{ type: 'string' }, { pattern: '^[0-9]+$' }] },
      Either: { oneOf: [{ $ref: '#/components/schemas/Card' }, { type: 'object', properties: { iban: { type: 'string' } } }] },
      Loop: { $ref: '#/components/schemas/Loop' },
    },
  },
};
const card = { $ref: '#/components/schemas/Card' };

describe('schema toolkit', () => {
  it('follows local refs and pointers, escapes included', () => {
    expect(pointerTarget(document, '#/components/schemas/Base/properties/a~1b')).toEqual({ type: 'integer' });
    expect(pointerTarget(document, jsonPointer('components', 'schemas', 'Base', 'properties', 'a/b'))).toEqual({ type: 'integer' });
    expect(resolveRef({ $ref: '#/components/schemas/Digits' }, document)).toBe(document.components.schemas.Digits);
    expect(resolveRef({ $ref: '#/components/schemas/Loop' }, document)).toBeUndefined();
    expect(refProblem({ $ref: '#/components/schemas/Loop' }, document)).toMatch(/cycle/);
    expect(refProblem({ $ref: '#/nope' }, document)).toMatch(/#\/nope, which the document does not have/);
    expect(refProblem({ $ref: 'other.yaml#/X' }, document)).toMatch(/not in the document/);
    expect(refName(card)).toBe('Card');
  });

  it('reads a JSON pointer as RFC 6901 writes it, and percent-decodes only a URI fragment', () => {
    expect(unescapePointerToken('a~1b~0c')).toBe('a/b~c');
    expect(unescapePointerToken('~01')).toBe('~1');
    // A JSON Patch path or an Ajv instancePath: `%25` is three characters of a member's name.
    expect(jsonPointerTokens('/a~1b/100%25/0')).toEqual(['a/b', '100%25', '0']);
    expect(jsonPointerTokens('')).toEqual([]);
    expect(jsonPointerTokens('/')).toEqual(['']);
    // A ref's fragment is a URI's: `%25` is `%`.
    expect(pointerTokens('#/a~1b/100%25/0')).toEqual(['a/b', '100%', '0']);
  });

  it('says where a ref chain ends', () => {
    const chain = { components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { type: 'string' } } } };
    expect(resolveRefAt({ $ref: '#/components/schemas/A' }, chain, '/paths/x')).toEqual({ target: { type: 'string' }, pointer: '/components/schemas/B' });
    expect(resolveRefAt({ type: 'integer' }, chain, '/paths/x')).toEqual({ target: { type: 'integer' }, pointer: '/paths/x' });
    expect(resolveRefAt({ $ref: '#/components/schemas/Loop' }, document, '').target).toBeUndefined();
  });

  it('merges two parts: later keywords win, properties by name, required united, unions paired only when asked', () => {
    const payment = { type: 'object', required: ['amount'], properties: { amount: { type: 'integer' }, note: { type: 'string' } }, oneOf: [{ required: ['card'] }, { required: ['iban'] }] };
    const delivery = {
      type: 'object',
      title: 'Delivery',
      required: ['to'],
      properties: { note: { maxLength: 10 }, to: { type: 'string' } },
      oneOf: [{ required: ['pickup'] }, { required: ['address'] }],
    };
    expect(mergeSchemas(payment, delivery)).toEqual({
      type: 'object',
      title: 'Delivery',
      required: ['amount', 'to'],
      properties: { amount: { type: 'integer' }, note: { maxLength: 10 }, to: { type: 'string' } },
      oneOf: delivery.oneOf,
    });
    expect(mergeSchemas(payment, delivery, { pairUnions: true }).oneOf).toEqual([
      { required: ['card', 'pickup'] },
      { required: ['card', 'address'] },
      { required: ['iban', 'pickup'] },
      { required: ['iban', 'address'] },
    ]);
    // What neither part says, the merge does not add.
    expect(mergeSchemas({ type: 'string' }, { minLength: 1 })).toEqual({ type: 'string', minLength: 1 });
  });

  it('flattens allOf into one object: properties, required, closed', () => {
    const flat = flattenObject(card, document);
    expect([...flat.properties.keys()]).toEqual(['id', 'a/b', 'cvc', 'number']);
    expect([...flat.required].sort()).toEqual(['cvc', 'id']);
    expect(flat.additionalProperties).toBe(false);
    expect(flat.properties.get('number')).toEqual({ type: 'string', pattern: '^[0-9]+$' });
    expect(mergeAllOf({ $ref: '#/components/schemas/Digits' }, document)).toEqual({ type: 'string', pattern: '^[0-9]+$' });
  });

  it('lists declared properties through union branches, and the readOnly and writeOnly ones', () => {
    expect([...declaredProperties({ $ref: '#/components/schemas/Either' }, document).keys()]).toEqual(['id', 'a/b', 'cvc', 'number', 'iban']);
    expect([...readOnlyProperties(card, document)]).toEqual(['id']);
    expect([...writeOnlyProperties(card, document)]).toEqual(['cvc']);
  });

  it('inlines refs and allOf parts at every depth, a recursive ref cut to {}', () => {
    const tree = {
      components: {
        schemas: {
          Node: { type: 'object', properties: { name: { $ref: '#/components/schemas/Digits' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
          Digits: { allOf: [{ type: 'string' }, { pattern: '^[0-9]+$' }] },
          Card: document.components.schemas.Card,
          Base: document.components.schemas.Base,
        },
      },
    };
    expect(inlineSchema({ $ref: '#/components/schemas/Node' }, tree)).toEqual({
      type: 'object',
      properties: { name: { type: 'string', pattern: '^[0-9]+$' }, children: { type: 'array', items: {} } },
    });
    const flat = inlineSchema({ $ref: '#/components/schemas/Card' }, tree);
    expect(flat.required).toEqual(['id', 'cvc']);
    expect(Object.keys(flat.properties as object)).toEqual(['id', 'a/b', 'cvc', 'number']);
    expect((flat.properties as Record<string, unknown>).number).toEqual({ type: 'string', pattern: '^[0-9]+$' });
    expect(flat.additionalProperties).toBe(false);
    expect(inlineSchema({ $ref: '#/components/schemas/Loop' }, document)).toEqual({});
    expect(inlineSchema('not a schema', document)).toEqual({});
  });
});
