/**
 * A schema rewritten into what mock-json-schema (openapi-backend's generator) reads right: a
 * response's, for an answer generated from it, and a request body's, for the inspector's "Try it" form.
 * That generator knows OpenAPI 3.0's schemas and walks whatever it is given: handed the document's
 * 3.1 schemas it answers `{}` for a type list (`[string, 'null']`), a `const` or a union of a ref
 * and null, and it recurses without end into a recursive schema. So, before it runs:
 *
 * - refs are followed and `allOf` parts merged here; a ref met again inside itself (`Node.children:
 *   [Node]`) is cut where the schema allows it: an optional property is left out, an array without
 *   `minItems` left empty, a union keeps its other branches; where it does not (a required property),
 *   the cut goes up to the nearest place that does, so the value is the shallowest valid one;
 * - a type list becomes its first type other than null, a `const` the value (as `example`, which the
 *   generator answers first), a `pattern` a string matching it (the Prism mock's PatternStrings), 3.1's `examples` its first (`example`), a numeric `exclusiveMinimum`
 *   /`exclusiveMaximum` a bound the generator reads, `anyOf`/`oneOf` the first branch that is not
 *   cut (not null when another is left) merged into the schema, with a `discriminator` its property
 *   fixed to a value that selects that branch (openapi/schema/discriminator.ts);
 * - a `writeOnly` property is left out of a response (it is never answered), a `readOnly` one out of
 *   a request (the server's to set; the request's validator never requires it).
 *
 * The generated value is still judged by the response's validator (./generated-bodies.ts): what this
 * does not cover (patterns, `not`, `uniqueItems` …) is found there. Bounded: depth, schema nodes,
 * and the size of the value itself: the generator honours `minItems` and `minLength` however large,
 * so a schema asking for 10^8 items would hold the process and its memory; a part whose value would
 * pass MAX_CHARACTERS is cut like a recursion (an optional property left out, an array left empty).
 */
import { branchValues, discriminatorOf } from '../../openapi/schema/shape.js';
import { isObject, pointerTarget, type Schema } from '../../openapi/schema/resolve.js';

/** Where nothing valid can be generated: the caller leaves the property out, the array empty, or cuts itself. */
const CUT = Symbol('cut');
type Adapted = Schema | typeof CUT;

/** Deeper than any answer a person reads; past it the branch is cut like a recursion. */
const MAX_DEPTH = 24;
/**
 * Refs and allOf parts followed into one schema: a chain of them (`Admin` allOf `User` allOf
 * `Entity` …) makes no answer deeper, so it gets more room than the value's depth; the bound only
 * keeps the recursion off the stack's end.
 */
const MAX_HOPS = 128;
/** Schema nodes visited per answer: a document whose refs fan out cannot make one answer cost seconds. */
const MAX_NODES = 20_000;
/** JSON characters one generated answer may take (about the mock's default body limit, 1 MiB). */
export const MAX_CHARACTERS = 1_048_576;
/** What a number, boolean or null may take as JSON text, at most (`-1.7976931348623157e+308`). */
const SCALAR_CHARACTERS = 24;

export interface MockableOptions {
  /** Whether the schema's own `example`, `examples` and `default` are used; off for the second try. */
  examples: boolean;
  /** A string matching a `pattern` (with the schema's lengths and format), which the generator cannot write; undefined when none was made. */
  patternString?: (keywords: { pattern: string; minLength?: number; maxLength?: number; format?: string }) => string | undefined;
  /** What the value is (default response): which of `readOnly`/`writeOnly` properties it leaves out. */
  direction?: 'request' | 'response';
}

/** `schema` as mock-json-schema reads it, or undefined when no finite valid value is reachable within the bounds. */
export function mockableSchema(schema: unknown, document: unknown, options: MockableOptions): Schema | undefined {
  let nodes = 0;
  /** The JSON characters the generator writes for each adapted schema, at most (what `sized` recorded). */
  const sizes = new WeakMap<Schema, number>();
  const sized = (adapted: Schema, characters: number): Adapted => {
    if (characters > MAX_CHARACTERS) return CUT;
    sizes.set(adapted, characters);
    return adapted;
  };
  const sizeOf = (adapted: Schema): number => sizes.get(adapted) ?? SCALAR_CHARACTERS;
  const adapt = (raw: unknown, refs: ReadonlySet<string>, depth: number): Adapted => {
    if (raw === false || depth > MAX_DEPTH || ++nodes > MAX_NODES) return CUT;
    if (!isObject(raw)) return {};
    const flat = flatten(raw, refs, 0);
    if (flat === CUT) return CUT;
    const { node, seen, self } = flat;
    return shape(node, seen, depth, self);
  };

  /**
   * The schema with its ref followed and its allOf parts merged (the refs on the way remembered;
   * `self`, the ref it was reached by). An allOf part that is `skip` is left out: a union's branch
   * that inherits from the union's own schema (`Pet: {oneOf: [Dog]}`, `Dog: {allOf: [Pet, …]}`)
   * is its own parts beside the union's other keywords, as openapi/schema/discriminator.ts judges it.
   */
  const flatten = (raw: Schema, refs: ReadonlySet<string>, hops: number, skip?: string): Flat | typeof CUT => {
    if (hops > MAX_HOPS || ++nodes > MAX_NODES) return CUT;
    let seen = refs;
    let node: Schema = raw;
    if (typeof raw.$ref === 'string') {
      if (refs.has(raw.$ref)) return CUT;
      seen = new Set([...refs, raw.$ref]);
      const target = pointerTarget(document, raw.$ref);
      if (target === false) return CUT;
      const { $ref: _ref, ...siblings } = raw;
      const resolved = isObject(target) ? flatten(target, seen, hops + 1, skip) : { node: {}, seen };
      if (resolved === CUT) return CUT;
      seen = resolved.seen;
      node = merge(resolved.node, siblings);
    }
    if (Array.isArray(node.allOf)) {
      const { allOf, ...own } = node;
      let merged: Schema = {};
      for (const part of allOf as unknown[]) {
        if (part === false) return CUT;
        if (!isObject(part) || (skip !== undefined && part.$ref === skip)) continue;
        const flat = flatten(part, seen, hops + 1, skip);
        if (flat === CUT) return CUT;
        seen = new Set([...seen, ...flat.seen]);
        merged = merge(merged, flat.node);
      }
      node = merge(merged, own);
    }
    return typeof raw.$ref === 'string' ? { node, seen, self: raw.$ref } : { node, seen };
  };

  const shape = (node: Schema, refs: ReadonlySet<string>, depth: number, self?: string): Adapted => {
    const out: Schema = {};
    if ('const' in node) return { example: node.const };
    if (options.examples) {
      if (Array.isArray(node.examples) && node.examples.length > 0) return { example: node.examples[0] };
      if (node.example !== undefined) return { example: node.example };
      if (node.default !== undefined) return { example: node.default };
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = node[key];
      if (!Array.isArray(branches)) continue;
      const { [key]: _branches, ...rest } = node;
      // Each branch written with a value of the discriminating property that selects it, as the validator judges it.
      const discriminated = discriminatorOf(node, document);
      const pinned = (flat: Flat, index: number): Flat => {
        const value = branchValues(discriminated, index)[0];
        if (discriminated === undefined || value === undefined) return flat;
        return { ...flat, node: merge(flat.node, { properties: { [discriminated.propertyName]: { const: value } }, required: [discriminated.propertyName] }) };
      };
      const kept = branches
        .map((branch, index) => {
          const flat = isObject(branch) ? flatten(branch, refs, 0, self) : branch === true ? { node: {}, seen: refs } : CUT;
          return flat === CUT ? CUT : pinned(flat, index);
        })
        .filter((flat) => flat !== CUT);
      const chosen = kept.find((flat) => !isNullOnly(flat.node)) ?? kept[0];
      if (!chosen) return CUT;
      return shape(merge(rest, chosen.node), chosen.seen, depth);
    }
    const types = Array.isArray(node.type) ? node.type.map(String) : typeof node.type === 'string' ? [node.type] : [];
    const type = types.find((t) => t !== 'null') ?? types[0] ?? (isObject(node.properties) || Array.isArray(node.required) ? 'object' : node.items !== undefined ? 'array' : undefined);
    if (type === 'string' && typeof node.pattern === 'string') {
      const made = options.patternString?.({
        pattern: node.pattern,
        ...numberKeyword(node, 'minLength'),
        ...numberKeyword(node, 'maxLength'),
        ...(typeof node.format === 'string' ? { format: node.format } : {}),
      });
      if (made !== undefined) return sized({ example: made }, JSON.stringify(made).length);
    }
    if (type !== undefined) out.type = type;
    if (Array.isArray(node.enum) && node.enum.length > 0) out.enum = node.enum;
    for (const key of ['format', 'minLength', 'maxLength', 'multipleOf', 'minItems', 'maxItems']) if (node[key] !== undefined) out[key] = node[key];
    Object.assign(out, bounds(node, type));
    if (type === 'object') {
      const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
      const properties: Schema = {};
      let characters = 2;
      for (const [name, inner] of Object.entries(isObject(node.properties) ? node.properties : {})) {
        if (isObject(inner) && (options.direction === 'request' ? inner.readOnly === true : inner.writeOnly === true && !required.has(name))) continue;
        const adapted = adapt(inner, refs, depth + 1);
        const member = adapted === CUT ? Infinity : JSON.stringify(name).length + 2 + sizeOf(adapted);
        if (adapted !== CUT && characters + member <= MAX_CHARACTERS) {
          properties[name] = adapted;
          characters += member;
        } else if (required.has(name)) return CUT;
      }
      out.properties = properties;
      return sized(out, characters);
    }
    if (type === 'array') {
      const items = node.items === undefined ? {} : adapt(node.items, refs, depth + 1);
      const minItems = typeof node.minItems === 'number' ? node.minItems : 0;
      // The generator writes minItems items, one when there is no minItems.
      const characters = items === CUT ? Infinity : 2 + Math.max(minItems, 1) * (sizeOf(items) + 1);
      if (items !== CUT && node.maxItems !== 0 && characters <= MAX_CHARACTERS) out.items = items;
      else if (minItems > 0) return CUT;
      return sized(out, out.items === undefined ? 2 : characters);
    }
    if (type === 'string') return sized(out, 2 + Math.max(typeof node.minLength === 'number' ? node.minLength : 0, FORMAT_CHARACTERS));
    return out;
  };

  const top = adapt(schema, new Set(), 0);
  return top === CUT ? undefined : top;
}

interface Flat {
  node: Schema;
  seen: ReadonlySet<string>;
  self?: string;
}

/** mock-json-schema's longest string short of minLength (its date-time example). */
const FORMAT_CHARACTERS = 24;

/** 3.1's numeric exclusive bounds as the inclusive `minimum`/`maximum` mock-json-schema reads. */
function bounds(node: Schema, type: string | undefined): Schema {
  if (type !== 'integer' && type !== 'number') return {};
  let minimum = typeof node.minimum === 'number' ? node.minimum : undefined;
  let maximum = typeof node.maximum === 'number' ? node.maximum : undefined;
  const exclusiveMinimum = typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum : undefined;
  const exclusiveMaximum = typeof node.exclusiveMaximum === 'number' ? node.exclusiveMaximum : undefined;
  if (type === 'integer') {
    if (exclusiveMinimum !== undefined) minimum = Math.max(minimum ?? -Infinity, Math.floor(exclusiveMinimum) + 1);
    if (exclusiveMaximum !== undefined) maximum = Math.min(maximum ?? Infinity, Math.ceil(exclusiveMaximum) - 1);
  } else {
    const high = exclusiveMaximum ?? maximum;
    const low = exclusiveMinimum ?? minimum;
    // Strictly inside: halfway to the other bound, or one past this one.
    if (exclusiveMinimum !== undefined) minimum = Math.max(minimum ?? -Infinity, high !== undefined ? (exclusiveMinimum + high) / 2 : exclusiveMinimum + 1);
    if (exclusiveMaximum !== undefined) maximum = Math.min(maximum ?? Infinity, low !== undefined ? (low + exclusiveMaximum) / 2 : exclusiveMaximum - 1);
  }
  return { ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) };
}

function numberKeyword(node: Schema, key: 'minLength' | 'maxLength'): Partial<Record<typeof key, number>> {
  return typeof node[key] === 'number' ? { [key]: node[key] } : {};
}

function isNullOnly(schema: Schema): boolean {
  return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null') || ('const' in schema && schema.const === null);
}

/** Two parts as one: later keywords win, except properties (merged by name) and required (united). */
function merge(earlier: Schema, later: Schema): Schema {
  const out: Schema = { ...earlier, ...later };
  if (isObject(earlier.properties) || isObject(later.properties)) {
    out.properties = { ...(isObject(earlier.properties) ? earlier.properties : {}), ...(isObject(later.properties) ? later.properties : {}) };
  }
  if (Array.isArray(earlier.required) || Array.isArray(later.required)) {
    out.required = [...new Set([...(Array.isArray(earlier.required) ? earlier.required : []), ...(Array.isArray(later.required) ? later.required : [])])];
  }
  return out;
}
