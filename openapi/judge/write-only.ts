/**
 * writeOnly properties in an answer: a JSON Schema validator lets them through (writeOnly is an
 * annotation), yet OpenAPI says they are sent and never answered (a password, a card number).
 */
import { escapePointerToken, isObject, type Schema } from '../schema/resolve.js';

/** How deep into an answer writeOnly properties are looked for (inlineSchema stops expanding sooner). */
const MAX_LEAK_DEPTH = 16;

/**
 * The JSON pointers of the properties in `value` that `schema` (inlined: refs followed, allOf merged)
 * marks writeOnly: objects, array items and every anyOf/oneOf branch followed.
 */
export function writeOnlyLeaks(value: unknown, schema: Schema): string[] {
  return [...new Set(leaks(value, schema, '', 0))];
}

function leaks(value: unknown, schema: Schema, at: string, depth: number): string[] {
  if (depth > MAX_LEAK_DEPTH || value === null || typeof value !== 'object') return [];
  const branches = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].filter(isObject);
  const found = branches.flatMap((branch) => leaks(value, branch, at, depth + 1));
  if (Array.isArray(value)) {
    if (isObject(schema.items)) {
      const items = schema.items;
      value.forEach((item, index) => {
        for (const leak of leaks(item, items, `${at}/${index}`, depth + 1)) found.push(leak);
      });
    }
  } else if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(value, name) || !isObject(property)) continue;
      const pointer = `${at}/${escapePointerToken(name)}`;
      if (property.writeOnly === true) found.push(pointer);
      else for (const leak of leaks((value as Record<string, unknown>)[name], property, pointer, depth + 1)) found.push(leak);
    }
  }
  return found;
}
