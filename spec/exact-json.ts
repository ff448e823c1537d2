/**
 * JSON parsing that keeps integers exact over the whole int64 range.
 *
 * `JSON.parse` rounds integers beyond 2^53, so a validator that runs on its output judges
 * rounded doubles: 9223372036854775807 and 9223372036854775808 become the same number.
 * `parseExactJson` returns a *validation view* (plain JSON values that ajv can check) in which
 * every number literal is represented so that integer-ness and the int32/int64 ranges are
 * decided on the literal's real digits, plus `exactInteger` to read an integer back exactly.
 */
import { isLosslessNumber, parse as parseLossless, type LosslessNumber } from 'lossless-json';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Largest double below 2^63: what an in-range literal that rounds up to 2^63 is shown as. */
const BELOW_2_63 = 9223372036854774784;
/** Next double below -2^63: what an out-of-range literal that rounds to -2^63 is shown as. */
const BELOW_MINUS_2_63 = -9223372036854777856;

/** Exact integers that the view could only show rounded, by container and key. */
const exactIntegers = new WeakMap<object, Map<string, bigint>>();
/** Literals the view shows by a stand-in (see numberView), by container and key: for messages. */
const standIns = new WeakMap<object, Map<string, string>>();

function remember<T>(table: WeakMap<object, Map<string, T>>, container: object, key: string, value: T): void {
  let byKey = table.get(container);
  if (!byKey) table.set(container, (byKey = new Map()));
  byKey.set(key, value);
}

/**
 * Whether JSON.parse might read a number of `text` inexactly: a run of 16 digits, or a digit
 * followed by an exponent or a fraction (/\d{16}|\d[eE.]/). One pass over char codes: on the
 * request path this is cheaper than the regex.
 */
export function needsExactParse(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits === 16) return true;
    } else {
      if (digits > 0 && (c === 46 || c === 69 || c === 101)) return true; // . E e
      digits = 0;
    }
  }
  return false;
}

/** Parses JSON text; throws SyntaxError (with a position) on malformed input. */
export function parseExactJson(text: string): unknown {
  if (!needsExactParse(text)) return JSON.parse(text);
  const lossless = parseLossless(text, null, {
    // Last duplicate key wins, as with JSON.parse, so both paths agree.
    onDuplicateKey: ({ newValue }) => newValue,
  });
  return toView(lossless, undefined, '');
}

/**
 * The exact integer at `container[key]` of a value returned by `parseExactJson`,
 * or undefined when that value is not an integer.
 */
export function exactInteger(container: object, key: string): bigint | undefined {
  const exact = exactIntegers.get(container)?.get(key);
  if (exact !== undefined) return exact;
  const value = (container as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
}

/**
 * The literal that `container[key]` stands in for, when the view could not show it as itself
 * (a fraction such as 1.0000000000000001 whose double is whole); undefined otherwise.
 */
export function literalBehindStandIn(container: object, key: string): string | undefined {
  return standIns.get(container)?.get(key);
}

/** Whether an exact integer fits the int64 range. */
export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

function toView(value: unknown, container: object | undefined, key: string): unknown {
  if (isLosslessNumber(value)) return numberView(value as LosslessNumber, container, key);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = toView(value[i], value, String(i));
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const k of Object.keys(record)) record[k] = toView(record[k], record, k);
    return record;
  }
  return value;
}

function numberView(literal: LosslessNumber, container: object | undefined, key: string): number {
  const text = literal.value;
  const double = Number(text);
  const integer = integerOfLiteral(text);
  if (integer === undefined) {
    if (!Number.isInteger(double)) return double;
    // A fraction that rounds to a whole double must still fail `type: integer`;
    // 0.5 stands in for it (the view is only validated, never echoed; messages use the literal).
    if (container) remember(standIns, container, key, text);
    return 0.5;
  }
  if (Number.isSafeInteger(double) && BigInt(double) === integer) return double;
  if (container) remember(exactIntegers, container, key, integer);
  // Round so that the int64 decision on the double equals the decision on the literal.
  if (integer <= INT64_MAX && double >= 2 ** 63) return BELOW_2_63;
  if (integer < INT64_MIN && double >= -(2 ** 63)) return BELOW_MINUS_2_63;
  if (!Number.isFinite(double)) return double > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE;
  return double;
}

const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The exact integer a JSON number literal denotes (1.0 and 1e3 included), or undefined. */
export function integerOfLiteral(text: string): bigint | undefined {
  const match = NUMBER_LITERAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let exponent = Number(exponentText) - fraction.length;
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailingZeros);
  exponent += trailingZeros;
  if (exponent < 0) return undefined;
  // Beyond 40 digits no int64 question depends on the exact value; cap the BigInt work.
  if (digits.length + exponent > 40) return (sign ? -1n : 1n) * 10n ** 40n;
  const magnitude = BigInt(digits) * 10n ** BigInt(exponent);
  return sign ? -magnitude : magnitude;
}

/**
 * The JSON text of `container[key]` for a value from `parseExactJson`, exactly as sent: integers
 * beyond a double keep their digits, a fraction the view shows by a stand-in is written as its
 * literal. Used to store and echo what a client sent without rounding anything.
 */
export function exactJsonOf(container: object, key: string): string {
  const value = (container as Record<string, unknown>)[key];
  // Strings and small integers (nearly every value) have no exact form apart from themselves.
  if (typeof value === 'string') return JSON.stringify(value);
  const exact = exactIntegers.get(container)?.get(key);
  if (exact !== undefined) return exact.toString();
  const literal = standIns.get(container)?.get(key);
  if (literal !== undefined) return literal;
  return exactJsonText(value);
}

/** The JSON text of a whole value from `parseExactJson`, numbers exactly as sent (see exactJsonOf). */
export function exactJsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + exactJsonOf(value, String(i));
    return `[${out}]`;
  }
  let out = '';
  for (const key of Object.keys(value)) {
    if ((value as Record<string, unknown>)[key] === undefined) continue;
    out += `${out ? ',' : ''}${JSON.stringify(key)}:${exactJsonOf(value, key)}`;
  }
  return `{${out}}`;
}
