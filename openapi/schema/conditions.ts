/**
 * JSON Schema 2020-12's `if`/`then`/`else` (Core §10.2.2) for the tools that make values rather than
 * judge them: the mock's sampler (./sample.ts) and the suite's generators
 * (contract-tests/generators/schema-values.ts). A value must take `then` when it takes `if`, and
 * `else` when it does not; a generator cannot test a value it has not made yet, so it makes one
 * side true by construction:
 * - the `if` side: the schema met with the `if` (the properties it fixes with `const`/`enum` held
 *   to those values and required) and the `then`: a value of that takes the `if`, so the `then` is
 *   the branch that applies, and takes it;
 * - the `else` side: the `if` made false from the schema itself (a property it fixes given another
 *   value the schema allows, a member it requires left out, a type it does not take), and the
 *   `else` met. Where the schema says no way to make it false, this side is not offered.
 * A condition the schema so far already makes false (a discriminator-like `if` on `kind: b` when
 * an earlier choice fixed `kind: a`) takes its `else` side alone. Several conditions (an `allOf` of
 * them, as 3.1 documents write a discriminated union) are met one after another.
 *
 * What is met is judged by the spec's validator where the value is used, as everything the
 * generators make: the meeting reads only what it must (types, properties, `const`/`enum`, required).
 */
import { isDeepStrictEqual } from 'node:util';
import { isObject, type Schema } from './resolve.js';
import { mergeSchemas } from './shape.js';

/** A schema or `false` (no value); `true` is `{}`. */
export type Part = Schema | false;

/** One `if` with its `then` and `else` (each `{}` when absent: no constraint). */
export interface Conditional {
  if: Part;
  then: Part;
  else: Part;
}

/** How many ways of meeting a schema's conditions are kept (their product may grow with each). */
export const MOST_WAYS = 16;

/**
 * The schema's conditions (its own `if`, and those of `allOf` parts that hold only an `if` with its
 * branches) and the schema without them; undefined when it has none. Parts are as written: refs
 * are the caller's to follow (`resolve`).
 */
export function conditionsOf(node: Schema, resolve: (raw: unknown) => Part = asPart): { rest: Schema; conditionals: Conditional[] } | undefined {
  // Most schemas hold none: answered before anything is copied (the sampler asks this of every node it writes).
  if (!('if' in node) && !(Array.isArray(node.allOf) && node.allOf.some((part) => isObject(part) && 'if' in part))) return undefined;
  const conditionals: Conditional[] = [];
  const read = (holder: Schema): Conditional => ({
    if: resolve(holder.if),
    then: 'then' in holder ? resolve(holder.then) : {},
    else: 'else' in holder ? resolve(holder.else) : {},
  });
  const { if: _if, then: _then, else: _else, ...rest } = node;
  if ('if' in node) conditionals.push(read(node));
  if (Array.isArray(node.allOf)) {
    const others = node.allOf.filter((part) => !(isObject(part) && isConditionOnly(part)));
    for (const part of node.allOf) if (isObject(part) && isConditionOnly(part)) conditionals.push(read(part));
    if (others.length) rest.allOf = others;
    else delete rest.allOf;
  }
  return conditionals.length ? { rest, conditionals } : undefined;
}

/** A part that is only a condition: `if` with its `then`/`else` (and annotations, such as the validator's discriminator note). */
function isConditionOnly(part: Schema): boolean {
  return 'if' in part && Object.keys(part).every((key) => key === 'if' || key === 'then' || key === 'else' || key.startsWith('x-') || key === 'description' || key === '$comment');
}

/** A schema as written, booleans as parts. */
export function asPart(raw: unknown): Part {
  if (raw === false) return false;
  return isObject(raw) ? raw : {};
}

/**
 * The ways to meet every condition, each the schema with one side of each condition met (see the
 * module's note), the `if` sides first; at most `most`. Empty when no way is found.
 */
export function waysToMeet(rest: Schema, conditionals: readonly Conditional[], most = MOST_WAYS): Schema[] {
  let ways: Schema[] = [rest];
  for (const condition of conditionals) {
    const next: Schema[] = [];
    for (const way of ways) {
      if (condition.if === false || contradicts(way, condition.if)) {
        if (condition.else !== false) next.push(meet(way, condition.else) ?? way);
        continue;
      }
      const held = condition.then === false ? undefined : meet(way, condition.if, true);
      const taken = held === undefined || condition.then === false ? undefined : meet(held, condition.then);
      if (taken) next.push(taken);
      const refused = condition.else === false ? undefined : negated(way, condition.if);
      const otherwise = refused === undefined || condition.else === false ? undefined : meet(refused, condition.else);
      if (otherwise) next.push(otherwise);
    }
    ways = next.slice(0, most);
  }
  return ways;
}

/**
 * `way` with `part` met: its keywords merged in (./shape.ts, mergeSchemas), a property both
 * declare met in turn rather than replaced, the values a `const`/`enum` allows on both sides
 * kept, the types both take kept; undefined where they leave none. With `show` (an `if` met), a
 * property `part` fixes is required too: a value that leaves it out would take every such `if` at
 * once (`properties` judges only the members present).
 */
function meet(way: Schema, part: Part, show = false): Schema | undefined {
  if (part === false) return undefined;
  const merged = mergeSchemas(way, part);
  const types = typesMet(way, part);
  if (types === null) return undefined;
  if (types !== undefined) merged.type = types.length === 1 ? types[0] : types;
  const values = valuesMet(way, part);
  if (values === null) return undefined;
  if (values !== undefined) {
    delete merged.const;
    merged.enum = values;
  }
  const own = isObject(way.properties) ? way.properties : {};
  const added = isObject(part.properties) ? part.properties : {};
  const properties: Schema = { ...own };
  const fixed: string[] = [];
  for (const [name, inner] of Object.entries(added)) {
    const before = own[name];
    if (inner === false) return undefined;
    const met = isObject(before) ? meet(before, asPart(inner)) : before === false ? undefined : asPart(inner);
    if (met === undefined || met === false) return undefined;
    properties[name] = met;
    if (show && valuesOf(asPart(inner)) !== undefined) fixed.push(name);
  }
  if (Object.keys(properties).length) merged.properties = properties;
  if (fixed.length) merged.required = [...new Set([...(Array.isArray(merged.required) ? merged.required : []), ...fixed])];
  return merged;
}

/** Whether no value of `way` takes `condition`, as far as the types and the fixed properties tell. */
function contradicts(way: Schema, condition: Schema): boolean {
  if (typesMet(way, condition) === null || valuesMet(way, condition) === null) return true;
  if (!isObjectOnly(way)) return false;
  const required = new Set([...strings(way.required), ...strings(condition.required)]);
  const own = isObject(way.properties) ? way.properties : {};
  for (const [name, inner] of Object.entries(isObject(condition.properties) ? condition.properties : {})) {
    const wanted = valuesOf(asPart(inner));
    const given = valuesOf(asPart(own[name]));
    // A member the value must show, given only values the condition does not take.
    if (required.has(name) && wanted !== undefined && given !== undefined && !given.some((value) => wanted.some((other) => same(value, other)))) return true;
  }
  return false;
}

/**
 * `way` narrowed so that no value of it takes `condition`: a type the condition does not take; a
 * property it fixes given the other values the schema allows; a member it requires left out. Undefined
 * where the schema gives no such way.
 */
function negated(way: Schema, condition: Schema): Schema | undefined {
  const wanted = typeList(condition);
  const given = typeList(way);
  if (wanted !== undefined && given !== undefined) {
    const others = given.filter((type) => !overlaps([type], wanted));
    if (others.length) return { ...way, type: others.length === 1 ? others[0] : others };
  }
  if (!isObjectOnly(way)) return undefined;
  const own = isObject(way.properties) ? way.properties : {};
  for (const [name, inner] of Object.entries(isObject(condition.properties) ? condition.properties : {})) {
    const taken = valuesOf(asPart(inner));
    const allowed = valuesOf(asPart(own[name]));
    if (taken === undefined || allowed === undefined) continue;
    const others = allowed.filter((value) => !taken.some((other) => same(value, other)));
    if (!others.length) continue;
    const { const: _const, ...property } = asPart(own[name]) as Schema;
    return { ...way, properties: { ...own, [name]: { ...property, enum: others } }, required: [...new Set([...strings(way.required), name])] };
  }
  const mandatory = new Set(strings(way.required));
  for (const name of strings(condition.required)) {
    if (mandatory.has(name)) continue;
    const { [name]: _left, ...kept } = own;
    return { ...way, properties: kept };
  }
  return undefined;
}

/** The types both schemas take (integer within number), undefined when either says none, null when none is common. */
function typesMet(a: Schema, b: Schema): string[] | undefined | null {
  const first = typeList(a);
  const second = typeList(b);
  if (first === undefined || second === undefined) return undefined;
  const common = [...first.filter((type) => overlaps([type], second)).map((type) => (type === 'number' && second.includes('integer') && !second.includes('number') ? 'integer' : type))];
  return common.length ? [...new Set(common)] : null;
}

/** The values both schemas allow by `const`/`enum`, undefined when neither fixes any, null when none is common. */
function valuesMet(a: Schema, b: Schema): unknown[] | undefined | null {
  const first = valuesOf(a);
  const second = valuesOf(b);
  if (first === undefined || second === undefined) return first ?? second;
  const common = first.filter((value) => second.some((other) => same(value, other)));
  return common.length ? common : null;
}

function typeList(schema: Schema): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.map(String) : undefined;
}

/** Whether two type lists share a value (an integer is a number). */
function overlaps(first: readonly string[], second: readonly string[]): boolean {
  return first.some((type) => second.includes(type) || (type === 'integer' && second.includes('number')) || (type === 'number' && second.includes('integer')));
}

/** The values a schema fixes (`const`, else `enum`), if it does. */
function valuesOf(part: Part): unknown[] | undefined {
  if (part === false) return [];
  if ('const' in part) return [part.const];
  return Array.isArray(part.enum) ? part.enum : undefined;
}

/** A schema that takes objects only: its type says so, or it has none and declares properties (as the generators read it). */
function isObjectOnly(schema: Schema): boolean {
  const types = typeList(schema);
  return types ? types.length === 1 && types[0] === 'object' : isObject(schema.properties) || Array.isArray(schema.required);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** JSON equality, as `const` and `enum` compare (an object's member order aside). */
function same(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}
