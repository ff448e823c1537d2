/**
 * The generated cases, checked without a network: for any seed every case says what the spec's
 * own validator says (none dropped for the bundled spec), the domain walk reaches what issue 12
 * lists (10 000+ characters, every plane, escapes, controls, number-looking strings, int64 ends
 * written several ways, JSON syntax, auth forms), ids are fresh, and a seed reproduces the shapes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { exactInteger, parseExactJson } from '../../openapi/schema/exact-json.js';
import { generateCases, type GeneratedCase } from '../generated.js';
import { validLiterals } from '../generators/schema-values.js';
import { STRING_DOMAIN } from '../generators/strings.js';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { SPEC_PATH } from '../../openapi/plant-store.js';
import { compileSuiteContract, loadSuiteContract } from '../spec-contract.js';
import { createSpecAjv } from '../../openapi/schema/ajv.js';

const contract = loadSuiteContract();
const generate = (seed: number, count = 25) => generateCases({ contract, seed, positive: count, negative: count, ids: createIdSource(), token: 'tok-en_123', invalidToken: 'never-issued' });
const text = (c: GeneratedCase): string => (typeof c.body === 'string' ? c.body : Buffer.from(c.body ?? []).toString('latin1'));
const idOf = (c: GeneratedCase): string | undefined => /"id":(-?[0-9][0-9.eE+-]*)/.exec(text(c))?.[1];

describe('generated cases', () => {
  it('agree with the spec for any seed: nothing contradicted, nothing excluded, a bounded count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const { cases, excluded } = generate(seed, 40);
        expect(excluded.map((e) => `${e.case.family}-${e.case.label}: ${e.reason}`)).toEqual([]);
        expect(cases.length).toBeGreaterThan(250);
        expect(cases.length).toBeLessThan(500);
      }),
      { numRuns: 15 },
    );
  });

  it('name every case uniquely, and never send one fresh id twice in a run', () => {
    const { cases } = generate(7);
    expect(new Set(cases.map((c) => `${c.family}-${c.label}`)).size).toBe(cases.length);
    const fresh = cases.filter((c) => (c.expect === 'accepted' || c.expect === 'unauthenticated') && !c.fixedId && c.phase !== 'probe').map(idValue);
    expect(new Set(fresh).size).toBe(fresh.length);
  });

  it('draw fresh ids on every run with the same seed, and reproduce everything else', () => {
    const first = generate(123);
    const second = generate(123);
    const shape = (g: typeof first) => g.cases.map((c) => [c.family, c.label, c.expect, c.fixedId === true, JSON.stringify(c.plant && { ...c.plant, id: undefined })]);
    expect(shape(first)).toEqual(shape(second));
    expect(shape(generate(124))).not.toEqual(shape(first));
    const ids = (g: typeof first) => g.cases.filter((c) => c.expect === 'accepted' && !c.fixedId).map(idValue);
    const again = new Set(ids(second));
    expect(ids(first).filter((id) => again.has(id))).toEqual([]);
  });

  it('walk the string domain for every string property: up to 65 536 characters, every plane, escapes, controls, look-alikes', () => {
    const { cases } = generate(99);
    for (const property of ['name', 'tag']) {
      const strings = cases.filter((c) => c.family === 'string' && c.label.startsWith(`${property}-`));
      expect(strings.map((c) => c.label.slice(property.length + 1))).toEqual(STRING_DOMAIN.map((s) => s.label));
      const values = strings.map((c) => c.plant?.[property] as string);
      expect(Math.max(...values.map((v) => [...v].length))).toBeGreaterThanOrEqual(10_000);
      expect(values).toContain('');
      expect(values).toEqual(expect.arrayContaining(['123', '1e5', '-0', '0x1F', 'true', 'null', ' ', '\u0000']));
      const planes = new Set(values.flatMap((v) => [...v].map((c) => (c.codePointAt(0) ?? 0) >> 16)));
      expect([...planes].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 14, 15, 16]);
      const all = values.join('');
      for (const c of ['\u0001', '\u001f', '\u007f', '\u0085', '\u009f', '\u0301', '\u202e', '\u200d', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t']) expect(all).toContain(c);
      expect(values).toEqual(expect.arrayContaining(['<script>alert(1)</script><b>&amp;</b>', "'; DROP TABLE plants; --", '../../etc/passwd']));
    }
    // Escape forms reach the wire as written.
    const escapes = cases.find((c) => c.label === 'name-escape-short-forms');
    expect(text(escapes as GeneratedCase)).toContain('"\\"\\\\\\/\\b\\f\\n\\r\\t"');
  });

  it('write every domain sample so that it parses back to itself', () => {
    for (const sample of STRING_DOMAIN) expect(JSON.parse(sample.literal ?? JSON.stringify(sample.value))).toBe(sample.value);
  });

  it('put the int64 ends and one past them on the wire several ways, and -0, 1.0 and 1e3 forms', () => {
    const identity = new Map(
      generate(5)
        .cases.filter((c) => c.family === 'identity')
        .map((c) => [c.label, { id: idOf(c), expect: c.expect, fixed: c.fixedId === true }]),
    );
    expect(identity.get('maximum')).toEqual({ id: '9223372036854775807', expect: 'accepted', fixed: true });
    expect(identity.get('maximum-exponent')).toEqual({ id: '9.223372036854775807e18', expect: 'accepted', fixed: true });
    expect(identity.get('minimum')).toEqual({ id: '-9223372036854775808', expect: 'accepted', fixed: true });
    expect(identity.get('above-maximum')).toMatchObject({ id: '9223372036854775808', expect: 'rejected-body' });
    expect(identity.get('above-maximum-exponent')).toMatchObject({ id: '9.223372036854775808e18', expect: 'rejected-body' });
    expect(identity.get('below-minimum')).toMatchObject({ id: '-9223372036854775809', expect: 'rejected-body' });
    expect(identity.get('minus-zero')).toEqual({ id: '-0', expect: 'accepted', fixed: true });
    expect(identity.get('zero-fraction')?.id).toMatch(/^\d+\.0$/);
    expect(identity.get('thousands-e3')?.id).toMatch(/^\d+e3$/);
    expect(identity.get('exponent-upper-plus')?.id).toMatch(/E\+\d+$/);
    for (const label of ['fraction', 'huge', 'minus-huge', 'tiny-fraction', 'long-fraction', 'ten-e19']) expect(identity.get(label)?.expect).toBe('rejected-body');
    expect(identity.get('huge')?.id).toBe('1e400');
  });

  it("cover JSON syntax (RFC 8259): not-JSON texts refused, legal oddities accepted, the parser's choices only reported", () => {
    const syntax = generate(3).cases.filter((c) => c.family === 'syntax');
    const refused = syntax.filter((c) => c.expect === 'rejected-body');
    // Bytes that are not UTF-8 are refused as not JSON text; the rest do not parse at all.
    for (const c of refused.filter((c) => c.label !== 'deep-nesting' && typeof c.body === 'string')) expect(() => JSON.parse(text(c)), c.label).toThrow();
    expect(
      refused
        .filter((c) => typeof c.body !== 'string')
        .map((c) => c.label)
        .sort(),
    ).toEqual(['invalid-utf8', 'overlong-utf8', 'utf8-encoded-surrogate']);
    expect(refused.map((c) => c.label)).toEqual(
      expect.arrayContaining([
        'trailing-garbage',
        'two-bodies',
        'trailing-comma-member',
        'comment-block',
        'comment-line',
        'single-quoted-keys',
        'unquoted-keys',
        'id-nan',
        'id-infinity',
        'id-leading-zero',
        'string-unterminated',
        'string-raw-control',
        'escape-x',
        'extra-nan',
        'extra-trailing-comma-array',
      ]),
    );
    for (const c of syntax.filter((c) => c.expect === 'accepted')) expect(() => JSON.parse(text(c))).not.toThrow();
    const choices = syntax.filter((c) => c.expect === 'provider-choice');
    expect(choices.map((c) => c.label).sort()).toEqual(['deep-nesting', 'duplicate-id', 'duplicate-name', 'huge-number', 'leading-bom', 'lone-surrogate-escape', 'long-number']);
    expect(choices.every((c) => c.choice?.check === 'negative_data_rejection' && /RFC/.test(c.choice.rule))).toBe(true);
    expect(Buffer.from(refused.find((c) => c.label === 'invalid-utf8')?.body as Uint8Array).includes(Buffer.from([0xc3, 0x28]))).toBe(true);
  });

  it('send the bearer scheme in every letter case and with several spaces, and near-miss tokens', () => {
    const auth = new Map(
      generate(11)
        .cases.filter((c) => c.family === 'auth')
        .map((c) => [c.label, c]),
    );
    const header = (label: string) => auth.get(label)?.credentials?.headers.authorization;
    expect(header('scheme-lower-case')).toBe('bearer tok-en_123');
    expect(header('scheme-upper-case')).toBe('BEARER tok-en_123');
    expect(header('two-spaces')).toBe('Bearer  tok-en_123');
    expect(header('token-other-case')).toBe('Bearer TOK-EN_123');
    expect(header('two-headers-valid-first')).toEqual(['Bearer tok-en_123', 'Bearer never-issued']);
    for (const label of ['scheme-lower-case', 'scheme-upper-case', 'scheme-mixed-case', 'two-spaces', 'five-spaces']) expect(auth.get(label)?.expect).toBe('accepted');
    for (const label of ['empty-token-with-space', 'token-other-case', 'token-with-suffix', 'token-prefix', 'basic-with-token', 'token-as-scheme'])
      expect(auth.get(label)?.expect).toBe('unauthenticated');
    for (const label of ['tab-separator', 'two-headers-valid-first', 'two-headers-valid-second']) expect(auth.get(label)?.choice?.check).toBe('ignored_auth');
  });
});

/** The exact id a valid body carries. */
function idValue(c: GeneratedCase): bigint {
  const value = parseExactJson(text(c)) as object;
  const id = exactInteger(value, 'id');
  if (id === undefined) throw new Error(`${c.label} has no integer id`);
  return id;
}

describe('numbers with exclusive bounds and multipleOf', () => {
  const SCHEMAS: Record<string, Record<string, unknown>> = {
    price: { type: 'number', exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.01 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    halves: { type: 'number', minimum: -5.5, multipleOf: 0.5 },
    crate: { type: 'integer', minimum: 3, maximum: 99, multipleOf: 5 },
    floor: { type: 'integer', exclusiveMinimum: 10, exclusiveMaximum: 20 },
    big: { type: 'integer', format: 'int64', minimum: 9007199254740994, multipleOf: 4 },
  };
  const contract = (() => {
    const doc = parseYaml(readFileSync(SPEC_PATH, 'utf8')) as Record<string, any>;
    Object.assign(doc.components.schemas.Plant.properties, SCHEMAS);
    return compileSuiteContract(doc, 'variant: numbers');
  })();

  it('generate only literals the spec agrees with, for any seed: valid ones inside the bounds and on the step', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const { excluded } = generateCases({ contract, seed, positive: 30, negative: 10, ids: createIdSource(), token: 'tok', invalidToken: 'never-issued' });
        expect(excluded.map((e) => `${e.case.family}-${e.case.label}: ${e.reason}`)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });

  it('put both sides of each exclusive bound and of multipleOf on the wire', () => {
    const cases = new Map(generateCases({ contract, seed: 1, positive: 0, negative: 0, ids: createIdSource(), token: 'tok', invalidToken: 'never-issued' }).cases.map((c) => [c.label, c]));
    const value = (label: string, name: string) => ({
      expect: cases.get(label)?.expect,
      value: /"(\w+)":(-?[0-9.e+-]+)/.exec(text(cases.get(label) as GeneratedCase).slice(text(cases.get(label) as GeneratedCase).indexOf(`"${name}"`)))?.[2],
    });
    expect(value('price-exclusive-minimum', 'price')).toEqual({ expect: 'rejected-body', value: '0' });
    expect(cases.get('price-above-exclusive-minimum')?.expect).toBe('accepted');
    expect(cases.get('price-not-multiple-of')?.expect).toBe('rejected-body');
    expect(value('ratio-exclusive-maximum', 'ratio')).toEqual({ expect: 'rejected-body', value: '1' });
    expect(value('crate-minimum', 'crate')).toEqual({ expect: 'accepted', value: '5' });
    expect(value('crate-maximum', 'crate')).toEqual({ expect: 'accepted', value: '95' });
    expect(value('crate-not-multiple-of', 'crate')?.expect).toBe('rejected-body');
    expect(value('floor-minimum', 'floor')).toEqual({ expect: 'accepted', value: '11' });
    expect(value('floor-below-minimum', 'floor')).toEqual({ expect: 'rejected-body', value: '10' });
    expect(value('big-minimum', 'big')).toEqual({ expect: 'accepted', value: '9007199254740996' });
  });
});

describe('an identity whose range lies past 2^53', () => {
  const withIdRange = (range: Record<string, number>) => {
    const doc = parseYaml(readFileSync(SPEC_PATH, 'utf8')) as Record<string, any>;
    Object.assign(doc.components.schemas.NewPlant.allOf[1].properties.id, range);
    return compileSuiteContract(doc, 'variant: id range');
  };

  it.each([
    ['a minimum of 2^60', { minimum: 2 ** 60 }, 2n ** 60n, undefined],
    ['2^60 to 2^60 + 4096', { minimum: 2 ** 60, maximum: 2 ** 60 + 4096 }, 2n ** 60n, 2n ** 60n + 4096n],
    ['-2^62 to -2^60', { minimum: -(2 ** 62), maximum: -(2 ** 60) }, -(2n ** 62n), -(2n ** 60n)],
    ['the single id 2^53 + 2', { minimum: 2 ** 53 + 2, maximum: 2 ** 53 + 2 }, 2n ** 53n + 2n, 2n ** 53n + 2n],
  ])('%s: ids drawn in range with BigInt, ends told apart as the validator sees them, nothing contradicted', (_name, range, min, max) => {
    const contract = withIdRange(range);
    const { cases, excluded } = generateCases({ contract, seed: 3, positive: 10, negative: 10, ids: createIdSource(), token: 'tok', invalidToken: 'never-issued' });
    expect(excluded.map((e) => `${e.case.family}-${e.case.label}: ${e.reason}`)).toEqual([]);
    for (const c of cases.filter((c) => c.expect === 'accepted' && c.plant)) {
      const id = idValue(c);
      expect(id >= min && (max === undefined || id <= max), `${c.label}: ${id}`).toBe(true);
    }
    const identity = new Map(cases.filter((c) => c.family === 'identity').map((c) => [c.label, c]));
    expect(idOf(identity.get('minimum') as GeneratedCase)).toBe(String(min));
    expect(identity.get('below-minimum')?.expect).toBe('rejected-body');
    if (max !== undefined) expect(identity.get('above-maximum')?.expect).toBe('rejected-body');
  });
});

describe('the values of one property', () => {
  const doc = parseYaml(readFileSync(SPEC_PATH, 'utf8')) as Record<string, any>;
  Object.assign(doc.components.schemas.Plant.properties, {
    price: { type: 'number', exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.01 },
    crate: { type: 'integer', minimum: 5, maximum: 95, multipleOf: 5 },
    flag: { type: ['integer', 'null'] },
  });
  const contract = compileSuiteContract(doc, 'variant: values');

  it('are each sent once: two constraints landing on one value make one case, and no wrong type repeats the fraction case', () => {
    const { cases } = generateCases({ contract, seed: 9, positive: 0, negative: 0, ids: createIdSource(), token: 'tok', invalidToken: 'never-issued' });
    for (const property of ['name', 'tag', 'price', 'crate', 'flag']) {
      // Bodies differ only in the property's literal and the fresh id.
      const bodies = cases.filter((c) => c.family === 'value' && c.label.startsWith(`${property}-`)).map((c) => text(c).replace(/"id":[^,}]+/, '"id":0'));
      expect(new Set(bodies).size, bodies.join('\n')).toBe(bodies.length);
    }
    expect(cases.map((c) => c.label)).not.toContain('flag-type-fraction');
    expect(cases.map((c) => c.label)).toContain('flag-fraction');
  });

  it('of an int64 with multipleOf are drawn over the whole int64 range, in BigInt, every one a multiple', () => {
    const drawn = fc.sample(validLiterals({ type: 'integer', format: 'int64', multipleOf: 4 }), { seed: 1, numRuns: 200 }).map((l) => BigInt(l));
    for (const n of drawn) {
      expect(n % 4n, String(n)).toBe(0n);
      expect(n >= -(2n ** 63n) && n <= 2n ** 63n - 1n, String(n)).toBe(true);
    }
    expect(drawn.some((n) => n > 2n ** 53n || n < -(2n ** 53n))).toBe(true);
  });

  it('of a map (no properties, its values in additionalProperties) hold entries, as many as minProperties asks, so a map dropped shows', () => {
    const values = { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] };
    for (const [schema, entries] of [
      [{ type: 'object', additionalProperties: values }, 1],
      [{ type: 'object', additionalProperties: { type: 'integer' }, minProperties: 2 }, 2],
    ] as const) {
      for (const literal of fc.sample(validLiterals(schema), { seed: 3, numRuns: 20 })) {
        const map = JSON.parse(literal) as Record<string, unknown>;
        expect(Object.keys(map), literal).toHaveLength(entries);
      }
    }
    // Names the schema constrains, or an object that declares properties: no invented names.
    expect(fc.sample(validLiterals({ type: 'object', additionalProperties: { type: 'string' }, propertyNames: { pattern: '^x-' } }), { seed: 3, numRuns: 5 })).toEqual(Array(5).fill('{}'));
    expect(fc.sample(validLiterals({ type: 'object', properties: { a: { const: 1 } }, required: ['a'], additionalProperties: { type: 'string' } }), { seed: 3, numRuns: 5 })).toEqual(
      Array(5).fill('{"a":1}'),
    );
  });
});

describe('URLs drawn for format uri and url', () => {
  it('are absolute http(s) URLs the spec validator accepts, with paths, queries, fragments and percent-encoding among them', () => {
    const ajv = createSpecAjv();
    for (const format of ['uri', 'url']) {
      const valid = ajv.compile({ type: 'string', format });
      const drawn = fc.sample(validLiterals({ type: 'string', format }), { seed: 5, numRuns: 500 }).map((literal) => JSON.parse(literal) as string);
      for (const url of drawn) expect(new URL(url).protocol, url).toMatch(/^https?:$/);
      // ajv-formats' url refuses a domain label with `--`, which fast-check's domains may hold.
      expect(drawn.filter((url) => !valid(url) && !(format === 'url' && /--/.test(new URL(url).hostname)))).toEqual([]);
      for (const part of [/:\/\/[^/]+\/[^?#]+/, /\?[^#]+=/, /#/, /%[0-9A-F]{2}/])
        expect(
          drawn.some((url) => part.test(url)),
          `${format} ${part}`,
        ).toBe(true);
    }
  });
});

describe('property names that make two case names alike', () => {
  it('number the later case (stock below-minimum and stock-below minimum), never a crash', () => {
    const doc = parseYaml(readFileSync(SPEC_PATH, 'utf8')) as Record<string, any>;
    Object.assign(doc.components.schemas.Plant.properties, { stock: { type: 'integer', minimum: 0 }, 'stock-below': { type: 'integer', minimum: 0 } });
    const { cases } = generateCases({ contract: compileSuiteContract(doc, 'variant: alike'), seed: 2, positive: 0, negative: 0, ids: createIdSource(), token: 'tok', invalidToken: 'never-issued' });
    const labels = cases.map((c) => `${c.family}-${c.label}`);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toEqual(expect.arrayContaining(['value-stock-below-minimum', 'value-stock-below-minimum~2']));
  });
});

describe('an empty string identity', () => {
  /** Codes keyed by a string the client sends, with an item path `/codes/{code}` or without one. */
  const codes = (itemPath: boolean) => ({
    openapi: '3.1.0',
    info: { title: 'Codes', version: '1' },
    paths: {
      '/codes': {
        post: {
          operationId: 'createCode',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['code'], properties: { code: { type: 'string' }, label: { type: 'string' } } } } } },
          responses: { '201': { description: 'created' } },
        },
      },
      ...(itemPath
        ? { '/codes/{code}': { get: { operationId: 'getCode', parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } } }
        : {}),
    },
  });
  const emptyCase = (itemPath: boolean, property: string) =>
    generateCases({ contract: compileSuiteContract(codes(itemPath), 'codes.json', 'createCode'), seed: 5, positive: 5, negative: 5, ids: createIdSource(), token: 't', invalidToken: 'x' }).cases.find(
      (c) => c.family === 'string' && c.label === `${property}-empty`,
    );

  it('is the provider’s choice where it names the record in the item path (an empty one names none there)', () => {
    expect(emptyCase(true, 'code')).toMatchObject({ expect: 'provider-choice', choice: { check: 'positive_data_acceptance' } });
    // Any other string property empty must still be accepted.
    expect(emptyCase(true, 'label')?.expect).toBe('accepted');
  });

  it('must be accepted where no path names the record', () => {
    expect(emptyCase(false, 'code')?.expect).toBe('accepted');
  });
});
