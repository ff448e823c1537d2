/**
 * `nullable` read as OpenAPI 3.0 meant it, after the upgrade to 3.1 (openapi/document/load.ts), in every
 * document. @scalar/openapi-upgrader 0.1 rewrites only `nullable: true` beside a `type` (to a type
 * list with 'null'); its later versions also rewrite the `$ref` and `allOf` forms but need Node 22.
 * Whatever `nullable` is left is not a JSON Schema keyword, and Ajv, which still knows it, refuses
 * to compile it without a `type` ("nullable" cannot be used without "type"). So:
 *
 * - `nullable: true` beside a `type` → `'null'` added to the type list (a 3.1 document written
 *   with 3.0's keyword reads as its author meant);
 * - `nullable: true` without a `type` (`{allOf: [{$ref}], nullable: true}`, a `$ref`, a `oneOf` …)
 *   → `anyOf: [<the schema without nullable>, {type: 'null'}]`, the annotations (description,
 *   readOnly …) and extensions kept beside it, a lone `$ref` or single `allOf` part unwrapped;
 * - `nullable: false` (3.0's default) → removed.
 */
import { DATA_KEYS, NAME_MAPS } from './name-maps.js';
import { isObject, jsonPointer } from '../schema/resolve.js';

/** What stays beside the `anyOf`: it describes the property rather than constrains its value (readOnly/writeOnly are read there). */
const OUTER_KEYS = new Set(['title', 'description', 'deprecated', 'default', 'example', 'examples', 'externalDocs', 'readOnly', 'writeOnly', 'xml']);
/** Deeper than any real document; the loader refuses deeper nesting before this runs. */
const MAX_DEPTH = 512;

/**
 * Rewrites every `nullable` in `document` in place (see above); returns the pointers of the
 * schemas rewritten without a `type` (the ones worth a note).
 */
export function nullableAsNullAlternative(document: Record<string, unknown>): string[] {
  const rewritten: string[] = [];
  // One path, pushed and popped as the walk goes: a pointer is only built for a schema rewritten.
  const tokens: string[] = [];
  const walk = (value: unknown, namesHere: boolean): void => {
    if (tokens.length > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        tokens.push(String(index));
        walk(value[index], false);
        tokens.pop();
      }
      return;
    }
    if (!isObject(value)) return;
    if (!namesHere && typeof value.nullable === 'boolean' && rewrite(value)) rewritten.push(jsonPointer(...tokens));
    for (const key of Object.keys(value)) {
      // Data and extensions hold no schemas of the document's; a member of a map of names may be called anything.
      if (!namesHere && (DATA_KEYS.has(key) || key.startsWith('x-'))) continue;
      tokens.push(key);
      walk(value[key], !namesHere && NAME_MAPS.has(key));
      tokens.pop();
    }
  };
  walk(document, false);
  return rewritten;
}

/** Rewrites one schema holding `nullable`; true when it had no `type` and became a null alternative. */
function rewrite(schema: Record<string, unknown>): boolean {
  const nullable = schema.nullable;
  delete schema.nullable;
  if (nullable !== true) return false;
  const type = schema.type;
  if (typeof type === 'string') {
    if (type !== 'null') schema.type = [type, 'null'];
    return false;
  }
  if (Array.isArray(type)) {
    if (!type.includes('null')) schema.type = [...type, 'null'];
    return false;
  }
  const inner: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    if (OUTER_KEYS.has(key) || key.startsWith('x-')) continue;
    inner[key] = schema[key];
    delete schema[key];
  }
  // Nothing else to say: any value, null included, is valid already.
  if (Object.keys(inner).length === 0) return false;
  const parts = Array.isArray(inner.allOf) && inner.allOf.length === 1 && Object.keys(inner).length === 1 ? (inner.allOf as unknown[]) : [inner];
  schema.anyOf = [parts[0], { type: 'null' }];
  return true;
}
