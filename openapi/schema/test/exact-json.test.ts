/** Exact JSON: int64 decisions and ids are taken on a literal's real digits, never on a rounded double. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSpecAjv } from '../ajv.js';
import { loadContract } from '../../operations/compile.js';
import {
  DuplicateMemberName,
  exactInteger,
  exactPlanOf,
  exactPlanOfArray,
  integerOfLiteral,
  isInt64,
  JsonTooDeep,
  literalBehindStandIn,
  MAX_JSON_DEPTH,
  parseExactJson,
  READ_EVERY_NUMBER,
} from '../exact-json.js';

const int64 = createSpecAjv().compile({ type: 'integer', format: 'int64' });
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Integers concentrated around the places where doubles lose digits. */
const interestingIntegers = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.bigInt({ min: INT64_MAX - 5000n, max: INT64_MAX + 5000n }),
  fc.bigInt({ min: INT64_MIN - 5000n, max: INT64_MIN + 5000n }),
  fc.bigInt({ min: 2n ** 53n - 10n, max: 2n ** 53n + 10n }),
);

describe('parseExactJson', () => {
  it('judges int64 on the exact value and reads the id back exactly', () => {
    fc.assert(
      fc.property(interestingIntegers, (n) => {
        const value = parseExactJson(`{"id":${n}}`) as { id: number };
        expect(int64(value.id)).toBe(isInt64(n));
        expect(exactInteger(value, 'id')).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse on everything that is not a number', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const exact = parseExactJson(text);
        const plain = JSON.parse(text);
        expect(JSON.stringify(exact, (_k, v) => (typeof v === 'number' ? 0 : v))).toBe(JSON.stringify(plain, (_k, v) => (typeof v === 'number' ? 0 : v)));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the last of duplicate keys on both paths, as JSON.parse does', () => {
    expect(parseExactJson('{"id":1,"id":2}')).toEqual({ id: 2 });
    const slow = parseExactJson('{"id":1.5,"id":9223372036854775807}') as object;
    expect(exactInteger(slow, 'id')).toBe(INT64_MAX);
  });

  it('refuses a repeated member name when asked, naming the first repeat by its pointer, on both paths', () => {
    // Documents as entry lists, so that names may repeat; the oracle walks them in text order.
    // Names and strings holding ':' (each member of the text is counted by its ':' outside strings), names a parse puts first ('0', '10') and '__proto__'.
    type Doc = number | string | Doc[] | { entries: [string, Doc][] };
    const { doc } = fc.letrec<{ doc: Doc }>((tie) => ({
      doc: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(1, 2 ** 63, 'x:y', ':'), // 2 ** 63: the double nearest int64's maximum
        fc.array(tie('doc'), { maxLength: 3 }),
        fc.record({ entries: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'a/b', '~', 'id', 'a:b', '0', '10', '__proto__'), tie('doc')), { maxLength: 20 }) }),
      ),
    }));
    const text = (d: Doc): string =>
      typeof d === 'string'
        ? JSON.stringify(d)
        : typeof d === 'number'
          ? d > 2 ** 53
            ? '9223372036854775807'
            : String(d)
          : Array.isArray(d)
            ? `[${d.map(text).join(',')}]`
            : `{${d.entries.map(([name, value]) => `${JSON.stringify(name)}:${text(value)}`).join(',')}}`;
    const escape = (name: string | number) => String(name).replace(/~/g, '~0').replace(/\//g, '~1');
    const firstRepeat = (d: Doc, at: string): string | undefined => {
      if (typeof d !== 'object') return undefined;
      if (Array.isArray(d)) {
        for (const [i, item] of d.entries()) {
          const found = firstRepeat(item, `${at}/${i}`);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      const seen = new Set<string>();
      for (const [name, value] of d.entries) {
        if (seen.has(name)) return `${at}/${escape(name)}`;
        seen.add(name);
        const found = firstRepeat(value, `${at}/${escape(name)}`);
        if (found !== undefined) return found;
      }
      return undefined;
    };
    const plans = [undefined, READ_EVERY_NUMBER];
    fc.assert(
      fc.property(doc, fc.constantFrom(...plans), (d, plan) => {
        const expected = firstRepeat(d, '');
        const parse = () => parseExactJson(text(d), plan, { refuseDuplicateNames: true });
        if (expected === undefined) expect(parse).not.toThrow();
        else {
          expect(parse).toThrow(DuplicateMemberName);
          try {
            parse();
          } catch (error) {
            expect((error as DuplicateMemberName).pointer).toBe(expected);
          }
        }
        expect(() => parseExactJson(text(d), plan)).not.toThrow(); // by default the last one wins
      }),
      { numRuns: 2000 },
    );
    expect(() => parseExactJson('{"i\\u0064":1,"id":2}', undefined, { refuseDuplicateNames: true })).toThrow(/"id".*\/id/);
  });

  it('throws a SyntaxError with a position on malformed text, on both paths', () => {
    expect(() => parseExactJson('{"id":1,')).toThrow(SyntaxError);
    expect(() => parseExactJson('{"id":1.5,')).toThrow(SyntaxError);
    expect(() => parseExactJson('{"id":1.5,')).toThrow(/position|JSON/);
  });

  it('accepts exactly what JSON.parse accepts, whatever the plan', () => {
    // Near-JSON: valid documents with one character dropped, doubled or replaced, and JSON-ish noise.
    const mutated = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', 'x', ',', '"', '1e', '.', '-', '}', ']', '{', '[', ':', '\\', '\u0001')).map(([text, at, insert]) => {
      const i = at % (text.length + 1);
      return at % 3 === 0 ? text.slice(0, i) + insert + text.slice(i + 1) : text.slice(0, i) + insert + text.slice(i);
    });
    const noise = fc.string({ unit: fc.constantFrom(...'{}[]",:0123456789eE.-+ \ntfalsenu'.split('')), maxLength: 30 });
    const plans = [READ_EVERY_NUMBER, exactPlanOf({ type: 'object', properties: { id: { type: 'integer' } } }), { exact: true }];
    fc.assert(
      fc.property(fc.oneof(mutated, noise), fc.constantFrom(...plans), (text, plan) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        if (valid) expect(() => parseExactJson(text, plan)).not.toThrow();
        else expect(() => parseExactJson(text, plan)).toThrow(SyntaxError);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps __proto__ an own property, as JSON.parse does, and pollutes nothing', () => {
    const value = parseExactJson('{"__proto__":{"polluted":1e0},"id":1e0}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'id']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A later "a" replaced the one holding __proto__: its own members only are read, never Object.prototype's.
    const replaced = parseExactJson('{"a":{"__proto__":{"polluted":9223372036854775807}},"a":{}}') as Record<string, unknown>;
    expect(replaced).toEqual({ a: {} });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('forgets what an earlier duplicate key left behind', () => {
    const fraction = parseExactJson('{"id":1.0000000000000001,"id":5}') as object;
    expect(fraction).toEqual({ id: 5 });
    expect(literalBehindStandIn(fraction, 'id')).toBeUndefined();
    const typed = parseExactJson('{"id":9223372036854775807,"id":"x"}') as object;
    expect(typed).toEqual({ id: 'x' });
    expect(exactInteger(typed, 'id')).toBeUndefined();
    const nestedTwice = parseExactJson('{"a":{"id":9223372036854775807},"a":{"id":1}}') as { a: object };
    expect(exactInteger(nestedTwice.a, 'id')).toBe(1n);
  });

  it(`refuses nesting past ${MAX_JSON_DEPTH} levels on both paths, without using the call stack`, () => {
    const nested = (depth: number, inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
    for (const inner of ['1', '1e0', '9223372036854775807']) {
      expect(() => parseExactJson(nested(500_000, inner))).toThrow(JsonTooDeep);
      expect(parseExactJson(nested(MAX_JSON_DEPTH, inner))).toBeInstanceOf(Array);
    }
  });
});

describe('exact plans from the spec', () => {
  const { document } = loadContract();
  const component = (name: string) => exactPlanOf({ $ref: `#/components/schemas/${name}` }, document);
  const newPlantPlan = component('NewPlant');

  it('reads exactly only the integer fields of a NewPlant (its id)', () => {
    expect(newPlantPlan?.exact).toBe(false);
    expect([...(newPlantPlan?.properties?.keys() ?? [])]).toEqual(['id']);
    expect(newPlantPlan?.properties?.get('id')?.exact).toBe(true);
    expect(newPlantPlan?.rest).toBeUndefined();
    expect(component('Plant')).toBeUndefined();
  });

  it('reads an unknown field as JSON.parse does, and the id on its digits', () => {
    const value = parseExactJson('{"extra":[1.0000000000000001,{"id":9223372036854775807}],"id":9223372036854775807,"name":"x"}', newPlantPlan) as {
      extra: [number, { id: number }];
    };
    expect(value.extra[0]).toBe(1);
    expect(exactInteger(value.extra[1], 'id')).toBe(2n ** 63n); // rounded: JSON.parse read it
    expect(exactInteger(value, 'id')).toBe(INT64_MAX);
    const fraction = parseExactJson('{"id":1.0000000000000001,"name":"x"}', newPlantPlan) as object;
    expect(literalBehindStandIn(fraction, 'id')).toBe('1.0000000000000001');
  });

  it('judges int64 on the exact value through the plan, for a NewPlant and an array of them', () => {
    const seedPlan = exactPlanOfArray(newPlantPlan);
    fc.assert(
      fc.property(interestingIntegers, (n) => {
        const plant = parseExactJson(`{"name":"x","id":${n},"n":1e0}`, newPlantPlan) as { id: number };
        expect(int64(plant.id)).toBe(isInt64(n));
        expect(exactInteger(plant, 'id')).toBe(n);
        const [seeded] = parseExactJson(`[{"id":${n},"name":"x"}]`, seedPlan) as [{ id: number }];
        expect(exactInteger(seeded, 'id')).toBe(n);
      }),
      { numRuns: 500 },
    );
  });

  it('follows arrays, additional properties, combinators, and reads everything under an unresolved $ref', () => {
    const plan = exactPlanOf({
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'integer' } }, name: { type: 'string' } },
      additionalProperties: { oneOf: [{ type: 'string' }, { type: ['integer', 'null'] }] },
      allOf: [{ properties: { ref: { $ref: '#/components/schemas/Elsewhere' } } }],
    });
    expect(plan?.properties?.get('list')?.rest?.exact).toBe(true);
    expect(plan?.properties?.get('name')?.exact).toBe(false); // named: additionalProperties does not apply to it
    expect(plan?.rest?.exact).toBe(true);
    expect(plan?.properties?.get('ref')).toBe(READ_EVERY_NUMBER);
    const local = exactPlanOf({ $defs: { Id: { type: 'integer' } }, properties: { id: { $ref: '#/$defs/Id' } } });
    expect(local?.properties?.get('id')?.exact).toBe(true);
    const recursive = exactPlanOf({ $defs: { Node: { properties: { n: { type: 'integer' }, next: { $ref: '#/$defs/Node' } } } }, $ref: '#/$defs/Node' });
    expect(recursive?.properties?.get('n')?.exact).toBe(true);
    expect(recursive?.properties?.get('next')).toBe(READ_EVERY_NUMBER); // the cycle: read everything below it
    const wide = { properties: {} as Record<string, unknown> };
    for (let i = 0; i < 40; i++) wide.properties[`p${i}`] = { $ref: '#' }; // 40 self-references: no blow-up
    expect(exactPlanOf(wide)?.properties?.get('p0')).toBe(READ_EVERY_NUMBER);
    expect(exactPlanOf({ type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false })).toBeUndefined();
  });
});

describe('integerOfLiteral', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['1.0', 1n],
    ['1e3', 1000n],
    ['12.50e1', 125n],
    ['1.5', undefined],
    ['1e-1', undefined],
    ['100e-2', 1n],
    ['9223372036854775807.000', INT64_MAX],
  ])('reads %s as %s', (text, expected) => {
    expect(integerOfLiteral(text)).toBe(expected);
  });

  it('does not spend unbounded work on a huge exponent', () => {
    const value = integerOfLiteral('1e100000000') as bigint;
    expect(isInt64(value)).toBe(false);
  });
});
