/**
 * OpenAPI's `discriminator` beside a `oneOf`/`anyOf` as the validators judge it: a body by the
 * schema its value selects (`discriminatorOf` in ./schema.ts reads which value selects which schema,
 * for the validators and the generators alike).
 *
 * Ajv has a `discriminator` option, but it refuses `mapping` ("mapping is not supported"), needs a
 * `const` or `enum` for the property in every branch (written in the branch itself, not in an
 * `allOf` part it inherits from), and its error ("value of tag must be in oneOf") names neither the
 * allowed values nor the schema chosen. So a discriminated union is rewritten for Ajv here into
 * plain JSON Schema when the contract is compiled (spec/contract.ts): the property required and one
 * of the known values, and for each value an `if` (the property is that value) `then` (the schema it
 * selects). The document itself is left as written (generators and the inspector read it).
 */
import { discriminatorOf, isObject, type Discriminated, type Schema } from './schema.js';

/**
 * The annotation on each `if`/`then` of a rewritten union: what the message of a body the selected
 * schema refuses names (spec/problems.ts). Ajv ignores it (strict mode is off).
 */
export const DISCRIMINATOR_CHOICE = 'x-discriminator-choice';

export interface ChoiceNote {
  propertyName: string;
  value: string;
  schema: string;
}

const SUBSCHEMA = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Deeper than the loader lets a document nest. */
const MAX_DEPTH = 512;

/**
 * `schema` with every discriminated union in it (see `discriminatorOf`) rewritten for Ajv: the
 * union replaced by `allOf` parts, one requiring the property to be one of the known values, one
 * `if`/`then` per value. A body is then judged by the schema its value selects alone (a `oneOf`
 * whose branches overlap no longer refuses it for matching two), an unknown value is refused
 * naming the known ones. Returns new objects where it rewrites; the rest is shared.
 */
export function discriminatorsAsConditions(schema: unknown, document: unknown): unknown {
  const visit = (node: unknown, depth: number): unknown => {
    if (!isObject(node) || depth > MAX_DEPTH) return node;
    let out: Schema | undefined;
    const set = (key: string, value: unknown): void => {
      out ??= { ...node };
      out[key] = value;
    };
    for (const key of SUBSCHEMA) {
      const inner = node[key];
      const rewritten = visit(inner, depth + 1);
      if (rewritten !== inner) set(key, rewritten);
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      const rewritten = list.map((item) => visit(item, depth + 1));
      if (rewritten.some((item, i) => item !== list[i])) set(key, rewritten);
    }
    for (const key of SUBSCHEMA_MAPS) {
      const map = node[key];
      if (!isObject(map)) continue;
      const rewritten = Object.fromEntries(Object.entries(map).map(([name, item]) => [name, visit(item, depth + 1)]));
      if (Object.keys(map).some((name) => rewritten[name] !== map[name])) set(key, rewritten);
    }
    const current = out ?? node;
    const discriminated = discriminatorOf(node, document);
    return discriminated ? asConditions(current, discriminated) : current;
  };
  return visit(schema, 0);
}

/** `node` (its branches rewritten already) as the parts described at discriminatorsAsConditions. */
function asConditions(node: Schema, { propertyName, choices }: Discriminated): Schema {
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...around } = node;
  const branches = (Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : []) as unknown[];
  const tag: Schema = { required: [propertyName], properties: { [propertyName]: { enum: choices.map((choice) => choice.value) } } };
  // The union only ever took objects: without a type of its own around it, a scalar is still refused.
  if (around.type === undefined) tag.type = 'object';
  const conditions = choices.map((choice) => ({
    if: { type: 'object', required: [propertyName], properties: { [propertyName]: { const: choice.value } } },
    then: choice.branch === undefined ? choice.schema : branches[choice.branch],
    [DISCRIMINATOR_CHOICE]: { propertyName, value: choice.value, schema: choice.name } satisfies ChoiceNote,
  }));
  return { ...around, allOf: [...(Array.isArray(around.allOf) ? around.allOf : []), tag, ...conditions] };
}

/** The note of a rewritten union's `if`/`then` (see DISCRIMINATOR_CHOICE) a validator error's schema carries, if it does. */
export function choiceNote(parentSchema: unknown): ChoiceNote | undefined {
  const note = isObject(parentSchema) ? parentSchema[DISCRIMINATOR_CHOICE] : undefined;
  return isObject(note) && typeof note.propertyName === 'string' && typeof note.value === 'string' && typeof note.schema === 'string'
    ? { propertyName: note.propertyName, value: note.value, schema: note.schema }
    : undefined;
}
