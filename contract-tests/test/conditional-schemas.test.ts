/**
 * Values of schemas with `if`/`then`/`else`, discriminators and parts no value can take, made by both
 * tools (the mock's sampler, openapi/schema/sample.ts; the suite's generators,
 * contract-tests/generators/schema-values.ts and its bodies), each judged by the validator the
 * contract compiles (the one Ajv, discriminators rewritten as `if`/`then`): JSON Schema 2020-12
 * says a value that takes `if` must take `then`, one that does not must take `else`.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { parse as parseYaml } from 'yaml';
import { compileContract } from '../../openapi/operations/compile.js';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { sample } from '../../openapi/schema/sample.js';
import { inlineSchema } from '../../openapi/schema/shape.js';
import { generateCases } from '../generated.js';
import { validLiterals } from '../generators/schema-values.js';
import { compileSuiteContract } from '../spec-contract.js';

const schemas: Record<string, unknown> = {
  // JSON Schema's own example of a condition: the postal code's form depends on the country.
  Address: {
    type: 'object',
    required: ['country', 'postal_code'],
    properties: { country: { enum: ['US', 'CA'] }, postal_code: { type: 'string' } },
    if: { properties: { country: { const: 'US' } } },
    then: { properties: { postal_code: { pattern: '^[0-9]{5}$' } } },
    else: { properties: { postal_code: { pattern: '^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$' } } },
  },
  // A discriminated union as 3.1 documents write it without `discriminator`: an allOf of conditions on one property.
  Event: {
    type: 'object',
    required: ['kind'],
    properties: { kind: { type: 'string', enum: ['click', 'view', 'scroll'] }, at: { type: 'string', format: 'date-time' } },
    allOf: [
      { if: { properties: { kind: { const: 'click' } } }, then: { required: ['x'], properties: { x: { type: 'integer', minimum: 1 } } } },
      { if: { properties: { kind: { const: 'view' } } }, then: { required: ['url'], properties: { url: { type: 'string', format: 'uri' } } } },
      { if: { properties: { kind: { const: 'scroll' } } }, then: { required: ['depth'], properties: { depth: { type: 'number', minimum: 0, maximum: 1 } } }, else: { not: { required: ['depth'] } } },
    ],
  },
  // A condition on the type: a string must be long, a number large.
  Amount: { type: ['string', 'integer'], if: { type: 'string' }, then: { minLength: 4 }, else: { minimum: 10 } },
  // A condition whose `then` no value takes: only the `else` side is left, the `if` made false by leaving its member out.
  Legacy: {
    type: 'object',
    properties: { code: { type: 'string' }, name: { type: 'string', minLength: 2 } },
    required: ['name'],
    if: { required: ['code'] },
    then: false,
    else: { properties: { name: { maxLength: 8 } } },
  },
  // OpenAPI's discriminator with a mapping, each branch's property an enum or a const.
  Pet: {
    oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
    discriminator: { propertyName: 'pet_type', mapping: { CAT: '#/components/schemas/Cat', DOG: '#/components/schemas/Dog' } },
  },
  Cat: { type: 'object', required: ['pet_type', 'lives'], properties: { pet_type: { type: 'string', enum: ['CAT'] }, lives: { type: 'integer', maximum: 9 } } },
  Dog: { type: 'object', required: ['pet_type', 'bark'], properties: { pet_type: { const: 'DOG' }, bark: { type: 'string', minLength: 3 } } },
  // A pattern no string matches (written with its regex literal's slashes, as openEHR's TermMapping.match): the member is never written.
  Text: {
    type: 'object',
    required: ['value'],
    properties: {
      value: { type: 'string' },
      mappings: { type: 'array', items: { type: 'object', required: ['match'], properties: { match: { type: 'string', pattern: '/^[><=?]$/' } } } },
      note: { type: 'string', pattern: '/^x$/' },
    },
  },
};
const document = { openapi: '3.1.0', info: { title: 'Conditions', version: '1' }, paths: {}, components: { schemas } };
const contract = compileContract(document, 'conditions.yaml');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const patterns = new PatternStrings();
const sampled = (name: string, doc: unknown = document) => sample(ref(name), { document: doc, patternString: (keywords) => patterns.stringFor(keywords) })?.value;

/** Values the suite draws for the component, parsed, each checked against its validator. */
function drawn(name: string, runs = 60, source: { document: unknown; validate: (value: unknown) => boolean } = { document, validate: contract.componentValidator(name) }): unknown[] {
  const literals = fc.sample(validLiterals(inlineSchema(ref(name), source.document)), { seed: 37, numRuns: runs });
  const values = literals.map((text) => parseExactJson(text));
  const refused = values.filter((value) => !source.validate(value));
  expect(
    refused.map((value) => JSON.stringify(value).slice(0, 400)),
    `${name}: values the validator refuses`,
  ).toEqual([]);
  return values;
}

describe('a schema with if/then/else', () => {
  it('is sampled by the mock with the `if` and `then` met', () => {
    const value = sampled('Address');
    expect(value).toMatchObject({ country: 'US' });
    expect(contract.componentValidator('Address')(value)).toBe(true);
  });

  it('is drawn by the suite on both sides: the `if` met with its `then`, or made false with its `else`', () => {
    const values = drawn('Address') as Array<{ country: string }>;
    expect(new Set(values.map((value) => value.country))).toEqual(new Set(['US', 'CA']));
  });

  it('met one condition after another, each kind of an allOf of conditions written with its own members', () => {
    expect(contract.componentValidator('Event')(sampled('Event'))).toBe(true);
    const values = drawn('Event') as Array<{ kind: string }>;
    expect(new Set(values.map((value) => value.kind))).toEqual(new Set(['click', 'view', 'scroll']));
  });

  it('on the type: the `if` made false by the other type', () => {
    expect(sampled('Amount')).toBe('string');
    const values = drawn('Amount');
    expect(values.some((value) => typeof value === 'string') && values.some((value) => typeof value === 'number')).toBe(true);
  });

  it('whose `then` takes nothing: the `if` made false by leaving out the member it requires', () => {
    const value = sampled('Legacy');
    expect(value).not.toHaveProperty('code');
    expect(contract.componentValidator('Legacy')(value)).toBe(true);
    expect(drawn('Legacy').every((one) => !Object.hasOwn(one as object, 'code'))).toBe(true);
  });
});

describe('a request body with if/then/else', () => {
  it("is sent by the suite on each side of its conditions, every valid case one the spec's validator takes", () => {
    const spec = {
      ...document,
      paths: {
        '/addresses': {
          post: {
            operationId: 'createAddress',
            requestBody: { required: true, content: { 'application/json': { schema: ref('Address') } } },
            responses: { '201': { description: 'created' } },
          },
        },
      },
    };
    const suite = compileSuiteContract(spec, 'addresses.json', 'createAddress');
    const { cases, excluded } = generateCases({ contract: suite, seed: 5, positive: 20, negative: 5, ids: createIdSource(), token: 'tok', invalidToken: 'never-issued' });
    expect(excluded.filter((entry) => /no valid|valid request, but/.test(entry.reason)).map((entry) => entry.reason)).toEqual([]);
    const accepted = cases.filter((kase) => kase.expect === 'accepted' && typeof kase.body === 'string').map((kase) => parseExactJson(kase.body as string) as { country: string });
    const validate = contract.componentValidator('Address');
    expect(accepted.filter((body) => !validate(body))).toEqual([]);
    expect(new Set(accepted.map((body) => body.country))).toEqual(new Set(['US', 'CA']));
  });
});

describe('a discriminated union', () => {
  it('is written by both tools with the value of the property that selects each branch (an enum, a const)', () => {
    expect(sampled('Pet')).toEqual({ pet_type: 'CAT', lives: 0 });
    expect(contract.componentValidator('Pet')(sampled('Pet'))).toBe(true);
    const values = drawn('Pet') as Array<{ pet_type: string }>;
    expect(new Set(values.map((value) => value.pet_type))).toEqual(new Set(['CAT', 'DOG']));
  });
});

describe('a member whose pattern no string matches', () => {
  it('is left out by both tools where it is optional, an array of it left empty', () => {
    expect(sampled('Text')).toEqual({ value: 'string', mappings: [] });
    const values = drawn('Text') as Array<Record<string, unknown>>;
    expect(values.some((value) => Array.isArray(value.mappings) && value.mappings.length > 0)).toBe(false);
    expect(values.some((value) => 'note' in value)).toBe(false);
    expect(values.some((value) => Array.isArray(value.mappings))).toBe(true);
  });
});

describe('the real openEHR EHR document (fixtures/real-world/openehr-ehr)', () => {
  const file = new URL('../../fixtures/real-world/openehr-ehr/ehr-validation.openapi.yaml', import.meta.url);
  const openehr = parseYaml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const compiled = compileContract(openehr, 'ehr-validation.openapi.yaml');

  it('its Composition (discriminated unions judged as if/then, TermMapping.match a pattern nothing matches) is made valid by both tools', () => {
    const validate = compiled.componentValidator('Composition');
    const value = sample(ref('Composition'), { document: compiled.document, examples: false, patternString: (keywords) => patterns.stringFor(keywords) });
    expect(validate(value?.value), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    drawn('Composition', 30, { document: compiled.document, validate });
  });

  it('gives composition_create valid cases: none excluded for want of a valid Composition', () => {
    const suite = compileSuiteContract(openehr, 'ehr-validation.openapi.yaml', 'composition_create');
    const { cases, excluded } = generateCases({ contract: suite, seed: 37, positive: 3, negative: 3, ids: createIdSource(), token: 'tok', invalidToken: 'never-issued' });
    expect(excluded.filter((entry) => /no valid/.test(entry.reason)).map((entry) => entry.reason)).toEqual([]);
    expect(cases.filter((kase) => kase.expect === 'accepted').length).toBeGreaterThan(0);
  });
});
