/**
 * What a schema of the compiled model says when it is read member by member, for whoever writes or
 * reads values of it (the mock's answers and forms, the suite's cases): the object it is, the
 * object its array items are, the shapes a valid body may take, the schema inlined, a form read
 * by it. Each is read through the document's refs on first use and kept, so that consumers read
 * the model and never the document.
 */
import type { BodyVariant, ObjectShape, SchemaShapes, VariantProperty } from './model.js';
import { formObject } from './parameters.js';
import { branchValues, discriminatorOf, flattenObject, inlineSchema, mergeAllOf, selecting } from '../schema/shape.js';
import { isObject, refName, resolveRef, type Schema } from '../schema/resolve.js';
import { whyNoValue } from '../schema/no-value.js';
import { conditionsOf, waysToMeet } from '../schema/conditions.js';

/** What a target's shapes read from, and what they have read (each computed on first use). */
interface ShapeState {
  schema: Schema | undefined;
  document: unknown;
  object?: ObjectShape;
  inlined?: Schema;
  variants?: readonly BodyVariant[];
  noValue?: { reason: string | undefined };
}

/** The key a target keeps its ShapeState under (not enumerable: never read, spread or compared as a member). */
const STATE = Symbol('schema shapes');

type Shaped = { readonly [STATE]: ShapeState };

const objectOf = (state: ShapeState): ObjectShape => (state.object ??= flattenObject(state.schema, state.document));

/**
 * The computed shapes as accessors every target shares, reading the target's own state: a closure
 * per target made every parameter and media type of a document cost ~15 µs at load, about 3 % of
 * netlify's start (docs/benchmarks.md). Enumerable and configurable, as an object literal's getters.
 */
const SHARED_ACCESSORS: PropertyDescriptorMap = {
  object: {
    get(this: Shaped) {
      return objectOf(this[STATE]);
    },
    enumerable: true,
    configurable: true,
  },
  inlined: {
    get(this: Shaped) {
      const state = this[STATE];
      return (state.inlined ??= state.schema ? inlineSchema(state.schema, state.document) : {});
    },
    enumerable: true,
    configurable: true,
  },
  variants: {
    get(this: Shaped) {
      const state = this[STATE];
      return (state.variants ??= bodyVariants(state.schema, state.document));
    },
    enumerable: true,
    configurable: true,
  },
  noValue: {
    get(this: Shaped) {
      const state = this[STATE];
      return (state.noValue ??= { reason: state.schema === undefined ? undefined : whyNoValue(state.schema, state.document) }).reason;
    },
    enumerable: true,
    configurable: true,
  },
};

/** `target` with the shapes of `schema` (read in `document`) as properties computed on first use. */
export function withSchemaShapes<T extends object>(target: T, schema: Schema | undefined, document: unknown): T & SchemaShapes {
  const state: ShapeState = { schema, document };
  Object.defineProperty(target, STATE, { value: state });
  // One defineProperty each: Object.defineProperties with the same map took three times as long.
  for (const name in SHARED_ACCESSORS) Object.defineProperty(target, name, SHARED_ACCESSORS[name] as PropertyDescriptor);
  // Functions a caller may hold apart from the target: bound to its state, not to `this`.
  let items: Map<string, ObjectShape | undefined> | undefined;
  const methods: Pick<SchemaShapes, 'itemObject' | 'readForm'> = {
    itemObject: (property) => {
      items ??= new Map();
      const key = property ?? '';
      if (!items.has(key))
        items.set(
          key,
          itemObjectOf(schema, document, property, () => objectOf(state)),
        );
      return items.get(key);
    },
    readForm: (fields) => formObject(fields, schema, document),
  };
  return Object.assign(target, methods) as T & SchemaShapes;
}

/** The object an array's items are: the schema's own (refs followed, allOf merged), or its array property's. */
function itemObjectOf(schema: Schema | undefined, document: unknown, property: string | undefined, objectOf: () => ObjectShape): ObjectShape | undefined {
  if (schema === undefined) return undefined;
  const array = property === undefined ? mergeAllOf(schema, document) : objectOf().properties.get(property);
  const items = array?.items;
  return isObject(items) ? flattenObject(items, document) : undefined;
}

/**
 * A body whose schema holds `if`/`then`/`else` (its own or its allOf parts'): one shape per way of
 * meeting the conditions (../schema/conditions.ts: the `if` met with its `then`, or made false with
 * its `else`), so that a body written member by member takes them; undefined when it has none.
 */
function conditionalVariants(schema: Schema | undefined, doc: unknown, variant: (name: string, object: unknown) => BodyVariant): BodyVariant[] | undefined {
  const inlined = inlineSchema(schema, doc);
  const conditional = conditionsOf(inlined);
  if (!conditional) return undefined;
  const name = refName(schema) ?? 'request body';
  const ways = waysToMeet(conditional.rest, conditional.conditionals);
  return ways.length ? ways.map((way, i) => variant(ways.length === 1 ? name : `${name} (way ${i + 1} of its conditions)`, way)) : undefined;
}

/**
 * The object shapes a valid body may take. A top-level `oneOf`/`anyOf` (refs followed, the allOf
 * around it merged) gives one per branch, each merged with the schema's own properties and
 * required names; with a `discriminator`, the branch's property is fixed to the values that select
 * it, read as the validator reads them (openapi/schema/discriminator.ts); without a union, one per
 * way of meeting its `if`/`then`/`else` (conditionalVariants). Which branch a value really matches, and that exactly
 * one does for oneOf, is left to the compiled validator: the generators ask it of every body.
 */
function bodyVariants(schema: Schema | undefined, doc: unknown): BodyVariant[] {
  const variant = (name: string, object: unknown): BodyVariant => {
    const flat = flattenObject(object, doc);
    return { name, properties: [...flat.properties].map(([n, s]) => ({ name: n, required: flat.required.has(n), schema: inlineSchema(s, doc) })), required: flat.required };
  };
  const raw = resolveRef(schema, doc);
  const whole = variant(refName(schema) ?? 'request body', schema);
  const unionOf = (node: Schema): unknown[] | undefined => (Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined);
  if (!isObject(raw)) return [whole];
  // Unions only inside allOf parts (a payment's oneOf beside a delivery's): their branches paired and merged (inlineSchema).
  const source = unionOf(raw)?.length ? raw : inlineSchema(schema, doc);
  const branchesRaw = unionOf(source);
  if (!branchesRaw?.length) return conditionalVariants(schema, doc, variant) ?? [whole];
  // The values the validator selects each branch by (openapi/schema/discriminator.ts: mapping, own const/enum, component name).
  const discriminated = discriminatorOf(source, doc);
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...around } = source;
  const out: BodyVariant[] = [];
  branchesRaw.forEach((branch, i) => {
    const component = refName(branch);
    const inlined = inlineSchema(branch, doc);
    // Only object branches are written member by member; a scalar branch is left to the validator.
    if (!isObject(inlined) || (inlined.type !== undefined && inlined.type !== 'object' && !isObject(inlined.properties))) return;
    const merged: Schema = { allOf: [around, inlined] };
    const own = variant(component ?? `branch ${i + 1}`, merged);
    const values = branchValues(discriminated, i);
    if (discriminated && values.length > 0) {
      const property = discriminated.propertyName;
      const at = own.properties.findIndex((p) => p.name === property);
      const existing = at === -1 ? { type: 'string' } : (own.properties[at] as VariantProperty).schema;
      const fixed: VariantProperty = { name: property, required: true, schema: selecting(existing, values) };
      const properties = [...own.properties];
      if (at === -1) properties.unshift(fixed);
      else properties[at] = fixed;
      out.push({ name: own.name, properties, required: new Set([...own.required, property]) });
      return;
    }
    out.push(own);
  });
  return out.length ? out : [whole];
}
