/**
 * What a schema says about the values it takes, read through refs: the properties it declares,
 * its `allOf` parts merged, readOnly and writeOnly properties, its types, a schema inlined, the
 * discriminated union it is.
 */
import { mapSubschemas, subschemas, type Subschema } from './keywords.js';
import { isObject, MAX_REF_CHAIN, pointerTarget, refName, resolveRef, type Schema } from './resolve.js';

/**
 * The properties a schema declares, through refs, `allOf` parts and `anyOf`/`oneOf` branches,
 * each with its own schema (the first declaration found, refs followed), in declaration order.
 */
export function declaredProperties(schema: unknown, document: unknown): Map<string, Schema> {
  const names = new Map<string, Schema>();
  const seen = new Set<unknown>();
  const visit = (raw: unknown): void => {
    const node = resolveRef(raw, document);
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    if (isObject(node.properties)) {
      for (const [key, inner] of Object.entries(node.properties)) {
        if (names.has(key)) continue;
        const resolved = resolveRef(inner, document);
        names.set(key, isObject(resolved) ? resolved : {});
      }
    }
    // allOf's parts, anyOf's and oneOf's branches (keywords.ts: what the value itself is, unconditionally).
    for (const { judges, schema: part } of subschemas(node)) if (judges === 'value') visit(part);
  };
  visit(schema);
  return names;
}

/** An object schema with its `allOf` parts merged in (see `flattenObject`). */
export interface FlatObject {
  /** Each property's schema, refs followed and allOf parts merged (later keywords win). */
  properties: Map<string, Schema>;
  /** Required by the schema or by any allOf part. */
  required: Set<string>;
  /** False when the schema or a part says `additionalProperties: false` or `unevaluatedProperties: false`. */
  additionalProperties: boolean;
}

/** An object schema's properties and required names, refs followed and `allOf` parts merged (union branches are not: they are alternatives). */
export function flattenObject(schema: unknown, document: unknown): FlatObject {
  const flat: FlatObject = { properties: new Map(), required: new Set(), additionalProperties: true };
  const seen = new Set<unknown>();
  const visit = (raw: unknown): void => {
    const part = resolveRef(raw, document);
    if (!isObject(part) || seen.has(part)) return;
    seen.add(part);
    for (const [name, property] of Object.entries(isObject(part.properties) ? part.properties : {})) {
      flat.properties.set(name, mergeAllOf(property, document, flat.properties.get(name)));
    }
    for (const name of Array.isArray(part.required) ? part.required : []) flat.required.add(String(name));
    if (part.additionalProperties === false || part.unevaluatedProperties === false) flat.additionalProperties = false;
    for (const inner of Array.isArray(part.allOf) ? part.allOf : []) visit(inner);
  };
  visit(schema);
  return flat;
}

/**
 * A schema with refs followed and its `allOf` parts merged into one object (later keywords win, but
 * every part's `properties` and `required` kept: PayPal's invoice detail is allOf a part declaring
 * `currency_code` required and one adding `invoice_number`), on top of `earlier` when given. For reading
 * constraints (type, format, bounds), not for validating: validation compiles the schema as written.
 */
export function mergeAllOf(schema: unknown, document: unknown, earlier?: Schema, depth = 0): Schema {
  const part = resolveRef(schema, document);
  if (!isObject(part) || depth > MAX_REF_CHAIN) return earlier ?? {};
  let merged: Schema = { ...(earlier ?? {}) };
  for (const inner of Array.isArray(part.allOf) ? part.allOf : []) merged = mergeAllOf(inner, document, merged, depth + 1);
  const { allOf: _allOf, $ref: _ref, ...own } = part;
  return mergeSchemas(merged, own);
}

/** The declared properties marked `readOnly: true` (server-assigned: a client's value is ignored). */
export function readOnlyProperties(schema: unknown, document: unknown): Set<string> {
  return propertiesMarked(schema, document, 'readOnly');
}

/** The declared properties marked `writeOnly: true` (stored, never answered). */
export function writeOnlyProperties(schema: unknown, document: unknown): Set<string> {
  return propertiesMarked(schema, document, 'writeOnly');
}

function propertiesMarked(schema: unknown, document: unknown, keyword: 'readOnly' | 'writeOnly'): Set<string> {
  const marked = new Set<string>();
  for (const [name, property] of declaredProperties(schema, document)) {
    if (mergeAllOf(property, document)[keyword] === true) marked.add(name);
  }
  return marked;
}

/** The JSON types a schema admits (`type` may be a list; an enum or const tells them too; none means any). */
export function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  if ('const' in schema) return [jsonType(schema.const)];
  return [];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** How deep `inlineSchema` expands nested schemas before it stops (a bound on hostile nesting). */
const MAX_INLINE_DEPTH = 12;

/**
 * A schema with every local `$ref` inside it followed and `allOf` parts merged, at every depth
 * (every schema it holds but definitions: keywords.ts), so value generators see what the validator
 * sees; allOf parts' unions are paired (`mergeSchemas`), a discriminated union's branches pinned to
 * the values that select them. A ref already being expanded (a recursive schema) becomes `{}`, as
 * does anything past the depth bound. A boolean schema in a list or map becomes `{}` too
 * (generators take schemas as objects); one held alone stays (`additionalProperties: false`).
 * For generating and reading values, never for validating.
 */
export function inlineSchema(schema: unknown, document: unknown): Schema {
  const inlined = inlineAt(schema, inliningOf(document), 0, new Set());
  // An expansion is shared by every schema that holds it: the caller gets its own top.
  return inlined === schema ? inlined : { ...inlined };
}

/** A document's inlining: its document, the refs each ref reaches, and each pure ref already expanded. */
interface Inlining {
  document: unknown;
  reach: RefReach;
  /** A `{$ref}` alone's expansion, by ref, then by its depth and the expanding refs it can meet (see refMemoKey). */
  expanded: Map<string, Map<string, Schema>>;
  /** A schema that holds no ref, inlined: the same wherever it stands (an inlined schema inlined again). */
  plain: WeakMap<object, Schema>;
  /** Whether a value holds no `$ref` at any depth. */
  refFree: WeakMap<object, boolean>;
}

/** How deep holdsNoRef looks (an example may nest deeper than any schema): past it a value counts as holding a ref, so is not kept. */
const MAX_REF_FREE_DEPTH = 64;

function holdsNoRef(value: object, inlining: Inlining, depth = 0): boolean {
  let free = inlining.refFree.get(value);
  if (free !== undefined) return free;
  if (depth > MAX_REF_FREE_DEPTH) return false;
  free = !('$ref' in value) && Object.values(value).every((inner) => inner === null || typeof inner !== 'object' || holdsNoRef(inner as object, inlining, depth + 1));
  inlining.refFree.set(value, free);
  return free;
}

function inlineAt(schema: unknown, inlining: Inlining, depth: number, expanding: ReadonlySet<string>): Schema {
  if (!isObject(schema)) return {};
  const ref = schema.$ref;
  // A ref alone expands to the same schema wherever it stands at one depth among the same expanding refs it
  // can reach: a document of many-branched unions (openEHR's Composition) names the same data types down
  // every branch, and expanding each afresh cost 10 s of the suite's start on it.
  if (typeof ref !== 'string' || Object.keys(schema).length !== 1) {
    if (!holdsNoRef(schema, inlining)) return inlineNode(schema, inlining, depth, expanding);
    let plain = inlining.plain.get(schema);
    if (plain === undefined) inlining.plain.set(schema, (plain = inlineNode(schema, inlining, depth, expanding)));
    return plain;
  }
  const key = refMemoKey(ref, inlining.reach, depth, expanding);
  let byKey = inlining.expanded.get(ref);
  if (byKey === undefined) inlining.expanded.set(ref, (byKey = new Map()));
  let inlined = byKey.get(key);
  if (inlined === undefined) byKey.set(key, (inlined = inlineNode(schema, inlining, depth, expanding)));
  return inlined;
}

/**
 * What a ref's expansion depends on beside the ref: its depth (the bound) and the refs being
 * expanded that it can meet again (each becomes `{}` there); the others cannot change it.
 */
function refMemoKey(ref: string, reach: RefReach, depth: number, expanding: ReadonlySet<string>): string {
  if (expanding.size === 0) return String(depth);
  const reached = reach.from(ref);
  const met = [...expanding].filter((active) => active === ref || reached.has(active)).sort();
  return met.length === 0 ? String(depth) : `${depth} ${JSON.stringify(met)}`;
}

function inlineNode(schema: Schema, inlining: Inlining, depth: number, expanding: ReadonlySet<string>): Schema {
  const { document } = inlining;
  let node: Schema = schema;
  let active = expanding;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (active.has(ref) || depth > MAX_INLINE_DEPTH) return {};
    active = new Set([...active, ref]);
    const target = resolveRef(node, document);
    const { $ref: _ref, ...siblings } = node;
    node = { ...(isObject(target) ? target : {}), ...siblings };
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...own } = node;
    let merged: Schema = {};
    for (const part of allOf as unknown[]) merged = mergeSchemas(merged, inlineAt(part, inlining, depth + 1, active), PAIRED);
    node = mergeSchemas(merged, own, PAIRED);
    if (isObject(node.properties) && Object.keys(node.properties).length === 0) delete node.properties;
    if (Array.isArray(node.required) && node.required.length === 0) delete node.required;
  }
  const whole = node;
  // A discriminated union's branches carry the values that select them, as the validator reads them (read once, if there is a union).
  let discriminated: Discriminated | undefined | null = null;
  const inline = (inner: unknown, { keyword, key }: Subschema): unknown => {
    if (key === undefined && !isObject(inner)) return inner;
    const inlined = inlineAt(inner, inlining, depth + 1, active);
    if (keyword !== 'anyOf' && keyword !== 'oneOf') return inlined;
    if (discriminated === null) discriminated = discriminatorOf(whole, document);
    return pinned(inlined, discriminated, Number(key));
  };
  return mapSubschemas(node, inline, { skipDefinitions: true }, node === schema ? { ...node } : node);
}

/** The local refs each local ref of a document can lead to, through the schema it names and every ref there. */
interface RefReach {
  from(ref: string): ReadonlySet<string>;
}

/**
 * Each document's Inlining, filled as its refs are expanded: a document is read, never changed, once
 * loaded, and the suite inlines the same schemas for every operation (openEHR: 10 s of its start).
 */
const INLININGS = new WeakMap<object, Inlining>();

function inliningOf(document: unknown): Inlining {
  const fresh = (reach: RefReach): Inlining => ({ document, reach, expanded: new Map(), plain: new WeakMap(), refFree: new WeakMap() });
  if (!isObject(document)) return fresh({ from: () => new Set() });
  let inlining = INLININGS.get(document);
  if (inlining === undefined) INLININGS.set(document, (inlining = fresh(refReach(document))));
  return inlining;
}

function refReach(document: Schema): RefReach {
  const direct = new Map<string, string[]>();
  const reached = new Map<string, ReadonlySet<string>>();
  // The refs written inside what `ref` names, without following them.
  const directFrom = (ref: string): string[] => {
    let refs = direct.get(ref);
    if (refs !== undefined) return refs;
    refs = [];
    const pending: unknown[] = [pointerTarget(document, ref)];
    const seen = new Set<unknown>();
    while (pending.length > 0) {
      const node = pending.pop();
      if (node === null || typeof node !== 'object' || seen.has(node)) continue;
      seen.add(node);
      const inner = (node as Schema).$ref;
      if (typeof inner === 'string') refs.push(inner);
      pending.push(...Object.values(node));
    }
    direct.set(ref, refs);
    return refs;
  };
  return {
    from(ref: string): ReadonlySet<string> {
      let all = reached.get(ref);
      if (all !== undefined) return all;
      const found = new Set<string>();
      const pending = [...directFrom(ref)];
      while (pending.length > 0) {
        const next = pending.pop() as string;
        if (found.has(next)) continue;
        found.add(next);
        pending.push(...directFrom(next));
      }
      reached.set(ref, (all = found));
      return all;
    },
  };
}

/** An inlined branch of a discriminated union with its property allowed only the values that select it. */
function pinned(branch: Schema, discriminated: Discriminated | undefined, index: number): Schema {
  const values = branchValues(discriminated, index);
  if (discriminated === undefined || values.length === 0) return branch;
  const property = discriminated.propertyName;
  const own = isObject(branch.properties) && isObject(branch.properties[property]) ? branch.properties[property] : {};
  return mergeSchemas(branch, { properties: { [property]: selecting(own, values) }, required: [property] }, PAIRED);
}

/** A discriminating property's schema allowed only `values`, the ones that select a branch: its `const` dropped, `enum` the values. */
export function selecting(property: Schema, values: readonly string[]): Schema {
  const { const: _const, ...own } = property;
  return { ...own, enum: [...values] };
}

/** How `mergeSchemas` takes two parts that may both be unions. */
export interface MergeOptions {
  /**
   * A union in both (`allOf: [{oneOf: [Card, Iban]}, {oneOf: [Pickup, Address]}]`) becomes one
   * union of each pair of branches merged (Card and Pickup, Card and Address…), so that a generator
   * writing one branch writes a value of both; past MAX_COMBINED pairs the later union wins, as any
   * other keyword does. The branches must be pinned to their discriminator's values already
   * (inlineSchema inlines a part before merging it): the merged union keeps no discriminator.
   */
  pairUnions?: boolean;
}

const PAIRED: MergeOptions = { pairUnions: true };

/**
 * Two `allOf` parts as one, the one merge of parts every generator reads (inlineSchema, the mock's
 * answers, the suite's union branches): later keywords win, except `properties` (merged by name,
 * a later part's property winning) and `required` (united), each there when a part has it; with
 * `pairUnions`, unions in both paired (see MergeOptions). Refs are the caller's to follow first.
 */
export function mergeSchemas(earlier: Schema, later: Schema, options: MergeOptions = {}): Schema {
  const merged: Schema = { ...earlier, ...later };
  if (isObject(earlier.properties) || isObject(later.properties)) {
    merged.properties = { ...(isObject(earlier.properties) ? earlier.properties : {}), ...(isObject(later.properties) ? later.properties : {}) };
  }
  if (Array.isArray(earlier.required) || Array.isArray(later.required)) {
    merged.required = [...new Set([...(Array.isArray(earlier.required) ? earlier.required : []), ...(Array.isArray(later.required) ? later.required : [])])];
  }
  // Both parts' `if`/`then`/`else` hold: the earlier one kept as an `allOf` part of its own (openapi/schema/conditions.ts reads both).
  if ('if' in earlier && 'if' in later) {
    const { if: condition, then, else: otherwise } = earlier;
    const held = Array.isArray(merged.allOf) ? merged.allOf : [];
    merged.allOf = [...held, { if: condition, ...('then' in earlier ? { then } : {}), ...('else' in earlier ? { else: otherwise } : {}) }];
  }
  if (!options.pairUnions) return merged;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const first = earlier[key];
    const second = later[key];
    if (!Array.isArray(first) || !Array.isArray(second) || first.length * second.length > MAX_COMBINED) continue;
    merged[key] = first.flatMap((a) => second.map((b) => mergeSchemas(isObject(a) ? a : {}, isObject(b) ? b : {}, options)));
    delete merged.discriminator;
  }
  return merged;
}

/** How many branches a union of two allOf parts' unions may have (their pairs); a generator tries each. */
const MAX_COMBINED = 64;

/*
 * OpenAPI's `discriminator`, read once for every consumer: which value of the discriminating
 * property selects which schema, so that the validators (openapi/schema/discriminator.ts) judge a body by the
 * schema its value selects and the generators (inlineSchema, the mock's, the contract suite's)
 * write each branch with a value that selects it.
 */

/** One value of the discriminating property and the schema it selects. */
export interface DiscriminatorChoice {
  value: string;
  /** The schema the value selects: a `{$ref}` (as the document writes it) or an inline branch. */
  schema: Schema;
  /** Its name for messages: the component's, else the branch's title or place. */
  name: string;
  /** The `oneOf`/`anyOf` branch it is; undefined for a mapping to a schema outside the list. */
  branch: number | undefined;
}

export interface Discriminated {
  propertyName: string;
  /** Every value that selects a schema, in order: the mapping's, then the implicit ones. */
  choices: readonly DiscriminatorChoice[];
}

/**
 * What a schema's `discriminator` says, or undefined when it has none, or when it cannot tell its
 * branches apart (a branch no value selects: an inline one without a `const`/`enum` for the
 * property; a mapping to a schema the document lacks): such a union is judged as written.
 *
 * Values: each `mapping` entry (a schema name or a local ref); then, for each branch no entry
 * maps to, the values its own schema gives the property (`const`, `enum`) or, for a component,
 * its name (OpenAPI's implicit mapping). The first to claim a value keeps it.
 */
export function discriminatorOf(schema: unknown, document: unknown): Discriminated | undefined {
  if (!isObject(schema) || !isObject(schema.discriminator)) return undefined;
  const propertyName = schema.discriminator.propertyName;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (typeof propertyName !== 'string' || !branches?.length) return undefined;
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
  const choices: DiscriminatorChoice[] = [];
  const claimed = new Set<string>();
  const add = (choice: DiscriminatorChoice): void => {
    if (claimed.has(choice.value)) return;
    claimed.add(choice.value);
    choices.push(choice);
  };
  const mapped = new Set<number>();
  const mapping = isObject(schema.discriminator.mapping) ? Object.entries(schema.discriminator.mapping) : [];
  for (const [value, target] of mapping) {
    if (typeof target !== 'string') return undefined;
    const ref = mappingRef(target);
    if (pointerTarget(document, ref) === undefined) return undefined;
    const index = branches.findIndex((branch) => isObject(branch) && branch.$ref === ref);
    if (index !== -1) mapped.add(index);
    add({ value, schema: { $ref: ref }, name: refName({ $ref: ref }) ?? ref, branch: index === -1 ? undefined : index });
  }
  for (const [index, branch] of branches.entries()) {
    if (mapped.has(index)) continue;
    if (!isObject(branch)) return undefined;
    const own = ownValues(branch, propertyName, document);
    const component = typeof branch.$ref === 'string' && branch.$ref.startsWith('#/components/schemas/') ? refName(branch) : undefined;
    const values = own ?? (component === undefined ? [] : [component]);
    if (values.length === 0) return undefined;
    const { title } = mergeAllOf(branch, document);
    const name = component ?? (typeof title === 'string' ? title : `${keyword} branch ${index + 1}`);
    for (const value of values) add({ value, schema: branch, name, branch: index });
  }
  return { propertyName, choices };
}

/** A mapping value as a local ref: a schema name names a component (OpenAPI 3.x, Discriminator Object). */
function mappingRef(target: string): string {
  return target.includes('#') || target.includes('/') ? target : `#/components/schemas/${target}`;
}

/** The string values a branch allows the discriminating property (its `const` or `enum`, allOf parts merged), if it says. */
function ownValues(branch: Schema, propertyName: string, document: unknown): string[] | undefined {
  const property = flattenObject(branch, document).properties.get(propertyName);
  if (property === undefined) return undefined;
  if (typeof property.const === 'string') return [property.const];
  if (Array.isArray(property.enum) && property.enum.length > 0 && property.enum.every((value) => typeof value === 'string')) return property.enum as string[];
  return undefined;
}

/** The values that select branch `index` of a discriminated union (empty when none, or no discriminator). */
export function branchValues(discriminated: Discriminated | undefined, index: number): string[] {
  return discriminated ? discriminated.choices.filter((choice) => choice.branch === index).map((choice) => choice.value) : [];
}
