/**
 * OpenAPI's `discriminator` beside a `oneOf`/`anyOf` as the validators judge it: a body by the
 * schema its value selects (`discriminatorOf` in ./schema.ts reads which value selects which schema,
 * for the validators and the generators alike).
 *
 * Ajv has a `discriminator` option, but it refuses `mapping` ("mapping is not supported"), needs a
 * `const` or `enum` for the property in every branch (written in the branch itself, not in an
 * `allOf` part it inherits from), and its error ("value of tag must be in oneOf") names neither the
 * allowed values nor the schema chosen. So a discriminated union is rewritten for Ajv here into
 * plain JSON Schema when the contract is compiled (openapi/operations/compile.ts): the property required and one
 * of the known values, and for each value an `if` (the property is that value) `then` (the schema it
 * selects). The document itself is left as written (generators and the inspector read it).
 */
import { mapSubschemas } from './keywords.js';
import { discriminatorOf, type Discriminated } from './shape.js';
import { escapePointerToken, isObject, pointerTarget, refName, type Schema } from './resolve.js';

/**
 * The annotation on each `if`/`then` of a rewritten union: what the message of a body the selected
 * schema refuses names (openapi/schema/problems.ts). Ajv ignores it (strict mode is off).
 */
export const DISCRIMINATOR_CHOICE = 'x-discriminator-choice';

export interface ChoiceNote {
  propertyName: string;
  value: string;
  schema: string;
}

/** Deeper than the loader lets a document nest. */
const MAX_DEPTH = 512;

/**
 * `schema` with every discriminated union in it (see `discriminatorOf`) rewritten for Ajv: the
 * union replaced by `allOf` parts, one requiring the property to be one of the known values, one
 * `if`/`then` per value. A body is then judged by the schema its value selects alone (a `oneOf`
 * whose branches overlap no longer refuses it for matching two), an unknown value is refused
 * naming the known ones. Returns new objects where it rewrites; the rest is shared.
 */
export function discriminatorsAsConditions(schema: unknown, document: unknown, component?: string): unknown {
  const visit = (node: unknown, depth: number): unknown => {
    if (!isObject(node) || depth > MAX_DEPTH) return node;
    const current = mapSubschemas(node, (inner) => visit(inner, depth + 1));
    const discriminated = discriminatorOf(node, document);
    if (discriminated) return asConditions(current, discriminated, depth === 0 ? component : undefined, document);
    return depth === 0 && component !== undefined ? asInherited(current, component, document) : current;
  };
  return visit(schema, 0);
}

/**
 * A component whose `discriminator` stands without a union: OpenAPI's inheritance form, where
 * each schema the property's value names (`mapping`, else a component's own name) is an `allOf`
 * of this base and parts of its own. A body is judged by the base and, where its value names such
 * a schema, by that schema's own parts too: `petType: Dog` must bark. The parts are the selected
 * schema without the base (through every level of `allOf` between them), so that judging never
 * comes back to the base for the same value. A value that names no schema is judged by the base
 * alone: here the base is itself a schema a body may be.
 */
function asInherited(node: Schema, component: string, document: unknown): Schema {
  const discriminator = node.discriminator;
  const propertyName = isObject(discriminator) ? discriminator.propertyName : undefined;
  if (typeof propertyName !== 'string') return node;
  const base = `${COMPONENTS}${escapePointerToken(component)}`;
  const choices = new Map<string, string>();
  const mapping = isObject(discriminator) && isObject(discriminator.mapping) ? discriminator.mapping : {};
  for (const [value, target] of Object.entries(mapping)) {
    if (typeof target === 'string') choices.set(value, target.includes('#') || target.includes('/') ? target : `${COMPONENTS}${escapePointerToken(target)}`);
  }
  const components = isObject(document) && isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const inherits = inheritance(base, document);
  for (const name of Object.keys(components)) {
    const ref = `${COMPONENTS}${escapePointerToken(name)}`;
    if (ref !== base && ![...choices.values()].includes(ref) && !choices.has(name) && inherits(ref)) choices.set(name, ref);
  }
  const conditions: Schema[] = [];
  for (const [value, ref] of choices) {
    if (ref === base) continue;
    const own = ownParts(ref, base, document, inherits, { left: MAX_OWN_PARTS }, 0);
    if (own === undefined) continue;
    conditions.push({
      if: { type: 'object', required: [propertyName], properties: { [propertyName]: { const: value } } },
      then: own,
      [DISCRIMINATOR_CHOICE]: { propertyName, value, schema: refName({ $ref: ref }) ?? ref } satisfies ChoiceNote,
    });
  }
  if (!conditions.length) return node;
  return { ...node, allOf: [...(Array.isArray(node.allOf) ? node.allOf : []), ...conditions] };
}

const COMPONENTS = '#/components/schemas/';
/** How many `allOf` levels lie between a base and a schema that inherits from it, at most. */
const MAX_INHERITANCE = 16;
/**
 * How many schemas one kind's own parts gather, at most: a document whose kinds inherit through
 * many parts at many levels would otherwise make parts without end. Past it the kind is judged as
 * written (a union that then leads back to itself is refused at load, openapi/schema/cycles.ts).
 */
const MAX_OWN_PARTS = 256;

/**
 * Whether the schema at a ref is an `allOf` of `base`, directly or through schemas that are;
 * remembered per ref, so a document of many schemas each an allOf of many costs each one once
 * (a ref being looked at, in a round of allOf, counts as not inheriting).
 */
function inheritance(base: string, document: unknown): (ref: string) => boolean {
  const known = new Map<string, boolean>();
  const inherits = (ref: string, depth: number): boolean => {
    const remembered = known.get(ref);
    if (remembered !== undefined) return remembered;
    const target = pointerTarget(document, ref);
    if (depth > MAX_INHERITANCE || !isObject(target) || !Array.isArray(target.allOf)) return false;
    known.set(ref, false);
    const found = target.allOf.some((part) => isObject(part) && typeof part.$ref === 'string' && (part.$ref === base || inherits(part.$ref, depth + 1)));
    known.set(ref, found);
    return found;
  };
  return (ref) => inherits(ref, 0);
}

/**
 * The schema at `ref` without `base`: its `allOf` parts but the base, a part that inherits from the
 * base replaced by its own parts in turn. Undefined when the ref names nothing or past the budget.
 */
function ownParts(ref: string, base: string, document: unknown, inherits: (ref: string) => boolean, budget: { left: number }, depth: number): Schema | undefined {
  const target = pointerTarget(document, ref);
  if (!isObject(target) || depth > MAX_INHERITANCE || --budget.left < 0) return undefined;
  if (!inherits(ref)) return { $ref: ref };
  const parts: unknown[] = [];
  for (const part of target.allOf as unknown[]) {
    const inner = isObject(part) && typeof part.$ref === 'string' ? part.$ref : undefined;
    if (inner === base) continue;
    if (inner === undefined || !inherits(inner)) {
      parts.push(part);
      continue;
    }
    const own = ownParts(inner, base, document, inherits, budget, depth + 1);
    if (own === undefined) return undefined;
    parts.push(own);
  }
  const { allOf: _allOf, discriminator: _discriminator, ...rest } = target;
  return parts.length ? { ...rest, allOf: parts } : rest;
}

/** `node` (its branches rewritten already) as the parts described at discriminatorsAsConditions. */
function asConditions(node: Schema, { propertyName, choices }: Discriminated, component: string | undefined, document: unknown): Schema {
  const base = component === undefined ? undefined : `${COMPONENTS}${escapePointerToken(component)}`;
  const inherits = base === undefined ? undefined : inheritance(base, document);
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...around } = node;
  const branches = (Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : []) as unknown[];
  const tag: Schema = { required: [propertyName], properties: { [propertyName]: { enum: choices.map((choice) => choice.value) } } };
  // The union only ever took objects: without a type of its own around it, a scalar is still refused.
  if (around.type === undefined) tag.type = 'object';
  const conditions = choices.map((choice) => ({
    if: { type: 'object', required: [propertyName], properties: { [propertyName]: { const: choice.value } } },
    then: selected(choice.branch === undefined ? choice.schema : branches[choice.branch], base, document, inherits),
    [DISCRIMINATOR_CHOICE]: { propertyName, value: choice.value, schema: choice.name } satisfies ChoiceNote,
  }));
  return { ...around, allOf: [...(Array.isArray(around.allOf) ? around.allOf : []), tag, ...conditions] };
}

/**
 * What a union's value selects: the branch, or, where the branch is a component that inherits from
 * the union's own component (`Pet: {oneOf: [Dog]}`, `Dog: {allOf: [Pet, …]}`), its own parts, the
 * union's other keywords being judged beside them already. As written it would lead back to the
 * union for the same value without end.
 */
function selected(branch: unknown, base: string | undefined, document: unknown, inherits: ((ref: string) => boolean) | undefined): unknown {
  const ref = isObject(branch) && typeof branch.$ref === 'string' ? branch.$ref : undefined;
  if (base === undefined || inherits === undefined || ref === undefined || !inherits(ref)) return branch;
  return ownParts(ref, base, document, inherits, { left: MAX_OWN_PARTS }, 0) ?? branch;
}

/** The note of a rewritten union's `if`/`then` (see DISCRIMINATOR_CHOICE) a validator error's schema carries, if it does. */
export function choiceNote(parentSchema: unknown): ChoiceNote | undefined {
  const note = isObject(parentSchema) ? parentSchema[DISCRIMINATOR_CHOICE] : undefined;
  return isObject(note) && typeof note.propertyName === 'string' && typeof note.value === 'string' && typeof note.schema === 'string'
    ? { propertyName: note.propertyName, value: note.value, schema: note.schema }
    : undefined;
}
