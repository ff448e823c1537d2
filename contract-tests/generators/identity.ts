/**
 * The identity property (an integer `id`): its range ends and one past them, each written several
 * ways (digits, exponent, zero fraction), `-0`, fractions, and numbers beyond every range. Valid
 * ids are drawn fresh so that a provider that keeps what it stored never sees one twice; the
 * range ends themselves cannot be fresh, so those cases are marked fixed (a repeat from an
 * earlier run is answered like the duplicate probe, and the checks read it that way).
 */
import type { IdSource } from '../../fixtures/index.js';
import { linearRegExp } from '../../openapi/schema/patterns.js';
import { stringKeySchema, type JsonSchema, type RequestProperty } from '../spec-contract.js';
import { exponentForm, integerBounds, LONGEST_STRING, outsideAbout, outsideInteger } from './schema-values.js';

export interface IdentityValue {
  label: string;
  literal: string;
  valid: boolean;
  /** A value no fresh draw can give (a range end, zero). */
  fixed: boolean;
  about: string;
}

const SAFE = 2n ** 53n - 1n;
const NEAR = 2n ** 40n;

/**
 * A fresh id: of ordinary size (1 to 2^53 − 1) where the identity's range allows one, otherwise
 * within 2^40 of the range's end nearest them (a range wholly past 2^53, or wholly below 1). All
 * in BigInt, so a bound past 2^53 is used exactly. A range with no integer in it (minimum above
 * maximum) gets its minimum: the cases built on it are excluded with the reason.
 */
export function freshIdentity(identity: RequestProperty, ids: IdSource): bigint {
  const { min, max } = integerBounds(identity.schema);
  if (min !== undefined && max !== undefined && min > max) return min;
  const low = min !== undefined && min > 1n ? min : 1n;
  const high = max !== undefined && max < SAFE ? max : SAFE;
  let from: bigint;
  let to: bigint;
  if (low <= high) [from, to] = [low, high];
  else if (min !== undefined && min > SAFE) [from, to] = [min, max !== undefined && max < min + NEAR ? max : min + NEAR];
  else [from, to] = [min !== undefined && min > (max as bigint) - NEAR ? min : (max as bigint) - NEAR, max as bigint]; // wholly below 1
  return drawBetween(ids, from, to);
}

/** A fresh id from `from` to `to`; a range of a handful of ids runs out of fresh ones: then its first id, repeated (the duplicate probe tells how a repeat is answered). */
function drawBetween(ids: IdSource, from: bigint, to: bigint): bigint {
  try {
    return ids.between(from, to);
  } catch {
    return from;
  }
}

export function identityValues(identity: RequestProperty, ids: IdSource): IdentityValue[] {
  const { min, max } = integerBounds(identity.schema);
  const out: IdentityValue[] = [];
  const fresh = (label: string, text: string, about: string): void => {
    out.push({ label, literal: text, valid: true, fixed: false, about });
  };
  const draw = (): bigint => freshIdentity(identity, ids);
  const a = draw();
  fresh('zero-fraction', `${a}.0`, `a fresh id written with a zero fraction (${a}.0): an integer under JSON Schema`);
  const b = draw();
  fresh('exponent', exponentForm(b), `a fresh id in exponent form with every digit (${exponentForm(b)})`);
  const c = draw();
  fresh('exponent-upper-plus', exponentForm(c, 'E+'), `a fresh id in exponent form with E+ (${exponentForm(c, 'E+')})`);
  const d = draw();
  fresh('negative-exponent', `${d}000e-3`, `a fresh id written with trailing zeros and a negative exponent (${d}000e-3)`);
  // A multiple of 1000 written like 1e3; drawn at random, so it repeats no earlier run's.
  const thousands = draw() / 1000n + 1n;
  if (max === undefined || thousands * 1000n <= max) fresh('thousands-e3', `${thousands}e3`, `a fresh id written like 1e3 (${thousands}e3)`);

  if (max !== undefined) {
    const near = drawBetween(ids, min !== undefined && max - NEAR < min ? min : max - NEAR, max);
    fresh('near-maximum', String(near), `a fresh id within 2^40 of the maximum ${max}`);
    const nearExp = drawBetween(ids, min !== undefined && max - NEAR < min ? min : max - NEAR, max);
    fresh('near-maximum-exponent', exponentForm(nearExp), `a fresh id near the maximum in exponent form (${exponentForm(nearExp)})`);
    out.push({ label: 'maximum', literal: String(max), valid: true, fixed: true, about: `the largest id the spec allows, ${max}` });
    out.push({ label: 'maximum-exponent', literal: exponentForm(max), valid: true, fixed: true, about: `the largest id in exponent form (${exponentForm(max)})` });
    const above = outsideInteger(identity.schema, max, 1);
    out.push({ label: 'above-maximum', literal: String(above), valid: false, fixed: false, about: outsideAbout(max, above, 'largest id') });
    out.push({
      label: 'above-maximum-exponent',
      literal: exponentForm(above),
      valid: false,
      fixed: false,
      about: `${outsideAbout(max, above, 'largest id')}, in exponent form (${exponentForm(above)})`,
    });
    out.push({ label: 'maximum-and-a-half', literal: `${max}.5`, valid: false, fixed: false, about: `the largest id plus a half (${max}.5)` });
    if (max < 10n ** 19n) out.push({ label: 'ten-e19', literal: '1e19', valid: false, fixed: false, about: '1e19, an integer past the largest id' });
    out.push({ label: 'huge', literal: '1e400', valid: false, fixed: false, about: '1e400, far past every integer range' });
  }
  if (min !== undefined) {
    const near = drawBetween(ids, min, max !== undefined && min + NEAR > max ? max : min + NEAR);
    fresh('near-minimum', String(near), `a fresh id within 2^40 of the minimum ${min}`);
    const nearExp = drawBetween(ids, min, max !== undefined && min + NEAR > max ? max : min + NEAR);
    fresh('near-minimum-exponent', exponentForm(nearExp), `a fresh id near the minimum in exponent form (${exponentForm(nearExp)})`);
    out.push({ label: 'minimum', literal: String(min), valid: true, fixed: true, about: `the smallest id the spec allows, ${min}` });
    out.push({ label: 'minimum-exponent', literal: exponentForm(min), valid: true, fixed: true, about: `the smallest id in exponent form (${exponentForm(min)})` });
    const below = outsideInteger(identity.schema, min, -1);
    out.push({ label: 'below-minimum', literal: String(below), valid: false, fixed: false, about: outsideAbout(min, below, 'smallest id') });
    out.push({
      label: 'below-minimum-exponent',
      literal: exponentForm(below),
      valid: false,
      fixed: false,
      about: `${outsideAbout(min, below, 'smallest id')}, in exponent form (${exponentForm(below)})`,
    });
    out.push({ label: 'minus-huge', literal: '-1e400', valid: false, fixed: false, about: '-1e400, far below every integer range' });
  }
  if ((min === undefined || min <= 0n) && (max === undefined || max >= 0n)) {
    out.push({ label: 'minus-zero', literal: '-0', valid: true, fixed: true, about: '-0, which is the integer 0' });
  }
  const f = freshIdentity(identity, ids);
  out.push({ label: 'fraction', literal: `${f}.5`, valid: false, fixed: false, about: `an id with a fractional part (${f}.5)` });
  out.push({ label: 'tiny-fraction', literal: '1e-400', valid: false, fixed: false, about: '1e-400: not an integer, though a double reads it as 0' });
  out.push({ label: 'long-fraction', literal: `${f}.0000000000000000001`, valid: false, fixed: false, about: 'an id with a fraction too small for a double to keep' });
  return out;
}

/** The draws a string key is made of: eight base-36 digits, so every key of one shape has one length. */
const KEY_LOW = 36n ** 7n;
const KEY_HIGH = 36n ** 8n - 1n;

/** `n` written with the letters a–z only. */
function letters(n: bigint): string {
  let out = '';
  for (let rest = n; rest > 0n; rest /= 26n) out = String.fromCharCode(97 + Number(rest % 26n)) + out;
  return out || 'a';
}

/**
 * A maker of fresh string identities (`username`, a slug) for a key's schema: each call a JSON
 * string no earlier call gave (drawn from the run's id source), in the first of a few shapes
 * (`k` and base-36 digits, decimal digits, letters, capitals; an address for `format: email`, a UUID for `format: uuid`)
 * that fits the schema's pattern and lengths, padded to minLength. Undefined when none fits (an
 * enum, a const, another format, a pattern none of them matches): the cases keep one value then.
 */
export function freshKeyMaker(key: JsonSchema, ids: IdSource): (() => string) | undefined {
  // A union key (a name or an array of names) is drawn from its string branch: a path segment names a record by one string.
  const schema = stringKeySchema(key) ?? key;
  if (Array.isArray(schema.enum) || 'const' in schema) return undefined;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  // A key padded to a minLength past LONGEST_STRING would be gigabytes per case: none is made.
  if (minLength > LONGEST_STRING) return undefined;
  let pattern: { test(text: string): boolean } | undefined;
  try {
    pattern = typeof schema.pattern === 'string' ? linearRegExp(schema.pattern, 'u') : undefined;
  } catch {
    return undefined;
  }
  const shapes: Array<[shape: (n: bigint) => string, pad: string]> =
    schema.format === 'email'
      ? [[(n) => `k${n.toString(36)}@example.com`, '']]
      : schema.format === 'uuid'
        ? [[(n) => uuidOf(n), '']]
        : schema.format === undefined
          ? [
              [(n) => `k${n.toString(36)}`, '0'],
              [(n) => n.toString(10), '0'],
              [(n) => letters(n), 'a'],
              [(n) => letters(n).toUpperCase(), 'A'],
              [(n) => `k-${n.toString(36)}`, '0'],
            ]
          : [];
  const fits = (text: string): boolean => [...text].length >= minLength && [...text].length <= maxLength && (pattern === undefined || pattern.test(text));
  for (const [shape, pad] of shapes) {
    const write = (n: bigint): string => {
      const text = shape(n);
      return pad && text.length < minLength ? text + pad.repeat(minLength - text.length) : text;
    };
    if (!fits(write(KEY_LOW)) || !fits(write(KEY_HIGH))) continue;
    return () => JSON.stringify(write(drawBetween(ids, KEY_LOW, KEY_HIGH)));
  }
  return undefined;
}

/** `n` as the hex digits of a UUID (8-4-4-4-12): distinct numbers, distinct UUIDs, as format uuid takes them. */
function uuidOf(n: bigint): string {
  const hex = n.toString(16).padStart(32, '0').slice(-32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
