/**
 * The one sampler (openapi/schema/sample.ts) on the 3.1 keywords the mock's answers meet: each
 * value is judged by the validator the contract compiles for the component (formats, linear-time
 * patterns, discriminators), so a value the sampler gets wrong fails here before any answer carries it.
 */
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../operations/compile.js';
import { PatternStrings } from '../pattern-strings.js';
import { leastSample, sample, samples, MAX_CHARACTERS, type SampleOptions } from '../sample.js';

const schemas: Record<string, unknown> = {
  Nullable: { type: ['string', 'null'], maxLength: 5 },
  Pair: { type: 'array', prefixItems: [{ type: 'integer', minimum: 3 }, { const: 'x' }], items: false, minItems: 2 },
  Bounds: {
    type: 'object',
    required: ['a', 'b', 'c', 'd'],
    properties: {
      a: { type: 'integer', exclusiveMinimum: 7 },
      b: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      c: { type: 'number', minimum: 0.015, multipleOf: 0.01 },
      d: { type: 'integer', maximum: -3 },
    },
  },
  Formats: {
    type: 'object',
    properties: Object.fromEntries(
      ['date-time', 'date', 'time', 'duration', 'uri', 'uri-reference', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid', 'byte'].map((format) => [format, { type: 'string', format }]),
    ),
  },
  Code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
  Pet: {
    oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
    discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
  },
  Animal: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, name: { type: 'string', minLength: 8 } } },
  Cat: { allOf: [{ $ref: '#/components/schemas/Animal' }, { type: 'object', properties: { lives: { type: 'integer', maximum: 9 } } }] },
  Dog: { allOf: [{ $ref: '#/components/schemas/Animal' }, { type: 'object', properties: { good: { type: 'boolean' } } }] },
  Node: {
    type: 'object',
    required: ['value', 'children'],
    properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, parent: { $ref: '#/components/schemas/Node' } },
  },
  Endless: { type: 'object', required: ['next'], properties: { next: { $ref: '#/components/schemas/Endless' } } },
  Huge: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, many: { type: 'array', minItems: 100_000_000, items: { type: 'string' } } } },
  Account: {
    type: 'object',
    required: ['id', 'password', 'active'],
    properties: {
      id: { type: 'integer', readOnly: true },
      password: { type: 'string', writeOnly: true },
      note: { type: 'string', writeOnly: true },
      active: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
    },
  },
  Hinted: { type: 'string', maxLength: 3, example: 'too long' },
  // A pattern written with its regex literal's slashes: the ^ after a / matches nothing, so no string does.
  Mapping: { type: 'object', required: ['match'], properties: { match: { type: 'string', pattern: '/^[><=?]$/' } } },
  Text: {
    type: 'object',
    required: ['value'],
    properties: { value: { type: 'string' }, mappings: { type: 'array', items: { $ref: '#/components/schemas/Mapping' } }, first: { $ref: '#/components/schemas/Mapping' } },
  },
};
const contract = compileContract({ openapi: '3.1.0', info: { title: 'Samples', version: '1' }, paths: {}, components: { schemas } }, 'samples.yaml');
const { document } = contract;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** Expects the component's validator to take `value` (its errors in the message where it does not). */
function expectValid(name: string, value: unknown): void {
  const validate = contract.componentValidator(name);
  expect(validate(value), `${name} ${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`).toBe(true);
}

function valueOf(name: string, options: Omit<SampleOptions, 'document'> = {}): unknown {
  const made = sample(ref(name), { document, ...options });
  expect(made, name).toBeDefined();
  return made?.value;
}

describe('the sampler', () => {
  it('writes a type list as its first type other than null, cut to maxLength', () => {
    expect(valueOf('Nullable')).toBe('strin');
  });

  it('writes prefixItems in order, each within its own schema', () => {
    expect(valueOf('Pair')).toEqual([3, 'x']);
    expectValid('Pair', valueOf('Pair'));
  });

  it('keeps numbers inside exclusive bounds and on their multipleOf', () => {
    const value = valueOf('Bounds');
    expect(value).toEqual({ a: 8, b: 0.5, c: 0.02, d: -3 });
    expectValid('Bounds', value);
  });

  it("writes a value of each format that the spec's validator takes", () => {
    expectValid('Formats', valueOf('Formats'));
  });

  it('writes a string matching a pattern where it is given one, and none it cannot match otherwise', () => {
    const patterns = new PatternStrings();
    expect(valueOf('Code', { patternString: (keywords) => patterns.stringFor(keywords) })).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
    expect(contract.componentValidator('Code')(valueOf('Code'))).toBe(false);
  });

  it('cuts a string whose pattern no string is found for: an optional member left out, an array left empty, a required one fails', () => {
    const patterns = new PatternStrings();
    const options = { patternString: (keywords: Parameters<PatternStrings['stringFor']>[0]) => patterns.stringFor(keywords) };
    const value = valueOf('Text', options);
    expect(value).toEqual({ value: 'string', mappings: [] });
    expectValid('Text', value);
    expect(sample(ref('Mapping'), { document, ...options })).toBeUndefined();
    // A pattern no string is made for (randexp reads no \p{…}) that the plain string matches keeps it.
    expect(sample({ type: 'string', pattern: '^\\p{L}+$' }, { document, ...options })).toEqual({ value: 'string' });
  });

  it('writes the first branch of a discriminated union with the value that selects it, its allOf parts merged', () => {
    const value = valueOf('Pet');
    expect(value).toEqual({ kind: 'cat', name: 'stringst', lives: 0 });
    expectValid('Pet', value);
  });

  it('cuts a recursion where the schema allows it, and gives nothing where it does not', () => {
    expect(valueOf('Node')).toEqual({ value: 0, children: [] });
    expect(sample(ref('Endless'), { document })).toBeUndefined();
    expect(leastSample(ref('Endless'), document)).toBeNull();
  });

  it('leaves out a part whose value would pass MAX_CHARACTERS, and fails a required one', () => {
    expect(valueOf('Huge')).toEqual({ name: 'string' });
    expect(sample({ type: 'array', minItems: MAX_CHARACTERS, items: { type: 'integer' } }, { document })).toBeUndefined();
  });

  it('leaves writeOnly properties out of a response (a required one stays) and readOnly ones out of a request', () => {
    expect(valueOf('Account')).toEqual({ id: 0, password: 'string', active: true, tags: ['string'] });
    expect(valueOf('Account', { direction: 'request' })).toEqual({ password: 'string', note: 'string', active: true, tags: ['string'] });
  });

  it('writes only the required parts, false for a boolean, when asked for the least value', () => {
    expect(leastSample(ref('Account'), document)).toEqual({ id: 0, password: 'string', active: false });
    expect(leastSample(ref('Pet'), document)).toEqual({ kind: 'cat' });
  });

  it("answers the schema's example first, and without it the schema's own value", () => {
    expect([...samples(ref('Hinted'), { document })]).toEqual(['too long', 'str']);
  });
});
