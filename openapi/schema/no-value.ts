/**
 * Schemas no value can match, proven from their keywords alone: a spec's fault, which no answer can
 * mend. The judge says so (a warning naming the keyword) instead of failing the answer, and the mock
 * answers the closest body it can make (mocks/engine/error-answers.ts). Only what is certain is said:
 * `false`, `enum: []`, `not` of everything, an `allOf` with such a part, a union whose every branch is
 * one, and a `oneOf` whose every live branch is another branch written again (annotations aside:
 * pi-hole's set_blocking 400 writes `oneOf: [no_payload, item_missing]`, two objects differing only
 * in their descriptions and examples). A value that matches such a branch matches its twin too, and
 * oneOf takes exactly one. Anything else, however narrow, is taken as satisfiable.
 *
 * Bounded against a hostile spec: refs are followed to a fixed depth and a ref already being read
 * (a recursive schema) is taken as satisfiable; a branch too large to write out is never called a twin.
 */
import { NAMED_SCHEMA_KEYWORDS, VALUE_KEYWORDS } from './keywords.js';
import { isObject, resolveRef } from './resolve.js';

/** How deep the walk follows allOf parts, union branches and refs. */
const DEEPEST = 32;
/** The most nodes a branch is written out with to compare it with another. */
const LARGEST = 5000;

/** Keywords that say nothing about which values a schema takes (OpenAPI and JSON Schema annotations). */
const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'externalDocs', 'xml', '$id', '$anchor']);

/**
 * Why `schema` (read in `document`) accepts no value, naming the keyword by its JSON pointer from the
 * schema; undefined when it may accept one.
 */
export function whyNoValue(schema: unknown, document: unknown): string | undefined {
  return walk(schema, document, '', 0, new Set());
}

function walk(node: unknown, document: unknown, at: string, depth: number, reading: ReadonlySet<string>): string | undefined {
  if (node === false) return `${at || 'the schema'} is false`;
  if (!isObject(node) || depth > DEEPEST) return undefined;
  let schema = node;
  let active = reading;
  if (typeof schema.$ref === 'string') {
    if (active.has(schema.$ref)) return undefined;
    active = new Set([...active, schema.$ref]);
    const own = walk(resolveRef(schema, document), document, at, depth + 1, active);
    if (own !== undefined) return own;
    const { $ref: _ref, ...siblings } = schema;
    schema = siblings;
  }
  if (Array.isArray(schema.enum) && schema.enum.length === 0) return `${at}/enum lists no value`;
  if (schema.not === true || (isObject(schema.not) && Object.keys(schema.not).every((key) => ANNOTATIONS.has(key) || key.startsWith('x-')))) {
    return `${at}/not refuses every value`;
  }
  if (Array.isArray(schema.allOf)) {
    for (const [i, part] of schema.allOf.entries()) {
      const reason = walk(part, document, `${at}/allOf/${i}`, depth + 1, active);
      if (reason !== undefined) return reason;
    }
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) {
    const reasons = schema.anyOf.map((branch, i) => walk(branch, document, `${at}/anyOf/${i}`, depth + 1, active));
    if (reasons.every((reason) => reason !== undefined)) return `no branch of ${at}/anyOf accepts a value (${reasons[0]})`;
  }
  // A discriminator may tell two alike branches apart by their names: left alone.
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0 && schema.discriminator === undefined) {
    const branches = schema.oneOf;
    const live = branches.map((_, i) => i).filter((i) => walk(branches[i], document, `${at}/oneOf/${i}`, depth + 1, active) === undefined);
    if (live.length === 0) return `no branch of ${at}/oneOf accepts a value`;
    const written = new Map(live.map((i) => [i, writtenOut(branches[i], document)]));
    const twinOf = (i: number): number | undefined => {
      const text = written.get(i);
      return text === undefined ? undefined : live.find((j) => j !== i && written.get(j) === text);
    };
    if (live.every((i) => twinOf(i) !== undefined)) {
      const first = live[0] as number;
      return `${at}/oneOf/${first} and ${at}/oneOf/${twinOf(first)} are the same schema (annotations aside): a value matching one matches both, and oneOf takes a value matching exactly one`;
    }
  }
  return undefined;
}

/** The values a schema takes, written one way: refs followed, annotations and `x-` extensions left out, keys sorted; undefined past the bounds. */
function writtenOut(schema: unknown, document: unknown): string | undefined {
  let nodes = 0;
  /** `as`: how the node is read — a schema (its annotations dropped), a map of names to schemas, or data (`enum`, `const`: written as it is). */
  const write = (node: unknown, depth: number, reading: ReadonlySet<string>, as: 'schema' | 'names' | 'data'): unknown => {
    if (++nodes > LARGEST || depth > DEEPEST) throw new RangeError('too large to compare');
    if (node === null || typeof node !== 'object') return node;
    if (as === 'data') return node;
    if (Array.isArray(node)) return node.map((item) => write(item, depth + 1, reading, 'schema'));
    const record = node as Record<string, unknown>;
    if (as === 'names')
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((name) => [name, write(record[name], depth + 1, reading, 'schema')]),
      );
    if (typeof record.$ref === 'string') {
      // A recursive ref is compared by its name: two branches are twins only if they recur alike.
      if (reading.has(record.$ref)) return { $ref: record.$ref };
      const { $ref, ...siblings } = record;
      const target = resolveRef(record, document);
      return { ref: write(target, depth + 1, new Set([...reading, $ref as string]), 'schema'), siblings: write(siblings, depth + 1, reading, 'schema') };
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) {
      if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
      out[key] = write(record[key], depth + 1, reading, VALUE_KEYWORDS.has(key) ? 'data' : NAMED_SCHEMA_KEYWORDS.has(key) ? 'names' : 'schema');
    }
    return out;
  };
  try {
    return JSON.stringify(write(schema, 0, new Set(), 'schema'));
  } catch {
    return undefined;
  }
}
