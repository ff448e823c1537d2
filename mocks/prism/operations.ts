/**
 * The spec's operations as Prism reads them, with corrections: @stoplight/http-spec clamps the
 * bounds of `format: int64` to ±(2^53 − 1) and those of float/double to their ranges, so Prism
 * would reject every int64 beyond 2^53 that the spec allows (declared `minimum` or not), and its
 * samplers would make up a float near −2^128 where the spec says `exclusiveMinimum: 0`. The
 * declared bounds are put back, an int64's with the int64 range, written so that a comparison on
 * the doubles of `parseExactJson`'s view decides exactly as on the literal's digits. The
 * parameters are left out: the edge judges them. An operation without responses gets a 204, the
 * answers' schemas lose their writeOnly properties, their exclusive bounds become inclusive ones
 * just inside (which the samplers read), and their strings with a pattern and no example get one
 * that matches it (openapi/schema/pattern-strings.ts).
 */
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { CompiledContract } from '../../openapi/operations/model.js';
import { LONGEST, PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { mapSubschemas, NAMED_SCHEMA_KEYWORDS, subschemas, VALUE_KEYWORDS, type Judges, type SubschemaFilter } from '../../openapi/schema/keywords.js';
import { escapePointerToken, isObject, resolveRef, resolveRefAt } from '../../openapi/schema/resolve.js';

export type HttpOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

/**
 * Prism's operations for the contract's document (read once by the contract, not again by Prism);
 * `warn` hears, once, of the patterns no string was made for.
 */
export async function loadPrismOperations(contract: CompiledContract, warn: (message: string) => void = () => undefined): Promise<HttpOperations> {
  const widest = widestAllOf(contract.document);
  if (widest && widest.alternatives > MAX_ALTERNATIVES) {
    throw new Error(
      `${contract.source}#${widest.pointer}: its allOf merges oneOf/anyOf branches into ${widest.alternatives >= ALTERNATIVES_CAP ? 'more than a million' : widest.alternatives} alternatives, and Prism's validator (json-schema-merge-allof) expands every one before it answers (4 096 held it past 15 s), so the Prism mock cannot serve this document; the stateful mock (npm start) can.`,
    );
  }
  // Prism dereferences the document in place: give it a copy.
  const document = structuredClone(contract.document);
  keepDeclaredBounds(document, new Set());
  const operations = await getHttpOperationsFromSpec(document);
  restoreDeclaredBounds(operations, new Set());
  const strings = new PatternStrings();
  const seen = new Set<object>();
  // The edge judges every parameter first, by the contract's readers and validators (./parameters.ts).
  // Prism's own reading of them, left to run after, only refused valid ones (a number read into a
  // double, a spaceDelimited value split on `%20` after decoding) or failed (an absent optional array
  // header): Prism is given the operations without them, and keeps its body and credential checks.
  for (const operation of operations) {
    const request = operation.request;
    if (request) for (const place of PARAMETER_PLACES) delete request[place];
    // Prism judges a body's patterns (a string's, an object's keys') with V8's backtracking RegExp, where
    // `^(a+)+$` takes exponential time on a short string: the edge judges them by the contract's
    // linear-time validator (./server.ts) and Prism gets none.
    const memoPatterns = new Map<object, unknown>();
    for (const content of request?.body?.contents ?? []) if (content.schema) content.schema = withoutPatterns(content.schema, memoPatterns) as typeof content.schema;
    // An operation that declares no responses answers 204 without a body, as the stateful mock
    // answers it (engine/examples.ts); Prism, given none to pick, fails the request with a 500.
    if (operation.responses.length === 0) operation.responses.push({ id: `${operation.id}-no-responses`, code: '204', headers: [], contents: [] });
    // Prism's static answer (no example given) is sampled with the writeOnly properties in, each a
    // plain "string" that no pattern allows (a card number in a payment's answer); its dynamic
    // one leaves them out, as OpenAPI says a response does. The answers' schemas are given without them.
    const memo = new Map<object, unknown>();
    const seenBounds = new Set<object>();
    for (const response of operation.responses) {
      for (const header of response.headers ?? []) exemplifyPatterns(header.schema, strings, seen);
      for (const content of response.contents ?? []) {
        if (!content.schema) continue;
        content.schema = withoutWriteOnly(content.schema, memo) as typeof content.schema;
        // Neither sampler reads a numeric exclusive bound (3.1's, and 3.0's once upgraded): the answers' are made inclusive.
        insideExclusiveBounds(content.schema, seenBounds);
        // Both samplers honour minItems and minLength however large: bounded here, an answer stays small.
        boundAnswerSize(content.schema, ANSWER_ROOM, new Map(), 0);
        // The same static sampler writes "string" for a string whose pattern refuses it: such strings get an example made from the pattern.
        exemplifyPatterns(content.schema, strings, seen);
      }
    }
  }
  const refused = strings.refused;
  if (refused.length) {
    const named = refused.slice(0, 5).map((pattern) => JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern));
    const more = refused.length > 5 ? ` and ${refused.length - 5} more` : '';
    warn(
      `answers made up from a schema keep Prism's "string" for the pattern(s) ${named.join(', ')}${more}: no string of at most ${LONGEST} characters fitting the pattern, lengths and format could be made`,
    );
  }
  return operations;
}

const PARAMETER_PLACES = ['path', 'query', 'headers', 'cookie'] as const;

/** The alternatives an allOf may merge into: Prism expands each once per schema, and past this many it holds the process for seconds or hours (docs/benchmarks.md, "Figures behind the code"). */
const MAX_ALTERNATIVES = 256;
const ALTERNATIVES_CAP = 1_000_000;
/** Subtrees holding data rather than schemas (keywords.ts, and a common extension). */
const DATA_KEYS = new Set([...VALUE_KEYWORDS, 'x-examples']);

/**
 * The allOf under `paths` that json-schema-merge-allof (Prism's body validator merges every allOf
 * with it) expands into the most alternatives, and its JSON pointer: the product of the branch
 * counts of each oneOf/anyOf it merges, its parts' and theirs at any depth of allOf (refs
 * followed). `allOf: [Base, {oneOf: [A, B]}]` is 2; six oneOfs of four branches side by side, 4 096.
 */
export function widestAllOf(document: unknown): { pointer: string; alternatives: number } | undefined {
  const alternatives = (node: unknown, merged: Set<object>): number => {
    if (!isObject(node) || merged.has(node)) return 1;
    merged.add(node);
    let product = 1;
    for (const key of ['oneOf', 'anyOf']) if (Array.isArray(node[key])) product *= Math.max((node[key] as unknown[]).length, 1);
    if (Array.isArray(node.allOf)) for (const part of node.allOf as unknown[]) product *= alternatives(resolveRef(part, document), merged);
    return Math.min(product, ALTERNATIVES_CAP);
  };
  let widest: { pointer: string; alternatives: number } | undefined;
  const seen = new Set<object>();
  const pending: Array<{ node: unknown; pointer: string }> = [{ node: (document as { paths?: unknown }).paths, pointer: '/paths' }];
  while (pending.length > 0) {
    const next = pending.pop() as { node: unknown; pointer: string };
    const { target: node, pointer } = resolveRefAt(next.node, document, next.pointer);
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && Array.isArray((node as Record<string, unknown>).allOf)) {
      const count = alternatives(node, new Set());
      if (!widest || count > widest.alternatives) widest = { pointer, alternatives: count };
    }
    for (const [key, value] of Object.entries(node)) {
      if (!Array.isArray(node) && DATA_KEYS.has(key)) continue;
      pending.push({ node: value, pointer: `${pointer}/${escapePointerToken(key)}` });
    }
  }
  return widest;
}

/** The schemas these passes walk (keywords.ts): every one a schema holds but its definitions, which a `$ref` brings where it applies. */
const APPLIED: SubschemaFilter = { skipDefinitions: true };

/**
 * `schema` as a response reads it: every `properties` without its writeOnly members (nor them in
 * `required`). A copy: the request's schemas may share these objects; `memo` keeps cycles finite.
 */
export function withoutWriteOnly(schema: unknown, memo: Map<object, unknown>): unknown {
  if (!isObject(schema)) return schema;
  const known = memo.get(schema);
  if (known !== undefined) return known;
  const copy: Record<string, unknown> = { ...schema };
  memo.set(schema, copy);
  mapSubschemas(schema, (inner) => withoutWriteOnly(inner, memo), APPLIED, copy);
  const properties = schema.properties;
  if (!isObject(properties)) return copy;
  const dropped = new Set(Object.keys(properties).filter((name) => isObject(properties[name]) && properties[name].writeOnly === true));
  if (dropped.size === 0) return copy;
  copy.properties = Object.fromEntries(Object.entries(copy.properties as Record<string, unknown>).filter(([name]) => !dropped.has(name)));
  if (Array.isArray(schema.required)) copy.required = schema.required.filter((name) => !dropped.has(name as string));
  return copy;
}

/** The characters (or items) one made-up answer may take: json-schema-faker's time grows with the items it makes (docs/benchmarks.md, "Figures behind the code"). */
const ANSWER_ROOM = 16_384;
/** Deeper than an answer a person reads; a recursive schema's cycle ends here. */
const ANSWER_DEPTH = 32;

/**
 * Lowers, in place (on withoutWriteOnly's copy), each `minItems` and `minLength` so that an answer
 * made up from `schema` holds at most `room` characters or items: an array's items share its room
 * (its minItems at most the room), an object's properties share theirs. Prism's samplers honour
 * these keywords whatever their size: a huge `minItems` made every request wait long for a 500
 * (json-schema-sampler) and held the process without end (json-schema-faker, `--dynamic`). An
 * answer so bounded breaks its schema: the edge judges it (./answers.ts) and says so in
 * `sl-violations`, as for any answer that does. `rooms` keeps the smallest room each schema was
 * given, so a schema met again is walked again only for a smaller one.
 */
export function boundAnswerSize(schema: unknown, room: number, rooms: Map<object, number>, depth: number): void {
  if (!isObject(schema) || depth > ANSWER_DEPTH) return;
  if ((rooms.get(schema) ?? Infinity) <= room) return;
  rooms.set(schema, room);
  const node = schema;
  if (typeof node.minLength === 'number' && node.minLength > room) node.minLength = room;
  if (typeof node.minItems === 'number' && node.minItems > room) node.minItems = room;
  const shares: Record<AnswerShare, number> = {
    all: 1,
    item: typeof node.minItems === 'number' ? Math.max(node.minItems, 1) : 1,
    property: isObject(node.properties) ? Math.max(Object.keys(node.properties).length, 1) : 1,
    prefixItem: Array.isArray(node.prefixItems) ? Math.max(node.prefixItems.length, 1) : 1,
  };
  for (const { judges, schema: inner } of subschemas(node, APPLIED)) {
    const share = ANSWER_SHARES[judges];
    if (share !== undefined) boundAnswerSize(inner, Math.floor(room / shares[share]), rooms, depth + 1);
  }
}

type AnswerShare = 'all' | 'item' | 'property' | 'prefixItem';

/**
 * How an answer's room is shared with the schemas a schema holds, by what they judge (keywords.ts):
 * the value's own parts (allOf's, a union's branches) get all of it, items and further members a
 * share by minItems, properties and a tuple's items one each. What only tests the value (`not`,
 * `if`), applies under a condition or judges no part of it is left as it is: the samplers make
 * nothing from those.
 */
const ANSWER_SHARES: Partial<Record<Judges, AnswerShare>> = {
  value: 'all',
  item: 'item',
  otherProperties: 'item',
  patternProperty: 'item',
  property: 'property',
  prefixItem: 'prefixItem',
};

/**
 * `schema` without its `pattern` keywords and `patternProperties`, at any depth (a copy; `memo`
 * keeps cycles finite). An object that had `patternProperties` also loses its `additionalProperties`
 * and `unevaluatedProperties`: which keys those cover depends on the patterns, which Prism no longer
 * sees (the edge judges all three, ./server.ts).
 */
export function withoutPatterns(schema: unknown, memo: Map<object, unknown>): unknown {
  if (!isObject(schema)) return schema;
  const known = memo.get(schema);
  if (known !== undefined) return known;
  const { pattern: _pattern, patternProperties, ...copy } = schema;
  if (patternProperties !== undefined) {
    delete copy.additionalProperties;
    delete copy.unevaluatedProperties;
  }
  memo.set(schema, copy);
  // What the copy left out stays out.
  return mapSubschemas(schema, (inner, { keyword }) => (keyword in copy ? withoutPatterns(inner, memo) : inner), APPLIED, copy);
}

/**
 * Replaces, in place (on withoutWriteOnly's copy), each numeric `exclusiveMinimum`/`exclusiveMaximum`
 * by an inclusive bound just inside it: a step of 1 (the next integer for an integer), or halfway to
 * the other bound when that is nearer. json-schema-sampler answers `minimum` where there is one and
 * json-schema-faker reads the exclusive keywords as draft 4's booleans, so `exclusiveMinimum: 0` was
 * answered with -3.4e38 or any negative number. Only answers are made from these schemas: a narrower
 * range there refuses no request.
 */
export function insideExclusiveBounds(schema: unknown, seen: Set<object>): void {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  const node = schema;
  const integer = node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer') && !node.type.includes('number'));
  const number = (key: string): number | undefined => (typeof node[key] === 'number' ? (node[key] as number) : undefined);
  const fits = (value: number): boolean =>
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    !(value <= (number('exclusiveMinimum') ?? -Infinity)) &&
    !(value < (number('minimum') ?? -Infinity)) &&
    !(value >= (number('exclusiveMaximum') ?? Infinity)) &&
    !(value > (number('maximum') ?? Infinity));
  for (const [exclusive, inclusive, direction] of [
    ['exclusiveMinimum', 'minimum', 1],
    ['exclusiveMaximum', 'maximum', -1],
  ] as const) {
    const bound = number(exclusive);
    if (bound === undefined) continue;
    const declared = number(inclusive);
    // An inclusive bound already inside the exclusive one says all it says.
    if (declared !== undefined && declared * direction > bound * direction) {
      delete node[exclusive];
      continue;
    }
    const far = direction > 0 ? Math.min(number('exclusiveMaximum') ?? Infinity, number('maximum') ?? Infinity) : Math.max(number('exclusiveMinimum') ?? -Infinity, number('minimum') ?? -Infinity);
    const step = integer ? (direction > 0 ? Math.floor(bound) + 1 : Math.ceil(bound) - 1) : bound + direction;
    // Past 2^53 a step of 1 is lost to rounding (an int64's 2^63): the next double is the next integer there.
    const inside = [step, nextDouble(bound, direction), (bound + far) / 2].find(fits);
    if (inside === undefined) continue;
    delete node[exclusive];
    node[inclusive] = inside;
  }
  for (const { schema: inner } of subschemas(node, APPLIED)) insideExclusiveBounds(inner, seen);
}

/** The double next to `value` upwards (direction 1) or downwards (-1). */
function nextDouble(value: number, direction: 1 | -1): number {
  if (value === 0) return direction * Number.MIN_VALUE;
  const bits = new BigInt64Array(new Float64Array([value]).buffer);
  bits[0] = (bits[0] as bigint) + (value > 0 === direction > 0 ? 1n : -1n);
  return new Float64Array(bits.buffer)[0] as number;
}

/** What a schema may carry that the sampler answers before it makes a value up. */
const EXAMPLE_KEYWORDS = ['example', 'examples', 'default', 'const', 'enum'];

/**
 * Gives each string schema with a pattern and none of EXAMPLE_KEYWORDS an `examples` entry that
 * fits its pattern, lengths and format, when one can be made; in place (an annotation: where a
 * request's schema shares the object, its validation is unchanged). `seen` keeps cycles finite.
 */
export function exemplifyPatterns(schema: unknown, strings: PatternStrings, seen: Set<object>): void {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  const node = schema;
  if (typeof node.pattern === 'string' && takesString(node.type) && !EXAMPLE_KEYWORDS.some((key) => key in node)) {
    const made = strings.stringFor({
      pattern: node.pattern,
      ...(typeof node.minLength === 'number' ? { minLength: node.minLength } : {}),
      ...(typeof node.maxLength === 'number' ? { maxLength: node.maxLength } : {}),
      ...(typeof node.format === 'string' ? { format: node.format } : {}),
    });
    if (made !== undefined) node.examples = [made];
  }
  for (const { schema: inner } of subschemas(node, APPLIED)) exemplifyPatterns(inner, strings, seen);
}

/** Whether a schema's `type` lets a string through (none said: the sampler reads a pattern as a string's). */
function takesString(type: unknown): boolean {
  return type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'));
}

/** Where a schema's declared bounds wait while http-spec reads the document (it overwrites them). */
const DECLARED_BOUNDS = 'x-plant-store-declared-bounds';
/** The formats whose bounds http-spec clamps to a range other than the one the mocks judge (int32's is exact). */
const CLAMPED_FORMATS = new Set(['int64', 'float', 'double']);
/** Maps whose keys are names (a property called "example" is a schema): the schema keywords' (keywords.ts) and the components'. */
const NAME_MAPS = new Set([...NAMED_SCHEMA_KEYWORDS, 'schemas']);
const INT64_LIMIT = 2 ** 63;

/** Notes, on each schema of a CLAMPED_FORMATS format, the bounds it declares; in place (on Prism's copy). */
export function keepDeclaredBounds(value: unknown, seen: Set<object>, names = false): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  const node = value as Record<string, unknown>;
  if (!Array.isArray(node) && typeof node.format === 'string' && CLAMPED_FORMATS.has(node.format)) {
    node[DECLARED_BOUNDS] = { minimum: node.minimum, maximum: node.maximum };
  }
  for (const [key, inner] of Object.entries(node)) {
    // Values, not schemas: an object in them that says `format` is data, left as it is.
    if (!names && (VALUE_KEYWORDS.has(key) || key.startsWith('x-'))) continue;
    keepDeclaredBounds(inner, seen, !names && NAME_MAPS.has(key));
  }
}

/**
 * Puts back the bounds `keepDeclaredBounds` noted, in place: none where none was declared, and on
 * an int64 the int64 range too, −2^63 ≤ n < 2^63 (2^63 is exact as a double; `<=` against
 * 2^63 − 1, which rounds to 2^63, would admit it).
 */
export function restoreDeclaredBounds(value: unknown, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  const node = value as Record<string, unknown>;
  const declared = node[DECLARED_BOUNDS] as { minimum?: unknown; maximum?: unknown } | undefined;
  if (declared !== undefined) {
    delete node[DECLARED_BOUNDS];
    for (const bound of ['minimum', 'maximum'] as const) {
      if (declared[bound] === undefined) delete node[bound];
      else node[bound] = declared[bound];
    }
    if (node.format === 'int64') {
      node.minimum = typeof node.minimum === 'number' ? Math.max(node.minimum, -INT64_LIMIT) : -INT64_LIMIT;
      node.exclusiveMaximum = typeof node.exclusiveMaximum === 'number' ? Math.min(node.exclusiveMaximum, INT64_LIMIT) : INT64_LIMIT;
    }
  }
  for (const inner of Object.values(node)) restoreDeclaredBounds(inner, seen);
}
