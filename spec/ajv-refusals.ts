/**
 * What Ajv refuses to compile although the JSON Schema meta-schema lets it through. The mock
 * compiles its validators on first use (start-up, docs/benchmarks.md) and checks a schema against
 * the meta-schema at load; without this, such a schema would load and then fail every request
 * that uses it. Each check is one of Ajv 8's compile-time throws, in its words:
 *
 * - `nullable` without `type`, and `type: 'null'` with `nullable: false` (Ajv's OpenAPI support);
 * - an empty `enum`;
 * - the keyword `id` (draft-04's `$id`);
 * - a `$dynamicRef` that is not a fragment;
 * - a local `$ref` to nothing (a ref inside a schema: the loader checks only the top one).
 */
import { isObject, jsonPointer, pointerTarget } from './schema.js';

export interface AjvRefusal {
  /** Where in the schema (a JSON pointer relative to it). */
  pointer: string;
  reason: string;
}

const SUBSCHEMA = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Deeper than the loader lets a document nest. */
const MAX_DEPTH = 512;

/** The first thing in `schema` Ajv would refuse to compile; local refs are looked up in `root`. */
export function ajvRefusal(schema: unknown, root: unknown): AjvRefusal | undefined {
  const visit = (node: unknown, tokens: readonly string[]): AjvRefusal | undefined => {
    if (!isObject(node) || tokens.length > MAX_DEPTH) return undefined;
    const reason = ownRefusal(node, root);
    if (reason !== undefined) return { pointer: jsonPointer(...tokens), reason };
    for (const key of SUBSCHEMA) {
      const found = visit(node[key], [...tokens, key]);
      if (found) return found;
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      for (const [index, item] of list.entries()) {
        const found = visit(item, [...tokens, key, String(index)]);
        if (found) return found;
      }
    }
    for (const key of SUBSCHEMA_MAPS) {
      const map = node[key];
      if (!isObject(map)) continue;
      for (const [name, item] of Object.entries(map)) {
        const found = visit(item, [...tokens, key, name]);
        if (found) return found;
      }
    }
    return undefined;
  };
  return visit(schema, []);
}

function ownRefusal(node: Record<string, unknown>, root: unknown): string | undefined {
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (node.nullable !== undefined && types.length === 0) return '"nullable" cannot be used without "type"';
  if (node.nullable === false && types.includes('null')) return 'type: null contradicts nullable: false';
  if (Array.isArray(node.enum) && node.enum.length === 0) return 'enum must have non-empty array';
  if (node.id !== undefined) return 'NOT SUPPORTED: keyword "id", use "$id" for schema ID';
  if (typeof node.$dynamicRef === 'string' && !node.$dynamicRef.startsWith('#')) return '"$dynamicRef" only supports hash fragment reference';
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/') && pointerTarget(root, ref) === undefined) return `can't resolve reference ${ref}`;
  return undefined;
}
