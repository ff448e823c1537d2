/**
 * Values for one declared property, read from its schema: fast-check arbitraries of valid
 * values, and the cases on both sides of every constraint the schema declares (type, format,
 * required, minLength/maxLength, pattern, enum, minimum/maximum, their exclusive forms,
 * multipleOf). Each value is a JSON literal, so that a number keeps the digits the case wants on
 * the wire.
 *
 * Bounded in size: a spec may declare `maxLength: 2147483647` (common in generated specs) or
 * `minItems: 100000000`, and a case written to the letter would hold gigabytes before it is sent.
 * Length cases past LONGEST_STRING characters are not made; a valid value shares LITERAL_ROOM
 * characters among its parts, and a part the schema requires larger is written empty, so the
 * validator refuses it and the cases built on it are excluded and reported as such.
 */
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN, SAFE_MAX } from '../../fixtures/index.js';
import { conditionsOf, waysToMeet } from '../../openapi/schema/conditions.js';
import { ecmaSubsetOf, linearRegExp } from '../../openapi/schema/patterns.js';
import { isObject } from '../../openapi/schema/resolve.js';
import { mergeSchemas } from '../../openapi/schema/shape.js';
import { typesOf, type JsonSchema } from '../spec-contract.js';
import { codePoint } from './code-points.js';
import { literal } from './json-text.js';
import { ofLength } from './strings.js';

/** A value on one side of one constraint. */
export interface BoundaryValue {
  /** Short, kebab-case: part of the case id. */
  label: string;
  literal: string;
  /** What the constraint says of it; the spec's validator must agree, or the case is dropped. */
  valid: boolean;
  about: string;
  /** A value of another JSON type than the schema's (wrongTypes): under --variant-samples a fixed family, taken in turn. */
  wrongType?: true;
}

/** The longest string a length case is made with (1 Mi characters). */
export const LONGEST_STRING = 1_048_576;
/** The characters (or items) one valid value's parts share at most (256 Ki: every case body repeats them). */
const LITERAL_ROOM = 262_144;

const INT_FORMATS: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [INT64_MIN, INT64_MAX],
};

/** The integer range a schema allows: format ranges narrowed by minimum/maximum; undefined ends are open. */
export function integerBounds(schema: JsonSchema): { min?: bigint; max?: bigint } {
  const format = typeof schema.format === 'string' ? INT_FORMATS[schema.format] : undefined;
  let min = format?.[0];
  let max = format?.[1];
  const bound = (value: unknown, up: boolean, exclusive: boolean): bigint | undefined => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
    const whole = BigInt(up ? Math.ceil(value) : Math.floor(value));
    return exclusive && Number.isInteger(value) ? whole + (up ? 1n : -1n) : whole;
  };
  const lows = [bound(schema.minimum, true, false), bound(schema.exclusiveMinimum, true, true)].filter((v): v is bigint => v !== undefined);
  const highs = [bound(schema.maximum, false, false), bound(schema.exclusiveMaximum, false, true)].filter((v): v is bigint => v !== undefined);
  for (const low of lows) if (min === undefined || low > min) min = low;
  for (const high of highs) if (max === undefined || high < max) max = high;
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

/**
 * The nearest integer outside a range end that the validator tells from it. A format's ends are
 * checked on the exact digits, so one past them is; minimum and maximum are compared as doubles,
 * and past 2^53 one past such a bound may round onto it: then it is the adjacent double, exactly.
 */
export function outsideInteger(schema: JsonSchema, bound: bigint, direction: 1 | -1): bigint {
  const next = bound + BigInt(direction);
  const format = typeof schema.format === 'string' ? INT_FORMATS[schema.format] : undefined;
  if (format?.includes(bound) || Number(next) !== Number(bound)) return next;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Number(bound));
  const bits = view.getBigUint64(0);
  // Past 2^53 the bound is not zero: one step of the bits moves away from zero or towards it.
  view.setBigUint64(0, bound > 0n === direction > 0 ? bits + 1n : bits - 1n);
  return BigInt(view.getFloat64(0));
}

/** "one below the minimum" or, when it is further, the integer and why. */
export function outsideAbout(bound: bigint, outside: bigint, which: string): string {
  const side = outside < bound ? 'below' : 'past';
  const gap = outside - bound;
  return gap === 1n || gap === -1n ? `one ${side} the ${which} (${outside})` : `${outside}, the nearest integer ${side} the ${which} ${bound} that the validator's doubles tell from it`;
}

/** One end of a number range as the schema declares it. */
export interface NumberBound {
  value: number;
  exclusive: boolean;
}

/** The tightest of minimum/exclusiveMinimum and of maximum/exclusiveMaximum; at equal values the exclusive one. */
export function numberBounds(schema: JsonSchema): { low?: NumberBound; high?: NumberBound } {
  const end = (inclusive: unknown, exclusive: unknown, tighter: (a: number, b: number) => boolean): NumberBound | undefined => {
    let best: NumberBound | undefined;
    for (const bound of [
      { value: inclusive, exclusive: false },
      { value: exclusive, exclusive: true },
    ]) {
      if (typeof bound.value !== 'number' || !Number.isFinite(bound.value)) continue;
      if (!best || tighter(bound.value, best.value) || (bound.value === best.value && bound.exclusive)) best = bound as NumberBound;
    }
    return best;
  };
  const low = end(schema.minimum, schema.exclusiveMinimum, (a, b) => a > b);
  const high = end(schema.maximum, schema.exclusiveMaximum, (a, b) => a < b);
  return { ...(low ? { low } : {}), ...(high ? { high } : {}) };
}

/** The schema's multipleOf, when it is a positive number. */
export function multipleOf(schema: JsonSchema): number | undefined {
  const step = schema.multipleOf;
  return typeof step === 'number' && Number.isFinite(step) && step > 0 ? step : undefined;
}

/** Ajv's multipleOf test: the quotient, a double, is whole and written without an exponent (`q === parseInt(q)`). */
function isMultiple(n: number, step: number): boolean {
  const quotient = n / step;
  return Number.isInteger(quotient) && Math.abs(quotient) < 1e21;
}

function inBounds(schema: JsonSchema, n: number): boolean {
  const { low, high } = numberBounds(schema);
  return (!low || (low.exclusive ? n > low.value : n >= low.value)) && (!high || (high.exclusive ? n < high.value : n <= high.value));
}

/** Whether a number (a double: what the validator sees) meets the schema's bounds and multipleOf, and is whole for an integer. */
export function numberFits(schema: JsonSchema, n: number, integer: boolean): boolean {
  const step = multipleOf(schema);
  return Number.isFinite(n) && (!integer || Number.isInteger(n)) && inBounds(schema, n) && (step === undefined || isMultiple(n, step));
}

/** An integer written the scientific way with every digit kept: 9223372036854775807 → 9.223372036854775807e18. */
export function exponentForm(value: bigint, marker = 'e'): string {
  const digits = (value < 0n ? -value : value).toString();
  const sign = value < 0n ? '-' : '';
  return digits.length === 1 ? `${sign}${digits}${marker}0` : `${sign}${digits[0]}.${digits.slice(1)}${marker}${digits.length - 1}`;
}

/**
 * Absolute http(s) URLs as clients send them: fast-check's domains, a port, a path of unreserved,
 * percent-encoded and sub-delimiter characters, a query, a fragment; valid as `uri` and (but for
 * the odd domain with `--`) as ajv-formats' `url`. Not fc.webUrl: its percent-encoded characters
 * map every code point when first built, 1.3-1.6 s of CPU in each process that draws a URL
 * (docs/benchmarks.md, "Figures behind the code").
 */
function webUrls(): fc.Arbitrary<string> {
  const unreserved = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~');
  const character = fc.oneof(
    { weight: 8, arbitrary: unreserved },
    { weight: 1, arbitrary: fc.constantFrom('%20', '%2F', '%25', '%C3%A9', '%E2%82%AC', '%F0%9F%8C%B1') },
    { weight: 1, arbitrary: fc.constantFrom(..."!$&'()*+,;=:@") },
  );
  const segment = fc.string({ unit: character, maxLength: 10 });
  const pair = fc.tuple(fc.string({ unit: unreserved, minLength: 1, maxLength: 8 }), fc.string({ unit: character, maxLength: 8 }));
  const query = fc.array(pair, { minLength: 1, maxLength: 3 }).map((pairs) => `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`);
  return fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.domain(),
      fc.option(
        fc.integer({ min: 10, max: 65535 }).map((port) => `:${port}`),
        { nil: '' },
      ),
      fc.array(segment, { maxLength: 4 }),
      fc.option(query, { nil: '' }),
      fc.option(
        segment.map((fragment) => `#${fragment}`),
        { nil: '' },
      ),
    )
    .map(([scheme, host, port, path, search, hash]) => `${scheme}://${host}${port}/${path.join('/')}${search}${hash}`);
}

/**
 * The arbitraries of the formats fast-check draws. Each is built when first asked for and then kept
 * (an arbitrary is an immutable value): built per draw, webUrl's alone was 5 % of a run on Lago's
 * document, and built at import it was a second of every start.
 */
const FORMAT_BUILDERS: Readonly<Record<string, () => fc.Arbitrary<string>>> = {
  'date-time': () => fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: () => fc.date({ min: new Date(0), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  email: () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  uri: webUrls,
  url: webUrls,
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  hostname: () => fc.domain(),
};
const FORMAT_ARBITRARIES = new Map<string, fc.Arbitrary<string>>();

/** The arbitrary of a format fast-check draws, or undefined for any other format. */
function formatStrings(format: unknown): fc.Arbitrary<string> | undefined {
  if (typeof format !== 'string' || !Object.hasOwn(FORMAT_BUILDERS, format)) return undefined;
  let strings = FORMAT_ARBITRARIES.get(format);
  if (strings === undefined) FORMAT_ARBITRARIES.set(format, (strings = (FORMAT_BUILDERS[format] as () => fc.Arbitrary<string>)()));
  return strings;
}

/**
 * Strings of every plane (no lone surrogates: those are a provider-choice case of their own), of
 * minLength to maxLength code points, as JSON Schema counts them: fast-check counts a grapheme
 * unit, several code points (`𝅘𝅥𝅲` is three), as one.
 */
function anyString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const key = `${minLength}:${maxLength}`;
  const kept = ANY_STRINGS.get(key);
  if (kept !== undefined) return kept;
  const graphemes = (unit: 'grapheme' | 'grapheme-ascii') => fc.string({ unit, minLength, maxLength }).filter((s) => [...s].length <= maxLength);
  const strings = fc.oneof(fc.string({ unit: codePoint(), minLength, maxLength }), graphemes('grapheme'), graphemes('grapheme-ascii'));
  if (ANY_STRINGS.size >= MOST_LENGTHS) ANY_STRINGS.clear();
  ANY_STRINGS.set(key, strings);
  return strings;
}

/**
 * The strings of each pair of lengths, kept as PATTERN_STRINGS keeps a pattern's: building fast-check's
 * string arbitraries per draw was a tenth of a run on openEHR's document. Bounded, as a spec may declare any lengths.
 */
const ANY_STRINGS = new Map<string, fc.Arbitrary<string>>();
const MOST_LENGTHS = 512;

/**
 * How deep a valid value is written where the schema requires it (a required property, a union's
 * branch, an array's minItems): as deep as inlineSchema expands a schema. Past depth 3 only what
 * is required is written, so a random body stays small.
 */
const DEEPEST = 13;

function minItemsOf(schema: JsonSchema): number {
  return typeof schema.minItems === 'number' ? schema.minItems : 0;
}

/**
 * `pattern` as a JavaScript RegExp fast-check can draw strings from, or undefined when none can stand for it:
 * the core's one reading of a pattern that is not ECMA-262 (openapi/schema/patterns.ts, ecmaSubsetOf: RE2's
 * inline flags and named groups, every string drawn one the spec's validator accepts).
 */
export function drawableRegExp(pattern: string): RegExp | undefined {
  const regex = ecmaSubsetOf(pattern);
  if (!regex) return undefined;
  try {
    fc.stringMatching(regex); // throws on what fast-check cannot draw from (a flag, a construct)
    return regex;
  } catch {
    return undefined;
  }
}

/**
 * Strings of a pattern and lengths, each built once: fast-check prepares a string arbitrary when it is
 * built (tens of milliseconds for a pattern, with the probe below), and valid values are drawn for
 * every case and sequence step: rebuilt per draw, they were most of the suite's CPU on PayPal's
 * invoicing document (its patterns on currency codes, dates and ids). Arbitraries are immutable, so
 * a draw is the same from a kept one; bounded, as a spec may declare any number of patterns.
 * `null` is kept for a pattern of which no string was found (see patternStrings).
 */
const PATTERN_STRINGS = new Map<string, fc.Arbitrary<string> | null>();
const MOST_PATTERNS = 512;

/**
 * Strings matching `pattern` (as the spec's validator reads it) within the lengths, or undefined
 * when a probe of 200 draws finds none: a pattern no string matches (openEHR's TermMapping.match,
 * `/^[><=?]$/` written with its slashes, so `^` stands after a character) or none fast-check writes
 * within the lengths. The part is then cut, as the mock's sampler cuts it (openapi/schema/sample.ts):
 * left out where the schema allows. A pattern no JavaScript RegExp can stand for is not probed: strings
 * of its lengths, the cases built on a misfit excluded by the spec's validator.
 */
function patternStrings(pattern: string, minLength: number, maxLength: number): fc.Arbitrary<string> | undefined {
  const key = JSON.stringify([pattern, minLength, maxLength]);
  const kept = PATTERN_STRINGS.get(key);
  if (kept !== undefined) return kept ?? undefined;
  const native = drawableRegExp(pattern);
  const matching = native ? fc.stringMatching(native) : anyString(minLength, Math.min(maxLength, minLength + 40));
  const judged = native ? validatorPattern(pattern) : undefined;
  const fits = (s: string): boolean => [...s].length >= minLength && [...s].length <= maxLength && (judged === undefined || judged.test(s));
  // Filter only where a probe finds fitting strings: a filter nothing passes never ends.
  const probe = fc.sample(matching, { seed: 1, numRuns: 200 });
  const strings = probe.some(fits) ? matching.filter(fits) : native && !probe.some((s) => judged === undefined || judged.test(s)) ? null : matching;
  if (PATTERN_STRINGS.size >= MOST_PATTERNS) PATTERN_STRINGS.clear();
  PATTERN_STRINGS.set(key, strings);
  return strings ?? undefined;
}

/** The pattern as the spec's validator reads it, or undefined when that engine cannot compile it (refused at load). */
function validatorPattern(pattern: string): { test: (text: string) => boolean } | undefined {
  try {
    return linearRegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/**
 * Valid values of a schema, as JSON literals. Length-bounded and capped so that a random body
 * stays small (the long strings are the domain walk's job). Where the schema takes no value this
 * can write (a required part cut, see `writable`), a literal the validator refuses: the cases built
 * on it are excluded, naming the schema.
 */
export function validLiterals(schema: JsonSchema, depth = 0, room = LITERAL_ROOM): fc.Arbitrary<string> {
  return writable(schema, depth, room) ?? fc.constant('null');
}

/**
 * Valid values of a schema as JSON literals, or undefined when none can be written: a string whose
 * pattern no drawn string matches, and what requires one (a required property, an array's
 * minItems, every branch of a union). An optional property that cannot be written is left out, an
 * array without minItems left empty, a union keeps its other branches: the mock's sampler cuts the
 * same parts (openapi/schema/sample.ts).
 */
function writable(schema: JsonSchema, depth: number, room: number): fc.Arbitrary<string> | undefined {
  if ('const' in schema) return fc.constant(literal(schema.const));
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum.map(literal));
  // `if`/`then`/`else`: a value of each way of meeting the conditions, one side of each made true by construction (openapi/schema/conditions.ts).
  const conditional = depth < DEEPEST ? conditionsOf(schema) : undefined;
  if (conditional) {
    const written = waysToMeet(conditional.rest, conditional.conditionals)
      .map((way) => writable(way, depth, room))
      .filter((way) => way !== undefined);
    return written.length ? fc.oneof(...written) : undefined;
  }
  // A union: a value of one branch, with the schema around it (its properties, required names) merged in.
  // Whether it matches exactly one branch (oneOf) is the validator's to say: the cases built on one that does not are excluded.
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (branches?.length && depth < DEEPEST) {
    const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...around } = schema;
    const written = branches.map((branch) => writable(mergeSchemas(around, isObject(branch) ? branch : {}), depth + 1, room)).filter((branch) => branch !== undefined);
    return written.length ? fc.oneof(...written) : undefined;
  }
  const types = typesOf(schema);
  // No type: what the keywords describe (properties: an object; items: an array), else a string.
  const inferred = types.length
    ? types
    : isObject(schema.properties) || Array.isArray(schema.required)
      ? ['object']
      : schema.items !== undefined || schema.prefixItems !== undefined
        ? ['array']
        : ['string'];
  const options: Array<fc.Arbitrary<string>> = [];
  for (const type of inferred) {
    if (type === 'string') {
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      if (minLength > room) {
        options.push(fc.constant('""'));
        continue;
      }
      // minLength above maxLength allows no string: its length is minLength, and the cases built on it are excluded.
      const maxLength = typeof schema.maxLength === 'number' ? Math.max(Math.min(schema.maxLength, room), minLength) : minLength + 40;
      let strings: fc.Arbitrary<string> | undefined;
      if (typeof schema.pattern === 'string') {
        strings = patternStrings(schema.pattern, minLength, maxLength);
      } else {
        strings = formatStrings(schema.format) ?? anyString(minLength, Math.min(maxLength, minLength + 40));
      }
      if (strings) options.push(strings.map((s) => JSON.stringify(s)));
    } else if (type === 'integer' || type === 'number') {
      options.push(numberLiterals(schema, type === 'integer'));
    } else if (type === 'boolean') options.push(fc.boolean().map(String));
    else if (type === 'null') options.push(fc.constant('null'));
    else if (type === 'array' && Array.isArray(schema.prefixItems) && schema.prefixItems.length && (depth < 3 || (minItemsOf(schema) > 0 && depth < DEEPEST))) {
      // 3.1 tuples: one value per prefixItems schema, then (unless `items: false`) up to two more;
      // up to the first prefix item that cannot be written, where minItems allows stopping there.
      const share = Math.floor(room / (schema.prefixItems.length + 2));
      const heads = schema.prefixItems.map((inner) => writable(isObject(inner) ? inner : {}, depth + 1, share));
      const cut = heads.findIndex((head) => head === undefined);
      if (cut !== -1 && cut < minItemsOf(schema)) continue;
      const head = fc.tuple(...(cut === -1 ? heads : heads.slice(0, cut)).filter((item) => item !== undefined));
      const more = cut === -1 && isObject(schema.items) ? writable(schema.items, depth + 1, share) : undefined;
      const rest = more ? fc.array(more, { maxLength: 2 }) : fc.constant<string[]>([]);
      options.push(fc.tuple(head, rest).map(([first, after]) => `[${[...first, ...after].join(',')}]`));
    } else if (type === 'array') {
      const minItems = minItemsOf(schema);
      // Each item takes a character of the room at least (its comma).
      if (minItems > room) {
        options.push(fc.constant('[]'));
        continue;
      }
      // Deep down, only the items a valid array needs (minItems), so a required list far inside a body is still written.
      const deep = depth >= 3;
      const share = Math.max(1, Math.floor(room / (minItems + 3)));
      const items = (!deep || (minItems > 0 && depth < DEEPEST)) && schema.items && typeof schema.items === 'object' ? writable(schema.items as JsonSchema, depth + 1, share) : fc.constant('null');
      // Items that cannot be written: the array is empty, where it may be.
      if (items === undefined && minItems > 0) continue;
      const maxItems = items === undefined ? 0 : deep ? minItems : typeof schema.maxItems === 'number' ? schema.maxItems : minItems + 3;
      options.push(fc.array(items ?? fc.constant('null'), { minLength: minItems, maxLength: Math.min(maxItems, minItems + 3) }).map((values) => `[${values.join(',')}]`));
    } else if (type === 'object') {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
      const entries = Object.entries(properties).filter(([name]) => depth < 3 || required.has(name));
      const share = Math.max(1, Math.floor(room / Math.max(entries.length, 1)));
      const members = entries.map(([name, inner]) => [name, writable(inner, depth + 1, share)] as const);
      // A required member that cannot be written: no object; an optional one is left out.
      if (members.some(([name, member]) => member === undefined && required.has(name))) continue;
      const written = members.filter((entry): entry is readonly [string, fc.Arbitrary<string>] => entry[1] !== undefined);
      const map = entries.length === 0 ? mapEntries(schema, depth, room) : undefined;
      if (map) {
        options.push(map);
        continue;
      }
      options.push(
        fc.record(Object.fromEntries(written), { requiredKeys: written.map(([n]) => n).filter((n) => required.has(n)) }).map(
          (record) =>
            `{${Object.entries(record)
              .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
              .join(',')}}`,
        ),
      );
    }
  }
  if (options.length === 0) return undefined;
  return options.length === 1 ? (options[0] as fc.Arbitrary<string>) : fc.oneof(...options);
}

/**
 * A map's entries (an object declaring no properties, its values' schema in `additionalProperties`:
 * OpenAPI's dictionary): `entry1`, … as many as `minProperties` asks, one at least, so that a provider
 * that drops what it was sent shows it (an empty map echoes as anything empty). Undefined where the
 * names are constrained (`propertyNames`, `patternProperties`), the room allows no entry, or the
 * value cannot be written: the map stays empty, as before.
 */
function mapEntries(schema: JsonSchema, depth: number, room: number): fc.Arbitrary<string> | undefined {
  const values = schema.additionalProperties;
  if (!isObject(values) || depth >= 3 || schema.propertyNames !== undefined || schema.patternProperties !== undefined) return undefined;
  const count = Math.max(1, typeof schema.minProperties === 'number' ? schema.minProperties : 0);
  if (count > 3 || (typeof schema.maxProperties === 'number' && schema.maxProperties < count)) return undefined;
  const value = writable(values, depth + 1, Math.max(1, Math.floor(room / count)));
  if (!value) return undefined;
  return fc.array(value, { minLength: count, maxLength: count }).map((written) => `{${written.map((v, i) => `"entry${i + 1}":${v}`).join(',')}}`);
}

/** A value of the same JSON type as `value` that is not it. */
function otherThan(value: unknown): string | undefined {
  if (typeof value === 'string') return JSON.stringify(value === '' ? 'x' : `${value}-other`);
  if (typeof value === 'number') return JSON.stringify(value + 1);
  if (typeof value === 'boolean') return String(!value);
  if (value === null) return undefined;
  return undefined;
}

/**
 * Valid numbers of a schema as literals. With multipleOf, multiples within ±(2^53 − 1), where the
 * validator's division on doubles is exact. A schema no number satisfies (minimum above maximum)
 * gets its lower end: the cases built on it are dropped and reported, never a crash.
 */
function numberLiterals(schema: JsonSchema, integer: boolean): fc.Arbitrary<string> {
  const step = multipleOf(schema);
  if (integer && step === undefined) {
    const { min = INT64_MIN, max = INT64_MAX } = integerBounds(schema);
    return min <= max ? fc.bigInt({ min, max }).map(String) : fc.constant(String(min));
  }
  if (integer && step !== undefined && Number.isInteger(step)) {
    // Whole steps in BigInt over the exact range (int64 by default); the validator judges the double, so a multiple it rounds off one is replaced.
    const whole = BigInt(step);
    const { min = INT64_MIN, max = INT64_MAX } = integerBounds(schema);
    const first = ceilMultiple(min, whole);
    const last = floorMultiple(max, whole);
    const fitsExactly = (n: bigint): boolean => n >= min && n <= max && numberFits(schema, Number(n), true);
    if (first > last) return fc.constant(String(min));
    const fallback = [first, last].find(fitsExactly) ?? first;
    return fc.bigInt({ min: first / whole, max: last / whole }).map((k) => String(fitsExactly(k * whole) ? k * whole : fallback));
  }
  const fits = (n: number): boolean => numberFits(schema, n, integer);
  let lo: number;
  let hi: number;
  let values: fc.Arbitrary<number>;
  const { low, high } = numberBounds(schema);
  if (integer) {
    const { min, max } = integerBounds(schema);
    lo = Number(min !== undefined && min > -SAFE_MAX ? min : -SAFE_MAX);
    hi = Number(max !== undefined && max < SAFE_MAX ? max : SAFE_MAX);
  } else {
    // An open end lies 10^12 past the other end (or past 0).
    lo = low?.value ?? Math.min(high?.value ?? 0, 0) - 1e12;
    hi = high?.value ?? Math.max(low?.value ?? 0, 0) + 1e12;
  }
  if (step !== undefined) {
    const kLo = Math.max(Math.ceil(lo / step), Number.MIN_SAFE_INTEGER);
    const kHi = Math.min(Math.floor(hi / step), Number.MAX_SAFE_INTEGER);
    values = kLo <= kHi ? fc.integer({ min: kLo, max: kHi }).map((k) => k * step) : fc.constant(lo);
  } else {
    try {
      values = fc.double({ min: lo, max: hi, minExcluded: low?.exclusive ?? false, maxExcluded: high?.exclusive ?? false, noNaN: true });
    } catch {
      // No double in the range: fast-check refuses it.
      values = fc.constant(lo);
    }
  }
  const candidates = step !== undefined ? Array.from({ length: 64 }, (_, i) => (Math.ceil(lo / step) + i) * step) : [(lo + hi) / 2, lo, hi, 0];
  const fallback = candidates.find(fits);
  return values.map((n) => JSON.stringify(fits(n) || fallback === undefined ? n : fallback));
}

/** JSON values of every other type, for the type boundary. */
export function wrongTypes(types: readonly string[]): BoundaryValue[] {
  const all: Array<[type: string, label: string, text: string]> = [
    ['string', 'string', '"7"'],
    ['integer', 'number', '42'],
    ['number', 'fraction', '1.5'],
    ['boolean', 'boolean', 'true'],
    ['null', 'null', 'null'],
    ['array', 'array', '[]'],
    ['object', 'object', '{}'],
  ];
  const admits = (type: string): boolean => types.includes(type) || (type === 'integer' && types.includes('number'));
  // A fraction where an integer is due is the integer cases' own `fraction` (and the identity's): not a second time here.
  const covered = (type: string): boolean => type === 'number' && types.includes('integer');
  return all
    .filter(([type]) => !admits(type) && !covered(type))
    .map(([type, label, text]) => ({
      label: `type-${label}`,
      literal: text,
      valid: false,
      about: `a ${type === 'integer' ? 'number' : type} (${text}) where the spec says ${types.join(' or ')}`,
      wrongType: true as const,
    }));
}

/**
 * The values on both sides of every constraint of `schema`. `sample` draws one value of an
 * arbitrary reproducibly (from the run's seed). Identity properties get their integer cases
 * from the identity family instead (they need fresh ids).
 */
export function boundaryValues(schema: JsonSchema, sample: <T>(arbitrary: fc.Arbitrary<T>) => T, options: { identity?: boolean } = {}): BoundaryValue[] {
  // Two constraints may land on one value (the minimum is also the first multiple): it is sent once, under its first label.
  const seen = new Set<string>();
  return everyBoundaryValue(schema, sample, options).filter((value) => !seen.has(value.literal) && seen.add(value.literal));
}

function everyBoundaryValue(schema: JsonSchema, sample: <T>(arbitrary: fc.Arbitrary<T>) => T, options: { identity?: boolean }): BoundaryValue[] {
  const types = typesOf(schema);
  if (!types.length) return [];
  const out: BoundaryValue[] = wrongTypes(types);
  if ('const' in schema) {
    out.push({ label: 'const', literal: literal(schema.const), valid: true, about: `the const value ${literal(schema.const)}` });
    const other = otherThan(schema.const);
    if (other !== undefined) out.push({ label: 'const-other', literal: other, valid: false, about: `another value than the const ${literal(schema.const)} (${other})` });
    return out;
  }
  if (Array.isArray(schema.enum)) {
    schema.enum.slice(0, 20).forEach((value, i) => out.push({ label: `enum-${i}`, literal: literal(value), valid: true, about: `the enum value ${literal(value)}` }));
    const first = schema.enum.find((v) => typeof v === 'string') as string | undefined;
    if (first !== undefined) {
      out.push({ label: 'enum-outside', literal: JSON.stringify(`${first}-not-listed`), valid: false, about: 'a string the enum does not list' });
      const other = first.toUpperCase() === first ? first.toLowerCase() : first.toUpperCase();
      if (other !== first && !schema.enum.includes(other))
        out.push({ label: 'enum-other-case', literal: JSON.stringify(other), valid: false, about: `an enum value in another letter case (${JSON.stringify(other)})` });
    }
    return out;
  }
  if (types.includes('string')) {
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : undefined;
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    // Past LONGEST_STRING a length case is not made (a maxLength of 2^31 − 1 says "no limit" rather than asks for a 2 GB body).
    const makes = (length: number | undefined): length is number => length !== undefined && length <= LONGEST_STRING;
    // Length cases are built from a valid sample when there is a pattern, else from letters.
    const unit = typeof schema.pattern === 'string' ? undefined : 'abcdefghijklmnopqrstuvwxyz';
    const build = (n: number): string => (unit ? ofLength(n, unit) : ofLength(n, sample(validLiterals(schema)).slice(1, -1) || 'a'));
    if (makes(minLength)) {
      out.push({ label: 'min-length', literal: JSON.stringify(build(minLength)), valid: true, about: `exactly minLength (${minLength}) characters` });
      if (minLength > 0) out.push({ label: 'below-min-length', literal: JSON.stringify(build(minLength - 1)), valid: false, about: `one character below minLength (${minLength})` });
    }
    if (makes(maxLength)) {
      out.push({ label: 'max-length', literal: JSON.stringify(build(maxLength)), valid: true, about: `exactly maxLength (${maxLength}) characters` });
      out.push({ label: 'above-max-length', literal: JSON.stringify(build(maxLength + 1)), valid: false, about: `one character past maxLength (${maxLength})` });
      if (maxLength >= 16) {
        out.push({
          label: 'max-length-astral',
          literal: JSON.stringify(ofLength(maxLength, '🌵')),
          valid: true,
          about: `maxLength (${maxLength}) characters outside the BMP: length counts code points, not UTF-16 units or bytes`,
        });
      }
    }
    if (typeof schema.pattern === 'string') {
      const regex = linearRegExp(schema.pattern, 'u'); // a hostile spec's pattern cannot freeze the suite either
      out.push({ label: 'pattern-match', literal: sample(validLiterals(schema)), valid: true, about: `a string matching the pattern ${schema.pattern}` });
      const candidates = ['', ' ', '!', '\u0000', 'x', 'X1', '🌵', '0', 'a b', `${sample(validLiterals(schema)).slice(1, -1)}!`];
      const miss = candidates.find((c) => !regex.test(c) && (minLength === undefined || [...c].length >= minLength) && (maxLength === undefined || [...c].length <= maxLength));
      if (miss !== undefined)
        out.push({ label: 'pattern-miss', literal: JSON.stringify(miss), valid: false, about: `a string the pattern ${schema.pattern} does not match (${JSON.stringify(miss)})` });
    }
    if (typeof schema.format === 'string' && Object.hasOwn(FORMAT_BUILDERS, schema.format)) {
      out.push({ label: `format-${schema.format}`, literal: sample(validLiterals(schema)), valid: true, about: `a valid ${schema.format}` });
      out.push({ label: `not-format-${schema.format}`, literal: JSON.stringify(`not a ${schema.format}`), valid: false, about: `a string that is not a ${schema.format}` });
    }
  }
  if ((types.includes('integer') || types.includes('number')) && !options.identity) {
    out.push(...(types.includes('integer') && !types.includes('number') ? integerBoundaries(schema) : numberBoundaries(schema)));
  }
  if (types.includes('boolean')) {
    out.push({ label: 'true', literal: 'true', valid: true, about: 'true' }, { label: 'false', literal: 'false', valid: true, about: 'false' });
  }
  return out;
}

/** `n` rounded up (resp. down) to a multiple of `step`. */
const ceilMultiple = (n: bigint, step: bigint): bigint => (n % step === 0n ? n : n - (n % step) + (n > 0n ? step : 0n));
const floorMultiple = (n: bigint, step: bigint): bigint => (n % step === 0n ? n : n - (n % step) - (n < 0n ? step : 0n));

/** An integer's range ends and one past them (the valid ends moved onto multipleOf), fractions, and multipleOf's two sides. */
function integerBoundaries(schema: JsonSchema): BoundaryValue[] {
  const out: BoundaryValue[] = [];
  const { min, max } = integerBounds(schema);
  const step = multipleOf(schema);
  // A fractional multipleOf on an integer is left to the validator: the cases it contradicts are dropped and listed.
  const whole = step !== undefined && Number.isInteger(step) ? BigInt(step) : undefined;
  const fits = (n: bigint): boolean => (min === undefined || n >= min) && (max === undefined || n <= max) && (whole === undefined || n % whole === 0n);
  const name = (bound: bigint, which: string): string =>
    typeof schema.format === 'string' && INT_FORMATS[schema.format] && [...(INT_FORMATS[schema.format] as readonly bigint[])].includes(bound) ? `${schema.format} ${which}` : which;
  const onStep = (n: bigint, bound: bigint, which: string): string =>
    n === bound ? `the ${name(bound, which)} ${bound}` : `${n}, the ${which === 'minimum' ? 'smallest' : 'largest'} multiple of ${step} within the ${name(bound, which)} ${bound}`;
  if (min !== undefined) {
    const lowest = whole === undefined ? min : ceilMultiple(min, whole);
    if (fits(lowest)) out.push({ label: 'minimum', literal: String(lowest), valid: true, about: onStep(lowest, min, 'minimum') });
    const below = outsideInteger(schema, min, -1);
    out.push({ label: 'below-minimum', literal: String(below), valid: false, about: outsideAbout(min, below, name(min, 'minimum')) });
    out.push({ label: 'below-minimum-exponent', literal: exponentForm(below), valid: false, about: `${outsideAbout(min, below, name(min, 'minimum'))}, in exponent form (${exponentForm(below)})` });
  }
  if (max !== undefined) {
    const highest = whole === undefined ? max : floorMultiple(max, whole);
    if (fits(highest)) {
      out.push({ label: 'maximum', literal: String(highest), valid: true, about: onStep(highest, max, 'maximum') });
      out.push({ label: 'maximum-exponent', literal: exponentForm(highest), valid: true, about: `${onStep(highest, max, 'maximum')}, in exponent form (${exponentForm(highest)})` });
    }
    const above = outsideInteger(schema, max, 1);
    out.push({ label: 'above-maximum', literal: String(above), valid: false, about: outsideAbout(max, above, name(max, 'maximum')) });
    out.push({ label: 'above-maximum-exponent', literal: exponentForm(above), valid: false, about: `${outsideAbout(max, above, name(max, 'maximum'))}, in exponent form` });
  }
  let inside = min ?? (max !== undefined && max < 1n ? max : 1n);
  if (whole !== undefined) inside = ceilMultiple(inside, whole);
  if (fits(inside)) out.push({ label: 'whole-as-fraction', literal: `${inside}.0`, valid: true, about: `an integer written with a zero fraction (${inside}.0 is an integer under JSON Schema)` });
  out.push({ label: 'fraction', literal: `${inside}.5`, valid: false, about: 'a number with a fractional part' });
  if (max !== undefined) out.push({ label: 'huge', literal: '1e400', valid: false, about: '1e400, far past the maximum' });
  if (whole !== undefined && fits(inside)) {
    const next = inside + whole <= SAFE_MAX && fits(inside + whole) ? inside + whole : inside;
    out.push({ label: 'multiple-of', literal: String(next), valid: true, about: `${next}, a multiple of ${step}` });
    const off = inside + 1n;
    // Past 2^53 the validator's doubles cannot hold a non-multiple (every double there is even).
    if (whole > 1n && (max === undefined || off <= max) && off <= SAFE_MAX && off >= -SAFE_MAX)
      out.push({ label: 'not-multiple-of', literal: String(off), valid: false, about: `${off}, not a multiple of ${step}` });
  }
  return out;
}

/** A number's bounds on both sides (an exclusive bound itself, and a value just inside it) and multipleOf's two sides. */
function numberBoundaries(schema: JsonSchema): BoundaryValue[] {
  const out: BoundaryValue[] = [];
  const { low, high } = numberBounds(schema);
  const step = multipleOf(schema);
  const fits = (n: number): boolean => numberFits(schema, n, false);
  const show = (n: number): string => JSON.stringify(n);
  /** A value that fits, near `from` towards `direction`, among a few candidates. */
  const near = (from: number, direction: 1 | -1, other?: number): number | undefined => {
    const candidates =
      step !== undefined
        ? Array.from({ length: 8 }, (_, i) => (direction > 0 ? Math.floor(from / step) + 1 + i : Math.ceil(from / step) - 1 - i) * step)
        : [from + direction * 0.5, from + direction, ...(other === undefined ? [] : [(from + other) / 2])];
    return candidates.find(fits);
  };
  const side = (bound: NumberBound | undefined, which: 'minimum' | 'maximum', other: NumberBound | undefined): void => {
    if (!bound) return;
    const direction = which === 'minimum' ? 1 : -1;
    if (bound.exclusive) {
      const keyword = which === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum';
      out.push({ label: `exclusive-${which}`, literal: show(bound.value), valid: false, about: `exactly the ${keyword} ${show(bound.value)}, which it excludes` });
      const inside = near(bound.value, direction, other?.value);
      if (inside !== undefined)
        out.push({
          label: `${which === 'minimum' ? 'above' : 'below'}-exclusive-${which}`,
          literal: show(inside),
          valid: true,
          about: `${show(inside)}, just inside the ${keyword} ${show(bound.value)}`,
        });
    } else {
      const end = fits(bound.value) ? bound.value : near(bound.value, direction, other?.value);
      if (end !== undefined) {
        out.push({
          label: which,
          literal: show(end),
          valid: true,
          about: end === bound.value ? `the ${which} ${show(end)}` : `${show(end)}, the ${which === 'minimum' ? 'smallest' : 'largest'} multiple of ${step} within the ${which} ${show(bound.value)}`,
        });
      }
      // Past a bound too large for a step of 1 to move (1e300), there is no "one past" to send.
      const outside = bound.value - direction;
      if (outside !== bound.value) {
        out.push({
          label: which === 'minimum' ? 'below-minimum' : 'above-maximum',
          literal: show(outside),
          valid: false,
          about: `one ${which === 'minimum' ? 'below' : 'past'} the ${which} (${show(outside)})`,
        });
      }
    }
  };
  side(low, 'minimum', high);
  side(high, 'maximum', low);
  if (step !== undefined) {
    const valid = near(low?.value ?? 0, 1, high?.value) ?? near(high?.value ?? 0, -1, low?.value);
    if (valid !== undefined) {
      out.push({ label: 'multiple-of', literal: show(valid), valid: true, about: `${show(valid)}, a multiple of ${step}` });
      const off = [valid + step / 2, valid - step / 2].find((n) => inBounds(schema, n) && !isMultiple(n, step));
      if (off !== undefined) out.push({ label: 'not-multiple-of', literal: show(off), valid: false, about: `${show(off)}, not a multiple of ${step}` });
    }
  }
  return out;
}
