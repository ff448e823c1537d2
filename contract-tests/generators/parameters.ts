/**
 * Parameters as a request carries them: valid values drawn from each parameter's schema, written
 * by its `style` and `explode` (OpenAPI 3.1 4.8.12.4; arrays and objects through openapi-fetch's
 * serializers), into the path, the query, headers and the Cookie header; and the verdict the spec
 * gives a value as a server reads it back (a query's `7` is the integer 7), so that a case meant as
 * invalid never goes out when the spec accepts it.
 */
import fc from 'fast-check';
import { serializeArrayParam, serializeObjectParam } from 'openapi-fetch';
import type { SuiteContract, SuiteParameter } from '../spec-contract.js';
import { typesOf } from '../spec-contract.js';
import { queryValues } from '../../openapi/operations/parameters.js';
import { validLiterals } from './schema-values.js';

/** A value as JSON text (what the schema generators produce), or absent. */
export type ParameterValues = ReadonlyMap<SuiteParameter, string | undefined>;

/** Parts of a request the credential adds (an API key in the query or a cookie). */
export interface ExtraParts {
  query?: ReadonlyArray<readonly [string, string]>;
  cookies?: ReadonlyArray<readonly [string, string]>;
}

export interface RequestTarget {
  /** The path with its parameters written in, and the query. */
  path: string;
  /** Header parameters, and the Cookie header when there are cookies. */
  headers: Record<string, string>;
}

/**
 * Plain words as JSON text. Built once: fast-check prepares a string arbitrary's special values when
 * it is built (about 40 ms), and a value is drawn for every parameter of every sequence step.
 */
const PLAIN_WORDS: fc.Arbitrary<string> = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/).map((s) => JSON.stringify(s));

/** A valid value of each parameter (required ones, and optional ones when `all`), from the schema's example, default or a seeded draw. */
export function validParameterValues(contract: SuiteContract, sample: <T>(arbitrary: fc.Arbitrary<T>) => T, all: boolean): Map<SuiteParameter, string | undefined> {
  const values = new Map<SuiteParameter, string | undefined>();
  for (const parameter of contract.parameters) {
    if (!parameter.required && !all) continue;
    values.set(parameter, validValue(parameter, sample));
  }
  return values;
}

function validValue(parameter: SuiteParameter, sample: <T>(arbitrary: fc.Arbitrary<T>) => T): string {
  const { schema } = parameter;
  for (const candidate of [schema.example, schema.default, Array.isArray(schema.examples) ? schema.examples[0] : undefined]) {
    if (candidate !== undefined && isPrintable(candidate) && fits(parameter, write(parameter, JSON.stringify(candidate)))) return JSON.stringify(candidate);
  }
  // Plain words travel unencoded: a draw that survives the round trip is preferred.
  const arbitrary = typesOf(schema).includes('string') && !schema.pattern && !schema.format && !schema.enum ? PLAIN_WORDS : validLiterals(schema);
  for (let i = 0; i < 20; i++) {
    const literal = sample(arbitrary);
    if (fits(parameter, write(parameter, literal))) return literal;
  }
  return sample(validLiterals(schema));
}

/** A valid value that can go out: a header parameter is never percent-encoded, so one holding a character no header carries is drawn again. */
function fits(parameter: SuiteParameter, written: string): boolean {
  return verdict(parameter, written) === true && (parameter.in !== 'header' || HEADER_TEXT.test(written));
}

/** What a header value may hold (RFC 9110 field-value: visible ASCII, space, tab, obs-text). */
const HEADER_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

function isPrintable(value: unknown): boolean {
  return typeof value !== 'string' || /^[\x20-\x7e]*$/.test(value);
}

/** The request's path and headers for `values`, every parameter written by its style. */
export function requestTarget(contract: SuiteContract, values: ParameterValues, extra: ExtraParts = {}): RequestTarget {
  let path = contract.path;
  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [parameter, literal] of values) {
    if (literal === undefined) continue;
    const text = write(parameter, literal);
    if (parameter.in === 'path') path = path.replaceAll(`{${parameter.name}}`, text);
    else if (parameter.in === 'query') query.push(text);
    else if (parameter.in === 'header') headers[parameter.name] = text;
    else cookies.push(text);
  }
  for (const [name, value] of extra.query ?? []) query.push(`${encode(name)}=${encode(value)}`);
  for (const [name, value] of extra.cookies ?? []) cookies.push(`${name}=${value}`);
  if (cookies.length) headers.cookie = cookies.join('; ');
  return { path: query.length ? `${path}?${query.join('&')}` : path, headers };
}

/**
 * One parameter's value (JSON text) as it goes on the wire: the path segment, the query pair(s)
 * (`name=…`), the header value or the cookie pair.
 */
export function write(parameter: SuiteParameter, literal: string): string {
  const value: unknown = JSON.parse(literal);
  const { name, style, explode } = parameter;
  const where = parameter.in;
  // A parameter declared by `content`: its value is a JSON document, written whole.
  if (style === 'content') {
    if (where === 'header') return literal;
    if (where === 'path') return encode(literal);
    return `${encode(name)}=${encode(literal)}`;
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => scalarText(item));
    if (where === 'header') return items.join(',');
    if (where === 'cookie') return `${name}=${items.map(formEncode).join(',')}`;
    const arrayStyle = (['simple', 'label', 'matrix', 'form', 'spaceDelimited', 'pipeDelimited'] as const).find((s) => s === style) ?? (where === 'path' ? 'simple' : 'form');
    return serializeArrayParam(name, items, { style: arrayStyle, explode });
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scalarText(v)] as const);
    if (where === 'header') return entries.map(([k, v]) => (explode ? `${k}=${v}` : `${k},${v}`)).join(',');
    if (where === 'cookie') return `${name}=${entries.flat().map(formEncode).join(',')}`;
    const objectStyle = (['simple', 'label', 'matrix', 'form', 'deepObject'] as const).find((s) => s === style) ?? (where === 'path' ? 'simple' : 'form');
    return serializeObjectParam(name, Object.fromEntries(entries), { style: objectStyle, explode });
  }
  const text = scalarText(value, literal);
  if (where === 'header') return text;
  if (where === 'cookie') return `${name}=${formEncode(text)}`;
  const encoded = encode(text);
  if (where === 'path') return style === 'label' ? `.${encoded}` : style === 'matrix' ? `;${name}=${encoded}` : encoded;
  return `${encode(name)}=${encoded}`;
}

/** Percent-encoded UTF-8; a lone surrogate (which UTF-8 cannot carry) goes as U+FFFD. */
function encode(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/**
 * A cookie's item as form style writes it (RFC 6570 form expansion, `allowReserved` being for the
 * query alone): everything but the unreserved characters percent-encoded, so a comma, a semicolon,
 * a space or a non-ASCII character in an item can neither end it nor make the Cookie header unsendable.
 */
function formEncode(text: string): string {
  return encode(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A scalar as text: a string as it is, a number by its JSON digits (an int64 keeps them). */
function scalarText(value: unknown, literal?: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && literal !== undefined && /^-?\d/.test(literal)) return literal;
  return value === null ? '' : String(value);
}

/**
 * Whether the parameter takes `literal` (JSON text) as written: a value held for it from an earlier
 * answer or an example that its own schema refuses names nothing it can carry.
 */
export function takesLiteral(parameter: SuiteParameter, literal: string): boolean {
  try {
    return verdict(parameter, write(parameter, literal)) === true;
  } catch {
    return false;
  }
}

/**
 * What the spec makes of a parameter as written: true valid, false invalid, undefined when the
 * value cannot be read back at all. It is read back by the reader the mock uses
 * (openapi/operations/parameters.ts: style, explode, coercion to the schema's types), so the suite and the mock
 * never disagree on what a request says.
 */
export function verdict(parameter: SuiteParameter, written: string | undefined): boolean | undefined {
  // An empty array or object writes nothing: the parameter is absent.
  if (written === undefined || (written === '' && parameter.in === 'query')) return !parameter.required;
  if (!parameter.validate || !parameter.read) return true;
  let value: unknown;
  try {
    value = parameter.read({
      path: parameter.in === 'path' ? { [parameter.name]: decodeURIComponent(written) } : {},
      query: queryValues(parameter.in === 'query' ? written : ''),
      // A header arrives without the whitespace around it (RFC 9110 §5.5): " " is received as "".
      headers: parameter.in === 'header' ? { [parameter.name]: written.replace(/^[ \t]+|[ \t]+$/g, '') } : parameter.in === 'cookie' ? { cookie: written } : {},
    });
  } catch {
    return undefined;
  }
  if (value === undefined) return !parameter.required;
  return parameter.validate(value) === true;
}
