/**
 * Parameters as the spec describes them: each read from where it travels by its `style` and
 * `explode` (OpenAPI 3.1, 4.8.12.4) into an array, an object or a single value, then coerced to
 * its schema's types (`"5"` → 5 where the schema says integer), so that validation judges what
 * the client meant, and a handler gets typed values.
 *
 * Hand-written because no maintained library covers it whole: openapi-backend's router splits
 * non-exploded query arrays only (no path or header styles, no objects, no coercion).
 * Plain functions; the table test (openapi/operations/test/parameters.test.ts) runs every style.
 *
 * A value that does not fit its style (`?point=1` for an object) is kept as the text it was, so
 * the validator explains what is wrong with it; nothing here refuses a request.
 */
import { copyExactMember, exactJsonText, holdsInexactNumbers, parseExactJson } from '../schema/exact-json.js';
import { flattenObject, mergeAllOf, typesOf } from '../schema/shape.js';
import { isObject, type Schema } from '../schema/resolve.js';

/** What the deserializer needs of a parameter (openapi/operations/compile.ts's ContractParameter has it). */
export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  style: ParameterStyle;
  explode: boolean;
  schema: Schema | undefined;
}

export type ParameterStyle = 'matrix' | 'label' | 'simple' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'content';

/** Where a request's parameters travel, as the HTTP edge has them. */
export interface ParameterSource {
  /** Path template values, percent-decoded. */
  path: Readonly<Record<string, string>>;
  query: QueryValues;
  /** Lower-case names, as node gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Reads one parameter from a request: its value, or undefined when the request does not send it. */
export type ParameterReader = (source: ParameterSource) => unknown;

/**
 * The reader of `parameter`, made once per operation. `claimed` are the names of the operation's
 * other query parameters (an exploded form object takes the keys no other parameter names).
 */
export function parameterReader(parameter: ParameterSpec, document: unknown, claimed: ReadonlySet<string> = new Set()): ParameterReader {
  const { name } = parameter;
  // The shape and merged schema are the parameter's own: taken once here, not on every request.
  const shaped = shapeOf(parameter.schema, document);
  const { shape, schema } = shaped;
  // The common case, a single value of one plain type, costs what reading it as text did.
  const plain = parameter.style !== 'content' && shape === 'primitive' && typeof schema.type === 'string' ? schema.type : undefined;
  const types = typesOf(schema);
  const scalar = (text: string): unknown => (plain === 'string' ? text : coerceText(text, types));
  switch (parameter.in) {
    case 'path':
      return ({ path }) => {
        const segment = path[name];
        if (segment === undefined) return undefined;
        return plain !== undefined && parameter.style === 'simple' ? scalar(segment) : readPathParameter(parameter, segment, document, shaped);
      };
    case 'header':
      return ({ headers }) => {
        const raw = headers[name.toLowerCase()];
        const value = Array.isArray(raw) ? raw.join(', ') : raw;
        if (value === undefined) return undefined;
        return plain !== undefined ? scalar(value) : readHeaderParameter(parameter, value, document, shaped);
      };
    case 'cookie':
      return ({ headers }) => {
        const value = cookieValue(headers.cookie, name);
        if (value === undefined) return undefined;
        return plain !== undefined ? scalar(percentDecoded(value)) : readCookieParameter(parameter, value, document, shaped);
      };
    default:
      return ({ query }) => {
        if (plain !== undefined) {
          const values = query.get(name);
          if (values === undefined) return undefined;
          // A name sent twice is no serialization of one value: judged as the list it is, so it is refused, not read as its first.
          return values.length === 1 ? scalar(values[0] as string) : values.map(scalar);
        }
        return readQueryParameter(parameter, query, document, claimed, shaped);
      };
  }
}

/**
 * A cookie's value by name from the Cookie header (RFC 6265 §5.4: `name=value` pairs joined by
 * `;`), the first when a name is sent twice; undefined when absent. A pair without `=` names no
 * cookie. The one reader of cookies: a cookie parameter's and a cookie API key's.
 */
export function cookieValue(header: string | readonly string[] | undefined, name: string): string | undefined {
  for (const part of (typeof header === 'string' ? header : (header ?? []).join('; ')).split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The query string's values by name, in order (a repeated name has several). */
export type QueryValues = ReadonlyMap<string, readonly string[]>;

/** The query string (after `?`, without it) read into QueryValues; form decoding (`+` is a space). */
export function queryValues(search: string): QueryValues {
  const values = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(search)) {
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }
  return values;
}

/** What a parameter's schema makes of it: the shape its value takes. */
type Shape = 'array' | 'object' | 'primitive';

/** A parameter's shape and its schema with allOf merged. */
interface Shaped {
  shape: Shape;
  schema: Schema;
}

function shapeOf(schema: Schema | undefined, document: unknown): Shaped {
  const merged = schema ? mergeAllOf(schema, document) : {};
  const types = typesOf(merged);
  const shape: Shape = types.includes('array') ? 'array' : types.includes('object') || (types.length === 0 && isObject(merged.properties)) ? 'object' : 'primitive';
  return { shape, schema: merged };
}

/**
 * A query parameter's value, or undefined when the request does not send it. `claimed` are the
 * names of the operation's other query parameters: an exploded object takes the remaining keys.
 */
export function readQueryParameter(
  parameter: ParameterSpec,
  query: QueryValues,
  document: unknown,
  claimed: ReadonlySet<string> = NO_NAMES,
  { shape, schema }: Shaped = shapeOf(parameter.schema, document),
): unknown {
  const name = parameter.name;
  if (parameter.style === 'content') {
    const text = query.get(name)?.[0];
    return text === undefined ? undefined : contentValue(text);
  }
  if (parameter.style === 'deepObject') {
    const object: Record<string, unknown> = {};
    let found = false;
    const prefix = `${name}[`;
    for (const [key, values] of query) {
      if (!key.startsWith(prefix) || !key.endsWith(']')) continue;
      const property = key.slice(prefix.length, -1);
      if (property === '' || property.includes('[')) continue;
      found = true;
      object[property] = values.length > 1 ? values : values[0];
    }
    return found ? coerce(object, schema, document) : undefined;
  }
  if (shape === 'object' && parameter.explode && parameter.style === 'form') {
    const declared = isObject(schema.properties) ? Object.keys(schema.properties) : undefined;
    const object: Record<string, unknown> = {};
    let found = false;
    for (const [key, values] of query) {
      if (declared ? !declared.includes(key) : claimed.has(key) || key === name) continue;
      found = true;
      object[key] = values[0];
    }
    return found ? coerce(object, schema, document) : undefined;
  }
  const values = query.get(name);
  if (values === undefined) return undefined;
  if (shape === 'array') {
    const separator = SEPARATORS[parameter.style];
    const items = parameter.explode || separator === undefined ? values : values.flatMap((value) => (value === '' ? [] : value.split(separator)));
    return coerce([...items], schema, document);
  }
  if (shape === 'object') return coerce(pairs((values[0] ?? '').split(',')), schema, document);
  // A name sent twice is no serialization of one value: judged as the list it is, so it is refused, not read as its first.
  if (values.length > 1) return values.map((value) => coerce(value, schema, document));
  return coerce(values[0], schema, document);
}

const NO_NAMES: ReadonlySet<string> = new Set();

const SEPARATORS: Partial<Record<ParameterStyle, string>> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** A path parameter's value from its segment (already percent-decoded), by style simple, label or matrix. */
export function readPathParameter(parameter: ParameterSpec, segment: string, document: unknown, shaped?: Shaped): unknown {
  if (parameter.style === 'content') return contentValue(segment);
  const { shape, schema } = shaped ?? shapeOf(parameter.schema, document);
  const { explode, name } = parameter;
  if (parameter.style === 'label') {
    if (!segment.startsWith('.')) return segment;
    const body = segment.slice(1);
    if (shape === 'primitive') return coerce(body, schema, document);
    const parts = body === '' ? [] : body.split(explode ? '.' : ',');
    if (shape === 'array') return coerce(parts, schema, document);
    return coerce(explode ? keyValues(parts) : pairs(parts), schema, document);
  }
  if (parameter.style === 'matrix') {
    if (!segment.startsWith(';')) return segment;
    const parts = segment.slice(1).split(';');
    if (shape === 'object' && explode) return coerce(keyValues(parts), schema, document);
    const own = parts.filter((part) => part === name || part.startsWith(`${name}=`)).map((part) => part.slice(name.length + 1));
    if (shape === 'array') return coerce(explode ? own : (own[0] ?? '').split(',').filter((item, i, all) => item !== '' || all.length > 1), schema, document);
    if (shape === 'object') return coerce(pairs((own[0] ?? '').split(',')), schema, document);
    return coerce(own[0] ?? '', schema, document);
  }
  return readSimple(segment, shape, schema, explode, document);
}

/** A header parameter's value (style simple). Several headers of one name arrive joined by `, `. */
export function readHeaderParameter(parameter: ParameterSpec, value: string, document: unknown, shaped?: Shaped): unknown {
  if (parameter.style === 'content') return contentValue(value);
  const { shape, schema } = shaped ?? shapeOf(parameter.schema, document);
  return readSimple(value, shape, schema, parameter.explode, document, true);
}

/** A cookie parameter's value (style form: arrays and objects comma-separated when not exploded, each item percent-decoded). */
export function readCookieParameter(parameter: ParameterSpec, value: string, document: unknown, shaped?: Shaped): unknown {
  if (parameter.style === 'content') return contentValue(percentDecoded(value));
  const { shape, schema } = shaped ?? shapeOf(parameter.schema, document);
  if (shape === 'array') return coerce(value === '' ? [] : value.split(',').map(percentDecoded), schema, document);
  if (shape === 'object') return coerce(pairs(value.split(',').map(percentDecoded)), schema, document);
  return coerce(percentDecoded(value), schema, document);
}

/**
 * A cookie's item decoded: form style percent-encodes what a cookie cannot carry (RFC 6570 form
 * expansion), the separators staying literal; text that is no valid encoding is read as it is.
 */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function readSimple(text: string, shape: Shape, schema: Schema, explode: boolean, document: unknown, trim = false): unknown {
  if (shape === 'primitive') return coerce(text, schema, document);
  const parts = text === '' ? [] : text.split(',').map((part) => (trim ? part.trim() : part));
  if (shape === 'array') return coerce(parts, schema, document);
  return coerce(explode ? keyValues(parts) : pairs(parts), schema, document);
}

/** `['k', 'v', 'k2', 'v2']` → `{k: 'v', k2: 'v2'}`; an odd list is no object (kept as text). */
function pairs(parts: readonly string[]): Record<string, string> | string {
  if (parts.length % 2 !== 0) return parts.join(',');
  const object: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 2) object[parts[i] as string] = parts[i + 1] as string;
  return object;
}

/** `['k=v', 'k2=v2']` → `{k: 'v', k2: 'v2'}`; a part without `=` makes it no object (kept as text). */
function keyValues(parts: readonly string[]): Record<string, string> | string {
  const object: Record<string, string> = {};
  for (const part of parts) {
    const at = part.indexOf('=');
    if (at <= 0) return parts.join(',');
    object[part.slice(0, at)] = part.slice(at + 1);
  }
  return object;
}

/** A `content` parameter: JSON (exact numbers) when it parses, else the text (the validator says why). */
function contentValue(text: string): unknown {
  try {
    return parseExactJson(text);
  } catch {
    return text;
  }
}

/** Deepest nesting coerced: parameters and forms are flat; a hostile schema cannot recurse forever. */
const MAX_COERCE_DEPTH = 16;

/**
 * Text values coerced to what the schema declares: integers and numbers (read exactly, int64
 * included), booleans (`true`/`false`), null (`null` where the schema admits null and not
 * string); arrays item by item, objects property by property. A text that fits none stays text.
 */
export function coerce(value: unknown, schema: Schema | undefined, document: unknown, depth = 0): unknown {
  if (schema === undefined || depth > MAX_COERCE_DEPTH) return value;
  const merged = mergeAllOf(schema, document);
  if (Array.isArray(value)) {
    const items = isObject(merged.items) ? merged.items : undefined;
    return exactly(
      value,
      value.map((item) => coerce(item, items, document, depth + 1)),
    );
  }
  if (isObject(value)) {
    // allOf parts' properties together (mergeAllOf keeps only the last part's `properties`).
    const properties = Object.fromEntries(flattenObject(schema, document).properties);
    const additional = isObject(merged.additionalProperties) ? merged.additionalProperties : undefined;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const own = properties[key];
      out[key] = coerce(inner, isObject(own) ? own : additional, document, depth + 1);
    }
    return exactly(value, out);
  }
  return typeof value === 'string' ? coerceText(value, typesOf(merged)) : value;
}

/**
 * `coerced` (the object or array coerced from the texts of `sent`) with its numbers exact: a
 * number a double does not hold (an int64 id) is only exact as a member of a container
 * `parseExactJson` read, so such a container is read again from its JSON text, literals as sent.
 */
function exactly<T extends object>(sent: T, coerced: T): T {
  const entries = Object.entries(coerced);
  const literal = (key: string, value: unknown): string | undefined => {
    const text = (sent as Record<string, unknown>)[key];
    return typeof value === 'number' && typeof text === 'string' && !SHORT_INTEGER.test(text) && NUMBER.test(text) ? text : undefined;
  };
  const inexact = entries.some(([key, value]) => literal(key, value) !== undefined || (value !== null && typeof value === 'object' && holdsInexactNumbers(value)));
  if (!inexact) return coerced;
  const member = ([key, value]: [string, unknown]): string => literal(key, value) ?? exactJsonText(value);
  const text = Array.isArray(coerced) ? `[${entries.map(member).join(',')}]` : `{${entries.map((entry) => `${JSON.stringify(entry[0])}:${member(entry)}`).join(',')}}`;
  return parseExactJson(text) as T;
}

/** A text as the first of `types` (a schema's) it reads as; itself when none. */
function coerceText(value: string, types: readonly string[]): unknown {
  if (types.includes('string') || types.length === 0) return value;
  if (types.includes('integer') || types.includes('number')) {
    // Digits a double holds exactly (an id, a limit) are that number; anything else is read exactly.
    if (SHORT_INTEGER.test(value)) return Number(value);
    if (NUMBER.test(value)) return parseExactJson(value);
  }
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.includes('null') && value === 'null') return null;
  return value;
}

// JSON's number grammar, as a body's: `01` is not a number there either (JSON.parse throws on it: a 500 once).
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** An integer of at most 15 digits, as JSON writes it: exact in a double, so `Number` reads it as parseExactJson would. */
const SHORT_INTEGER = /^(?:0|[1-9]\d{0,14})$/;

/**
 * A form's fields (urlencoded or multipart, in order; a repeated name several times) as the
 * object its schema describes: a field whose property is an array takes every value, any other
 * its first; each coerced to its property's type (OpenAPI 3.1, 4.8.14.4: form bodies follow the
 * `form` style, exploded).
 */
export function formObject(fields: Iterable<readonly [string, string]>, schema: Schema | undefined, document: unknown): Record<string, unknown> {
  const properties = declaredShapes(schema ?? {}, document);
  const object: Record<string, unknown> = {};
  for (const [name, value] of fields) {
    if (name === '__proto__') continue;
    if (properties.get(name) === 'array') {
      const list = (object[name] ??= []) as unknown[];
      list.push(value);
    } else if (!Object.hasOwn(object, name)) object[name] = value;
  }
  if (!schema) return object;
  // A field no property declares stays text unless additionalProperties gives it a schema: only the declared
  // ones are coerced, so a form of many unknown fields costs one pass over them, not three (issue 39).
  if (isObject(mergeAllOf(schema, document).additionalProperties)) return coerce(object, schema, document) as Record<string, unknown>;
  const declared: Record<string, unknown> = {};
  for (const name of properties.keys()) if (Object.hasOwn(object, name)) declared[name] = object[name];
  const coerced = coerce(declared, schema, document) as Record<string, unknown>;
  for (const name of Object.keys(declared)) {
    object[name] = coerced[name];
    // A number beyond a double is exact only as its container's member: the exact digits move with it.
    copyExactMember(coerced, object, name);
  }
  return object;
}

function declaredShapes(schema: Schema, document: unknown): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  for (const [name, property] of flattenObject(schema, document).properties) shapes.set(name, shapeOf(property, document).shape);
  return shapes;
}
