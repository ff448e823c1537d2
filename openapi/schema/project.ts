/**
 * A stored value projected to the schema of the answer it goes out in: the mock stores what the
 * client wrote and answers what the spec declares (issue 37, §1). The one place that decides it.
 *
 * A value the answer's validator accepts, holding no `writeOnly` property, goes out as it is. Else:
 * - an object keeps the properties its schema declares (a `writeOnly` one never, through allOf,
 *   oneOf and anyOf), and the undeclared ones only where `additionalProperties` and
 *   `unevaluatedProperties` allow them; a required property it lacks (a server's `token`,
 *   `createdAt`) is sampled from its schema (openapi/schema/sample.ts: example, default, format);
 *   members past `maxProperties` dropped, optional ones sampled up to `minProperties`;
 * - a union's branch is the first whose schema accepts the value projected into it, else the one
 *   whose properties it shares most;
 * - a value of another type than its schema's is converted where that is obvious (a value into a
 *   one-item array, the first of an array into a single value, a number or boolean into a string),
 *   else replaced by a sampled one, as is a value outside its `enum`;
 * - what the validator still refuses is mended where it points (a missing required member added,
 *   an undeclared one dropped, a value replaced by a sample of the schema it breaks), a bounded
 *   number of rounds. What remains is returned as problems: a mock bug for the caller to log.
 *
 * Numbers keep their exact digits (./exact-json.ts) wherever they are kept as stored.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createSpecAjv } from './ajv.js';
import { boundedValidator } from './bounded-validation.js';
import { exactJsonOf, exactJsonText, parseExactJson } from './exact-json.js';
import { PatternStrings, type StringKeywords } from './pattern-strings.js';
import { isObject, type Schema } from './resolve.js';
import { sample } from './sample.js';
import { mergeSchemas, typesOf } from './shape.js';

/** Deeper than this the value is kept as it is (the validator still judges it). */
const MAX_DEPTH = 32;
/** Rounds of mending what the validator points at. */
const MENDING_ROUNDS = 4;
/** Errors mended per round. */
const MENDED_PER_ROUND = 64;

export interface Projected {
  /** The answer's JSON text. */
  json: string;
  /** What still breaks the schema after projection, in words: a mock bug. */
  problems?: string[];
}

/** One per engine: its validators of inlined schemas (items, union branches) are compiled on first use. */
export class Projector {
  readonly #document: unknown;
  readonly #patternString: (keywords: StringKeywords) => string | undefined;
  #patterns: PatternStrings | undefined;
  #ajv: Ajv2020 | undefined;
  #firstErrorAjv: Ajv2020 | undefined;
  readonly #validators = new WeakMap<object, ValidateFunction | null>();
  /** Texts already projected, per schema: a list answers the same records again and again. Bounded: emptied when full. */
  readonly #projectedTexts = new WeakMap<object, Map<string, Projected | null>>();
  readonly #branches = new WeakMap<object, Schema[]>();
  readonly #writeOnly = new WeakMap<object, boolean>();

  constructor(document: unknown, patternString?: (keywords: StringKeywords) => string | undefined) {
    this.#document = document;
    // A sampled string must match its `pattern` (a server-assigned `T-0042`); randexp is loaded by the first one.
    this.#patternString = patternString ?? ((keywords) => (this.#patterns ??= new PatternStrings()).stringFor(keywords));
  }

  /**
   * `value` as an answer of `schema` (inlined: refs followed, allOf merged), judged by `validate`
   * (the response's compiled validator; else one compiled here from `schema`). Undefined: the value
   * goes out as it is.
   */
  project(value: unknown, schema: Schema | undefined, validate?: ValidateFunction): Projected | undefined {
    if (schema === undefined) return undefined;
    const judge = validate ?? this.validatorOf(schema);
    if (!this.#holdsWriteOnly(schema) && (judge === undefined || accepts(judge, value))) return undefined;
    const sources = new Map<object, object>();
    let out = this.#project(value, schema, 0, sources);
    let problems: string[] = [];
    for (let round = 0; judge && round < MENDING_ROUNDS; round++) {
      if (accepts(judge, out)) {
        problems = [];
        break;
      }
      const errors = (judge.errors ?? []).filter((error) => !writeOnlyRequired(error));
      problems = errors.slice(0, 8).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
      out = this.#mended(out, errors, schema, sources);
    }
    if (judge && problems.length && accepts(judge, out)) problems = [];
    const json = serialized(out, sources);
    return problems.length ? { json, problems } : { json };
  }

  /**
   * A stored record's JSON text as an answer of `schema`, as `project` does; the quick path first:
   * a text the schema takes as it is, read by JSON.parse (a fifth of the exact reader's cost), goes
   * out untouched. A text holding a number a double may round (16 digits or more) is read exactly.
   */
  projectText(json: string, schema: Schema | undefined, validate?: ValidateFunction): Projected | undefined {
    if (schema === undefined) return undefined;
    let texts = this.#projectedTexts.get(schema);
    const known = texts?.get(json);
    if (known !== undefined) return known ?? undefined;
    const judge = validate ?? this.validatorOf(schema);
    const projected =
      judge !== undefined && !this.#holdsWriteOnly(schema) && !LONG_NUMBER.test(json) && accepts(judge, JSON.parse(json)) ? undefined : this.project(parseExactJson(json), schema, validate);
    if (!texts) this.#projectedTexts.set(schema, (texts = new Map()));
    if (texts.size >= PROJECTED_TEXTS) texts.clear();
    texts.set(json, projected ?? null);
    return projected;
  }

  /** A validator of an inlined schema (a list's items), compiled once; undefined when it cannot be. */
  validatorOf(schema: Schema): ValidateFunction | undefined {
    const known = this.#validators.get(schema);
    if (known !== undefined) return known ?? undefined;
    let compiled: ValidateFunction | null = null;
    try {
      // Bounded as every validator of the core is (issue 39 #1): the first error decides, every error only for a small value.
      const firstError = (this.#firstErrorAjv ??= createSpecAjv({ verbose: true })).compile(schema);
      compiled = boundedValidator(firstError, () => (this.#ajv ??= createSpecAjv({ verbose: true, allErrors: true })).compile(schema));
    } catch {
      // A schema Ajv refuses once cut from its document (a dangling ref): projected, not judged.
      compiled = null;
    }
    this.#validators.set(schema, compiled);
    return compiled ?? undefined;
  }

  /** A value of `schema` as the projection samples one (least, its pattern matched): a server field made at create. */
  sampled(schema: unknown, examples = true): unknown {
    return this.#sampled(schema, examples);
  }

  #sampled(schema: unknown, examples = true): unknown {
    return sample(schema, { document: this.#document, least: true, direction: 'response', examples, patternString: this.#patternString })?.value ?? null;
  }

  #holdsWriteOnly(schema: Schema): boolean {
    const known = this.#writeOnly.get(schema);
    if (known !== undefined) return known;
    const seen = new Set<object>();
    const visit = (node: unknown, depth: number): boolean => {
      if (!isObject(node) || seen.has(node) || depth > MAX_DEPTH) return false;
      seen.add(node);
      if (node.writeOnly === true) return true;
      const children = [
        ...Object.values(isObject(node.properties) ? node.properties : {}),
        node.items,
        node.additionalProperties,
        ...(Array.isArray(node.oneOf) ? node.oneOf : []),
        ...(Array.isArray(node.anyOf) ? node.anyOf : []),
        ...(Array.isArray(node.allOf) ? node.allOf : []),
        ...(Array.isArray(node.prefixItems) ? node.prefixItems : []),
      ];
      return children.some((child) => visit(child, depth + 1));
    };
    const found = visit(schema, 0);
    this.#writeOnly.set(schema, found);
    return found;
  }

  #project(value: unknown, schema: unknown, depth: number, sources: Map<object, object>): unknown {
    if (!isObject(schema) || depth > MAX_DEPTH || value === undefined) return value;
    if ('const' in schema) return schema.const;
    const branches = this.#branchesOf(schema);
    if (branches.length) return this.#project(value, this.#chosen(value, branches), depth + 1, sources);
    const types = typesOf(schema);
    const type = jsonType(value);
    if (types.length && !admits(types, type)) {
      if (types.includes('array')) return [this.#project(value, schema.items, depth + 1, sources)];
      if (Array.isArray(value) && value.length > 0) return this.#project(value[0], schema, depth + 1, sources);
      if (types.includes('string') && (type === 'number' || type === 'integer' || type === 'boolean')) return String(value);
      return this.#sampled(schema);
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => sameJson(allowed, value))) return this.#sampled(schema);
    if (Array.isArray(value)) {
      const items = value.length > (typeof schema.maxItems === 'number' ? schema.maxItems : Infinity) ? value.slice(0, schema.maxItems as number) : value;
      const out = items.map((item) => this.#project(item, schema.items, depth + 1, sources));
      sources.set(out, value);
      return out;
    }
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const properties = isObject(schema.properties) ? schema.properties : {};
    const closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(record)) {
      const property = properties[name];
      if (isObject(property)) {
        if (property.writeOnly !== true) out[name] = this.#project(record[name], property, depth + 1, sources);
      } else if (property === undefined && !closed && !(Object.keys(properties).length && patternsOnly(schema))) {
        out[name] = isObject(schema.additionalProperties) ? this.#project(record[name], schema.additionalProperties, depth + 1, sources) : record[name];
      }
    }
    const required = new Set((Array.isArray(schema.required) ? schema.required : []).map(String));
    for (const name of required) {
      const property = properties[name];
      if (out[name] === undefined && !(isObject(property) && property.writeOnly === true)) out[name] = this.#sampled(property ?? {});
    }
    counted(out, schema, required, (property) => this.#sampled(property));
    sources.set(out, value);
    return out;
  }

  /** A union's branches, each with the schema's own keywords merged in, read once per schema. */
  #branchesOf(schema: Schema): Schema[] {
    const known = this.#branches.get(schema);
    if (known) return known;
    const listed = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])].filter(isObject);
    const { oneOf: _oneOf, anyOf: _anyOf, ...own } = schema;
    // A property another branch marks writeOnly is never answered, whichever branch the value takes (the judge looks in every branch).
    const hidden = new Set(
      listed.flatMap((branch) =>
        Object.entries(isObject(branch.properties) ? branch.properties : {})
          .filter(([, property]) => isObject(property) && property.writeOnly === true)
          .map(([name]) => name),
      ),
    );
    const branches = listed.map((branch) => {
      const merged = mergeSchemas(own, branch);
      const properties = isObject(merged.properties) ? merged.properties : {};
      const missing = [...hidden].filter((name) => !(name in properties));
      return missing.length ? { ...merged, properties: { ...properties, ...Object.fromEntries(missing.map((name) => [name, { writeOnly: true }])) } } : merged;
    });
    this.#branches.set(schema, branches);
    return branches;
  }

  /** The branch the value belongs to: the first that accepts it as it is, else the one sharing most of its properties, its consts and type. */
  #chosen(value: unknown, branches: readonly Schema[]): Schema {
    for (const branch of branches) if (this.validatorOf(branch)?.(value)) return branch;
    let best = branches[0] as Schema;
    let bestScore = -Infinity;
    for (const branch of branches) {
      const score = fit(value, branch);
      if (score > bestScore) [best, bestScore] = [branch, score];
    }
    return best;
  }

  /** `out` with what the validator's errors point at mended (containers copied before they are changed). */
  #mended(out: unknown, errors: readonly ErrorObject[], schema: Schema, sources: Map<object, object>): unknown {
    let root = out;
    const replaced: string[] = [];
    const under = (path: string): boolean => replaced.some((done) => path === done || path.startsWith(`${done}/`));
    // A union's or a whole value's error first: the errors inside its branches are then moot.
    const ordered = [...errors].sort((a, b) => rank(a) - rank(b) || a.instancePath.length - b.instancePath.length);
    for (const error of ordered.slice(0, MENDED_PER_ROUND)) {
      if (under(error.instancePath)) continue;
      const tokens = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescape);
      if (error.keyword === 'required' || error.keyword === 'dependentRequired') {
        const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
        const properties = isObject(error.parentSchema) && isObject(error.parentSchema.properties) ? error.parentSchema.properties : {};
        root = this.#changed(root, tokens, sources, (container) => ((container as Record<string, unknown>)[missing] = this.#sampled(properties[missing] ?? {})));
        continue;
      }
      if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
        const params = error.params as { additionalProperty?: unknown; unevaluatedProperty?: unknown };
        const extra = String(params.additionalProperty ?? params.unevaluatedProperty);
        root = this.#changed(root, tokens, sources, (container) => delete (container as Record<string, unknown>)[extra]);
        continue;
      }
      const broken = error.instancePath === '' ? schema : error.parentSchema;
      const fresh = this.#sampled(broken);
      replaced.push(error.instancePath);
      if (tokens.length === 0) {
        root = fresh;
        continue;
      }
      const last = tokens[tokens.length - 1] as string;
      root = this.#changed(root, tokens.slice(0, -1), sources, (container) => ((container as Record<string, unknown>)[last] = fresh));
    }
    return root;
  }

  /** `root` with the container at `tokens` changed by `change`, every container on the way copied (the stored value is never changed). */
  #changed(root: unknown, tokens: readonly string[], sources: Map<object, object>, change: (container: object) => void): unknown {
    const copy = (value: unknown): unknown => {
      if (value === null || typeof value !== 'object') return value;
      const fresh = Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) };
      sources.set(fresh, sources.get(value) ?? value);
      return fresh;
    };
    const top = copy(root);
    let at = top;
    for (const token of tokens) {
      if (at === null || typeof at !== 'object') return top;
      const inner = copy((at as Record<string, unknown>)[token]);
      (at as Record<string, unknown>)[token] = inner;
      at = inner;
    }
    if (at !== null && typeof at === 'object') change(at);
    return top;
  }
}

/**
 * Whether `validate` takes `value` as an answer: a `writeOnly` property the schema requires is
 * required of requests only (OpenAPI), so its absence from an answer is no error.
 */
/** Projected texts kept per schema (a few pages of a list), then forgotten all at once. */
const PROJECTED_TEXTS = 4096;

/** A number of 16 digits or more, which a double may round: such a text is read exactly. */
const LONG_NUMBER = /\d{16}/;

function accepts(validate: ValidateFunction, value: unknown): boolean {
  return validate(value) || (validate.errors ?? []).every(writeOnlyRequired);
}

function writeOnlyRequired(error: ErrorObject): boolean {
  if (error.keyword !== 'required' || !isObject(error.parentSchema) || !isObject(error.parentSchema.properties)) return false;
  const property = error.parentSchema.properties[String((error.params as { missingProperty?: unknown }).missingProperty)];
  return isObject(property) && property.writeOnly === true;
}

function rank(error: ErrorObject): number {
  return error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'type' ? 0 : 1;
}

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Whether an object schema names its members only by `patternProperties` besides its properties (an undeclared name may then be refused). */
function patternsOnly(schema: Schema): boolean {
  return isObject(schema.patternProperties) && schema.additionalProperties === false;
}

/**
 * An object held to `maxProperties` and `minProperties`: optional members past the first ones
 * dropped (CAMARA's DeviceResponse answers one of the device identifiers written), declared
 * optional properties sampled until there are enough.
 */
function counted(out: Record<string, unknown>, schema: Schema, required: ReadonlySet<string>, sampled: (property: unknown) => unknown): void {
  const names = Object.keys(out).filter((name) => out[name] !== undefined);
  if (typeof schema.maxProperties === 'number' && names.length > schema.maxProperties) {
    let room = schema.maxProperties - names.filter((name) => required.has(name)).length;
    for (const name of names) if (!required.has(name) && room-- <= 0) delete out[name];
  }
  if (typeof schema.minProperties !== 'number') return;
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (Object.keys(out).length >= schema.minProperties) break;
    if (out[name] === undefined && !(isObject(property) && property.writeOnly === true)) out[name] = sampled(property);
  }
}

/** How well a value fits a branch: its type admitted, its members declared, the branch's required ones present. */
function fit(value: unknown, branch: Schema): number {
  const types = typesOf(branch);
  let score = types.length === 0 || admits(types, jsonType(value)) ? 0 : -1000;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const properties = isObject(branch.properties) ? branch.properties : {};
    for (const name of Object.keys(value)) score += name in properties ? 2 : -1;
    for (const name of Array.isArray(branch.required) ? branch.required : []) if (!(String(name) in value)) score -= 3;
    for (const [name, property] of Object.entries(properties)) {
      if (isObject(property) && 'const' in property && (value as Record<string, unknown>)[name] !== undefined) {
        score += sameJson(property.const, (value as Record<string, unknown>)[name]) ? 10 : -10;
      }
    }
  }
  return score;
}

function admits(types: readonly string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The JSON text of a projected value: a member kept as stored is written from the stored container, its digits exact. */
function serialized(value: unknown, sources: ReadonlyMap<object, object>): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const source = sources.get(value);
  // Kept whole from the store (or sampled): its own exact text.
  if (!source) return exactJsonText(value);
  const member = (key: string): string => {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== null && typeof inner === 'object') return serialized(inner, sources);
    if (typeof inner === 'number' && (source as Record<string, unknown>)[key] === inner) return exactJsonOf(source, key);
    return JSON.stringify(inner) ?? 'null';
  };
  if (Array.isArray(value)) return `[${value.map((_, index) => member(String(index))).join(',')}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value)) if ((value as Record<string, unknown>)[key] !== undefined) parts.push(`${JSON.stringify(key)}:${member(key)}`);
  return `{${parts.join(',')}}`;
}
