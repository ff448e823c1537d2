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
import { subschemas } from './keywords.js';
import { isObject, jsonPointer, pointerTarget } from './resolve.js';

export interface AjvRefusal {
  /** Where in the schema (a JSON pointer relative to it). */
  pointer: string;
  reason: string;
}

/** Deeper than the loader lets a document nest. */
const MAX_DEPTH = 512;

/** The first thing in `schema` Ajv would refuse to compile; local refs are looked up in `root`. */
export function ajvRefusal(schema: unknown, root: unknown): AjvRefusal | undefined {
  const visit = (node: unknown, tokens: readonly string[]): AjvRefusal | undefined => {
    if (!isObject(node) || tokens.length > MAX_DEPTH) return undefined;
    const reason = ownRefusal(node, root);
    if (reason !== undefined) return { pointer: jsonPointer(...tokens), reason };
    for (const { keyword, key, schema: inner } of subschemas(node)) {
      const found = visit(inner, key === undefined ? [...tokens, keyword] : [...tokens, keyword, key]);
      if (found) return found;
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
