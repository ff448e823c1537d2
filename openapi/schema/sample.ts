/**
 * A representative value of a schema, for everything the mock makes up: answers generated from a
 * response schema (mocks/engine/generated-bodies.ts), the inspector's "Try it" body
 * (mocks/admin/body-prefill.ts), the required members of its own error bodies, records and list
 * pages (mocks/engine/error-answers.ts, stateful.ts) and required response headers
 * (mocks/engine/declared-headers.ts). The contract suite draws many values per schema with
 * fast-check (contract-tests/generators/schema-values.ts), a different job; the Prism mock keeps
 * Prism's own sampler, as being Prism is its job.
 *
 * Why ours and not a library: mock-json-schema (openapi-backend's generator, used before) reads
 * OpenAPI 3.0 only (a type list, `const`, `prefixItems`, 3.1's exclusive bounds and refs are lost
 * on it, and it recurses without end into a recursive schema), so the mock rewrote every schema
 * into its terms first and kept a second, smaller sampler for error answers.
 * @stoplight/json-schema-sampler (Prism's) is draft 7 (no `prefixItems`, discriminator or
 * pattern) and keeps its refs in module-global state. A valid value needs the walk (refs, allOf,
 * unions, recursion, size), which is this module; the leaves are a short table.
 *
 * How a value is made:
 * - refs are followed and `allOf` parts merged; a ref met again inside itself (`Node.children:
 *   [Node]`) is cut where the schema allows it: an optional property is left out, an array without
 *   `minItems` left empty, a union keeps its other branches; where it does not (a required
 *   property), the cut goes up to the nearest place that does: the shallowest valid value;
 * - `const`, then (unless `examples` is off) the first of `examples`, `example`, `default`; then
 *   the first `enum` value;
 * - `if`/`then`/`else`: the `if` and `then` met, else the `if` made false and `else` met, the
 *   first way not cut (./conditions.ts);
 * - `anyOf`/`oneOf`: the first branch not cut (not null when another is left) merged into the
 *   schema, a `discriminator`'s property fixed to a value that selects it (./discriminator.ts);
 * - a type list: its first type other than null. An object: every property (`least`: the required
 *   ones; optional ones added up to `minProperties`, none past `maxProperties`), a `writeOnly` one left out of a response, a `readOnly` one out of a request. An array:
 *   its `prefixItems`, then items up to `minItems` (at least one unless `least`). A boolean: true
 *   (`least`: false). A number: 0 moved inside its bounds and onto its `multipleOf`. A string: its
 *   format's sample, one matching its `pattern` (by `patternString`; when it makes none, the plain string
 *   if the pattern takes it, else cut), else "string" cut or
 *   repeated to its lengths.
 *
 * Where a value is used it is still judged by the schema's validator: what this does not read
 * (`not`, `uniqueItems`, an `if` made true or false by keywords conditions.ts does not read …) is
 * found there. Bounded: depth, schema nodes, and the value's size: `minItems` and `minLength` are
 * honoured however large, so a part whose value would pass MAX_CHARACTERS is cut like a recursion
 * rather than hold the process and its memory.
 */
import type { StringKeywords } from './pattern-strings.js';
import { conditionsOf, waysToMeet, type Part } from './conditions.js';
import { linearRegExp } from './patterns.js';
import { isObject, pointerTarget, type Schema } from './resolve.js';
import { branchValues, discriminatorOf, mergeSchemas } from './shape.js';

export interface SampleOptions {
  /** The document the schema's refs point into. */
  document: unknown;
  /** Whether the schema's own `examples`, `example` and `default` are answered (default: yes). */
  examples?: boolean;
  /**
   * Only what the schema requires: its required properties, `minItems` items, false for a boolean
   * (an error answer's `success` or `valid` says no). Default: every property, at least one item, true.
   */
  least?: boolean;
  /** What the value is (default response): which of `readOnly`/`writeOnly` properties it leaves out. */
  direction?: 'request' | 'response';
  /**
   * A string matching a `pattern` (with the schema's lengths and format); undefined when none was
   * made, and then the string is cut (no string of it is made). Without it a pattern is not read.
   */
  patternString?: (keywords: StringKeywords) => string | undefined;
}

/** Deeper than any value a person reads; past it the branch is cut like a recursion. */
const MAX_DEPTH = 24;
/**
 * Refs and allOf parts followed into one schema: a chain of them (`Admin` allOf `User` allOf
 * `Entity` …) makes no value deeper, so it gets more room than the value's depth; the bound only
 * keeps the recursion off the stack's end.
 */
const MAX_HOPS = 128;
/** Schema nodes visited per value: a document whose refs fan out cannot make one value cost seconds. */
const MAX_NODES = 20_000;
/** JSON characters one value may take (about the mock's default body limit, 1 MiB). */
export const MAX_CHARACTERS = 1_048_576;

/** Where nothing valid can be made: the caller leaves the property out, the array empty, or cuts itself. */
const CUT = Symbol('cut');
/** A value and the JSON characters it takes, at most. */
interface Made {
  value: unknown;
  characters: number;
}
type Outcome = Made | typeof CUT;

/**
 * A value of `schema`, or undefined when no finite one is reachable within the bounds. It may share
 * parts with the document (an example's object): copy it before changing it.
 */
export function sample(schema: unknown, options: SampleOptions): { value: unknown } | undefined {
  const made = new Walk(options).value(schema, new Set(), 0);
  return made === CUT ? undefined : { value: made.value };
}

/**
 * The least value a required member takes: only the required parts of `schema` (`least`), null
 * when it has none within the bounds. For the members the mock's own answers must carry.
 */
export function leastSample(schema: unknown, document: unknown): unknown {
  return sample(schema, { document, least: true })?.value ?? null;
}

/**
 * The values to try, in order, where a value must pass the schema's validator: with the schema's
 * own examples and defaults, then without them (an example that breaks its own schema sinks only
 * the first).
 */
export function* samples(schema: unknown, options: Omit<SampleOptions, 'examples'>): Generator<unknown> {
  for (const examples of [true, false]) {
    const made = sample(schema, { ...options, examples });
    if (made) yield made.value;
  }
}

interface Flat {
  node: Schema;
  seen: ReadonlySet<string>;
  self?: string;
}

/** One value's walk: the options and the nodes visited so far. */
class Walk {
  readonly #options: SampleOptions;
  #nodes = 0;

  constructor(options: SampleOptions) {
    this.#options = options;
  }

  value(raw: unknown, refs: ReadonlySet<string>, depth: number): Outcome {
    if (raw === false || depth > MAX_DEPTH || ++this.#nodes > MAX_NODES) return CUT;
    if (!isObject(raw)) return made({});
    const flat = this.#flatten(raw, refs, 0);
    if (flat === CUT) return CUT;
    return this.#shaped(flat.node, flat.seen, depth, flat.self);
  }

  /**
   * The schema with its ref followed and its allOf parts merged (the refs on the way remembered;
   * `self`, the ref it was reached by). An allOf part that is `skip` is left out: a union's branch
   * that inherits from the union's own schema (`Pet: {oneOf: [Dog]}`, `Dog: {allOf: [Pet, …]}`)
   * is its own parts beside the union's other keywords, as openapi/schema/discriminator.ts judges it.
   */
  #flatten(raw: Schema, refs: ReadonlySet<string>, hops: number, skip?: string): Flat | typeof CUT {
    if (hops > MAX_HOPS || ++this.#nodes > MAX_NODES) return CUT;
    let seen = refs;
    let node: Schema = raw;
    if (typeof raw.$ref === 'string') {
      if (refs.has(raw.$ref)) return CUT;
      seen = new Set([...refs, raw.$ref]);
      const target = pointerTarget(this.#options.document, raw.$ref);
      if (target === false) return CUT;
      const { $ref: _ref, ...siblings } = raw;
      const resolved = isObject(target) ? this.#flatten(target, seen, hops + 1, skip) : { node: {}, seen };
      if (resolved === CUT) return CUT;
      seen = resolved.seen;
      node = mergeSchemas(resolved.node, siblings);
    }
    if (Array.isArray(node.allOf)) {
      const { allOf, ...own } = node;
      let merged: Schema = {};
      for (const part of allOf as unknown[]) {
        if (part === false) return CUT;
        if (!isObject(part) || (skip !== undefined && part.$ref === skip)) continue;
        const flat = this.#flatten(part, seen, hops + 1, skip);
        if (flat === CUT) return CUT;
        seen = new Set([...seen, ...flat.seen]);
        merged = mergeSchemas(merged, flat.node);
      }
      node = mergeSchemas(merged, own);
    }
    return typeof raw.$ref === 'string' ? { node, seen, self: raw.$ref } : { node, seen };
  }

  #shaped(node: Schema, refs: ReadonlySet<string>, depth: number, self?: string): Outcome {
    if ('const' in node) return made(node.const);
    if (this.#options.examples !== false) {
      if (Array.isArray(node.examples) && node.examples.length > 0) return made(node.examples[0]);
      if (node.example !== undefined) return made(node.example);
      if (node.default !== undefined) return made(node.default);
    }
    // `if`/`then`/`else`: one side of each condition met by construction (./conditions.ts); the next way where one is cut.
    const conditional = conditionsOf(node, (raw) => this.#part(raw, refs));
    if (conditional) {
      for (const way of waysToMeet(conditional.rest, conditional.conditionals)) {
        const outcome = this.#shaped(way, refs, depth, self);
        if (outcome !== CUT) return outcome;
      }
      return CUT;
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = node[key];
      if (!Array.isArray(branches)) continue;
      const { [key]: _branches, ...rest } = node;
      // Each branch written with a value of the discriminating property that selects it, as the validator judges it.
      const discriminated = discriminatorOf(node, this.#options.document);
      const pinned = (flat: Flat, index: number): Flat => {
        const value = branchValues(discriminated, index)[0];
        if (discriminated === undefined || value === undefined) return flat;
        return { ...flat, node: mergeSchemas(flat.node, { properties: { [discriminated.propertyName]: { const: value } }, required: [discriminated.propertyName] }) };
      };
      const kept = branches
        .map((branch, index) => {
          const flat = isObject(branch) ? this.#flatten(branch, refs, 0, self) : branch === true ? { node: {}, seen: refs } : CUT;
          return flat === CUT ? CUT : pinned(flat, index);
        })
        .filter((flat) => flat !== CUT);
      const chosen = kept.find((flat) => !isNullOnly(flat.node)) ?? kept[0];
      if (!chosen) return CUT;
      return this.#shaped(mergeSchemas(rest, chosen.node), chosen.seen, depth);
    }
    if (Array.isArray(node.enum) && node.enum.length > 0) return made(node.enum[0]);
    const types = Array.isArray(node.type) ? node.type.map(String) : typeof node.type === 'string' ? [node.type] : [];
    const type = types.find((t) => t !== 'null') ?? types[0] ?? impliedType(node);
    switch (type) {
      case 'object':
        return this.#object(node, refs, depth);
      case 'array':
        return this.#array(node, refs, depth);
      case 'string':
        return this.#string(node);
      case 'integer':
      case 'number':
        return made(numberOf(node, type));
      case 'boolean':
        return made(!this.#options.least);
      case 'null':
        return made(null);
      default:
        return made({});
    }
  }

  /** A condition's part with its ref followed and allOf parts merged: `false` where no value takes it. */
  #part(raw: unknown, refs: ReadonlySet<string>): Part {
    if (raw === false) return false;
    if (!isObject(raw)) return {};
    const flat = this.#flatten(raw, refs, 0);
    return flat === CUT ? false : flat.node;
  }

  #object(node: Schema, refs: ReadonlySet<string>, depth: number): Outcome {
    const { direction, least } = this.#options;
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    const properties = isObject(node.properties) ? node.properties : {};
    const value: Record<string, unknown> = {};
    let characters = 2;
    // A required member without a property of its own takes the schema's additionalProperties, else any value (null).
    const others = isObject(node.additionalProperties) ? node.additionalProperties : null;
    const names = objectNames(node, required, Object.keys(properties), least === true);
    for (const name of names) {
      const inner = Object.hasOwn(properties, name) ? properties[name] : others;
      if (isObject(inner) && (direction === 'request' ? inner.readOnly === true : inner.writeOnly === true && !required.has(name))) continue;
      const member = inner === null ? made(null) : this.value(inner, refs, depth + 1);
      const size = member === CUT ? Infinity : JSON.stringify(name).length + 2 + member.characters;
      if (member !== CUT && characters + size <= MAX_CHARACTERS) {
        value[name] = member.value;
        characters += size;
      } else if (required.has(name)) return CUT;
    }
    return { value, characters };
  }

  #array(node: Schema, refs: ReadonlySet<string>, depth: number): Outcome {
    const minItems = typeof node.minItems === 'number' ? node.minItems : 0;
    const maxItems = typeof node.maxItems === 'number' ? node.maxItems : Infinity;
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    const values: unknown[] = [];
    let characters = 2;
    const add = (item: Made, count: number): boolean => {
      if (characters + count * (item.characters + 1) > MAX_CHARACTERS) return false;
      // The same value each time (a caller copies before changing it, as `sample` says).
      for (let i = 0; i < count; i++) values.push(item.value);
      characters += count * (item.characters + 1);
      return true;
    };
    const wanted = Math.min(maxItems, Math.max(minItems, this.#options.least ? 0 : Math.max(1, prefix.length)));
    for (const [index, inner] of prefix.entries()) {
      if (index >= wanted) break;
      const item = this.value(inner, refs, depth + 1);
      if (item === CUT || !add(item, 1)) return index < minItems ? CUT : { value: values, characters };
    }
    const rest = wanted - values.length;
    if (rest > 0 && node.items !== false) {
      const item = node.items === undefined ? made({}) : this.value(node.items, refs, depth + 1);
      if (item === CUT || !add(item, rest)) return values.length < minItems ? CUT : { value: values, characters };
    }
    return values.length < minItems ? CUT : { value: values, characters };
  }

  #string(node: Schema): Outcome {
    if (typeof node.pattern === 'string' && this.#options.patternString !== undefined) {
      const matching = this.#options.patternString({
        pattern: node.pattern,
        ...numberKeyword(node, 'minLength'),
        ...numberKeyword(node, 'maxLength'),
        ...(typeof node.format === 'string' ? { format: node.format } : {}),
      });
      if (matching !== undefined) return made(matching);
      // No string was made to match (a pattern nothing matches, `/^a$/` with its slashes; one randexp
      // cannot write): the plain string where the pattern takes it, else the part is cut like a
      // recursion, left out where the schema allows (an optional member, an array without minItems).
      const plain = plainString(node);
      return plain !== undefined && matches(node.pattern, plain) ? made(plain) : CUT;
    }
    const plain = plainString(node);
    return plain === undefined ? CUT : made(plain);
  }
}

/**
 * The members an object value takes: the required ones (`least`) or every property, then as many
 * optional properties as `minProperties` asks for, and no more than `maxProperties` allows (the
 * required ones kept first).
 */
function objectNames(node: Schema, required: ReadonlySet<string>, declared: readonly string[], least: boolean): string[] {
  const names = least ? [...required] : [...new Set([...declared, ...required])];
  const minProperties = typeof node.minProperties === 'number' ? node.minProperties : 0;
  for (const name of declared) {
    if (names.length >= minProperties) break;
    if (!names.includes(name)) names.push(name);
  }
  const maxProperties = typeof node.maxProperties === 'number' ? node.maxProperties : Infinity;
  if (names.length <= maxProperties) return names;
  let room = maxProperties - names.filter((name) => required.has(name)).length;
  return names.filter((name) => required.has(name) || room-- > 0);
}

/** A string of the schema's format, else "string" cut or repeated to its lengths; undefined past MAX_CHARACTERS. */
function plainString(node: Schema): string | undefined {
  const format = typeof node.format === 'string' && Object.hasOwn(FORMAT_SAMPLES, node.format) ? FORMAT_SAMPLES[node.format] : undefined;
  if (format !== undefined) return format;
  const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
  if (minLength + 2 > MAX_CHARACTERS) return undefined;
  const maxLength = typeof node.maxLength === 'number' ? node.maxLength : Infinity;
  return PLAIN.repeat(Math.ceil(minLength / PLAIN.length) || 1).slice(0, Math.max(Math.min(PLAIN.length, maxLength), minLength));
}

/** Whether `text` matches `pattern` as the spec's validator reads it (linear time); a pattern it cannot compile is not judged here. */
function matches(pattern: string, text: string): boolean {
  try {
    return linearRegExp(pattern, 'u').test(text);
  } catch {
    return true;
  }
}

/** What a string says when nothing else is known of it (as Swagger UI, Prism and openapi-backend write it). */
const PLAIN = 'string';

/** A value of each format that the validator's formats take, pointing nowhere real (RFC 2606, 5737, 3849). */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  duration: 'PT0S',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': '/path',
  'iri-reference': '/path',
  'uri-template': '/path/{param}',
  'json-pointer': '/path',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-0000-0000-000000000000',
  byte: 'c3RyaW5n',
  binary: PLAIN,
};

/** The type a schema without `type` implies by its other keywords. */
function impliedType(node: Schema): string | undefined {
  if (isObject(node.properties) || Array.isArray(node.required)) return 'object';
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return 'array';
  return undefined;
}

/** 0 moved inside the bounds (3.1's exclusive ones as one step or halfway inside) and onto `multipleOf`. */
function numberOf(node: Schema, type: 'integer' | 'number'): number {
  let minimum = typeof node.minimum === 'number' ? node.minimum : -Number.MAX_VALUE;
  let maximum = typeof node.maximum === 'number' ? node.maximum : Number.MAX_VALUE;
  const exclusiveMinimum = typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum : undefined;
  const exclusiveMaximum = typeof node.exclusiveMaximum === 'number' ? node.exclusiveMaximum : undefined;
  if (type === 'integer') {
    if (exclusiveMinimum !== undefined) minimum = Math.max(minimum, Math.floor(exclusiveMinimum) + 1);
    if (exclusiveMaximum !== undefined) maximum = Math.min(maximum, Math.ceil(exclusiveMaximum) - 1);
    minimum = Math.ceil(minimum);
    maximum = Math.floor(maximum);
  } else {
    const high = exclusiveMaximum ?? (typeof node.maximum === 'number' ? node.maximum : undefined);
    const low = exclusiveMinimum ?? (typeof node.minimum === 'number' ? node.minimum : undefined);
    // Strictly inside: halfway to the other bound, or one past this one.
    if (exclusiveMinimum !== undefined) minimum = Math.max(minimum, high !== undefined ? (exclusiveMinimum + high) / 2 : exclusiveMinimum + 1);
    if (exclusiveMaximum !== undefined) maximum = Math.min(maximum, low !== undefined ? (low + exclusiveMaximum) / 2 : exclusiveMaximum - 1);
  }
  const step = typeof node.multipleOf === 'number' && node.multipleOf > 0 ? node.multipleOf : undefined;
  if (step !== undefined) {
    minimum = Math.ceil(minimum / step) * step;
    maximum = Math.floor(maximum / step) * step;
  }
  return Math.min(Math.max(0, minimum), maximum);
}

function made(value: unknown): Outcome {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // A value JSON cannot write (a cycle a YAML alias made) is no value.
    return CUT;
  }
  const characters = text === undefined ? 4 : text.length;
  return characters > MAX_CHARACTERS ? CUT : { value, characters };
}

function numberKeyword(node: Schema, key: 'minLength' | 'maxLength'): Partial<Record<typeof key, number>> {
  return typeof node[key] === 'number' ? { [key]: node[key] } : {};
}

function isNullOnly(schema: Schema): boolean {
  return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null') || ('const' in schema && schema.const === null);
}
