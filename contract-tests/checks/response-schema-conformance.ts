/**
 * response_schema_conformance: a body of a declared status is the spec's schema for it (for the
 * bundled spec: a 200 is a Plant, a 400 an Error with both fields), parsed losslessly, so an
 * int32 or int64 is judged on its real digits. Extra fields are allowed where the schema allows them.
 */
import { parse as parseLossless } from 'lossless-json';
import { isJsonMediaType, matchingMedia, mediaEssence } from '../../openapi/media-types.js';
import type { Check } from '../model.js';
import { escapePointerToken, isObject, type Schema } from '../../openapi/schema/resolve.js';
import { declaredResponse, parseBody, schemaProblems } from '../spec-contract.js';
import { answered, failure } from './verdicts.js';

export const responseSchemaConformance: Check = {
  name: 'response_schema_conformance',
  proves: "bodies of declared statuses match the spec's schema for them (parsed exactly: int32 and int64 on their digits)",
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const declared = response && declaredResponse(contract, response.status);
    if (!response || !declared?.validate) return undefined;
    // A declared text/plain (or other non-JSON) answer is content_type_conformance's to judge, not this JSON reader's.
    const contentType = response.headers['content-type'];
    const media = contentType === undefined ? undefined : matchingMedia(declared.mediaTypes, contentType);
    if (media !== undefined && !isJsonMediaType(mediaEssence(media))) return undefined;
    const what = `The ${response.status} body`;
    const name = declared.schemaName === undefined ? 'the declared schema' : `${/^[AEIOU]/.test(declared.schemaName) ? 'an' : 'a'} ${declared.schemaName}`;
    const parsed = parseBody(response.body);
    if (!parsed.ok) return [failure(`${what} must be ${name}, but ${parsed.problem}.`)];
    // JSON.parse (and the exact reader) keep the last of repeated names; clients differ (RFC 8259 §4): an answer must not depend on which.
    const duplicate = duplicateName(response.body);
    if (duplicate)
      return [
        failure(
          `${what} names ${duplicate} twice with different values; RFC 8259 §4: names should be unique, and clients that keep the first or the last read different ${name.replace(/^an? /, '')}s.`,
        ),
      ];
    const problems = schemaProblems(declared.validate, parsed.value);
    if (problems) return [failure(`${what} is not ${name}: ${problems}.`)];
    // A validator passes a writeOnly property (a password, a secret) in an answer; the spec says it is never answered.
    const leaked = declared.schema ? writeOnlyLeaks(parsed.value, declared.schema, '', 0) : [];
    if (!leaked.length) return [];
    return [
      failure(
        `${what} holds ${leaked.slice(0, 3).join(', ')}${leaked.length > 3 ? ` and ${leaked.length - 3} more` : ''}, declared writeOnly: a property sent to the provider and never answered (OpenAPI: writeOnly properties are not sent in a response).`,
      ),
    ];
  },
};

/** How deep into an answer writeOnly properties are looked for (inlineSchema stops expanding sooner). */
const MAX_LEAK_DEPTH = 16;

/** The JSON pointers of the properties in `value` that `schema` (inlined) marks writeOnly: objects, array items and every anyOf/oneOf branch followed. */
function writeOnlyLeaks(value: unknown, schema: Schema, at: string, depth: number): string[] {
  if (depth > MAX_LEAK_DEPTH || value === null || typeof value !== 'object') return [];
  const branches = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].filter(isObject);
  const leaks = branches.flatMap((branch) => writeOnlyLeaks(value, branch, at, depth + 1));
  if (Array.isArray(value)) {
    if (isObject(schema.items)) {
      const items = schema.items;
      value.forEach((item, index) => leaks.push(...writeOnlyLeaks(item, items, `${at}/${index}`, depth + 1)));
    }
  } else if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(value, name) || !isObject(property)) continue;
      const pointer = `${at}/${escapePointerToken(name)}`;
      if (property.writeOnly === true) leaks.push(pointer);
      else leaks.push(...writeOnlyLeaks((value as Record<string, unknown>)[name], property, pointer, depth + 1));
    }
  }
  return [...new Set(leaks)];
}

/** A member name a JSON text repeats with different values (lossless-json refuses those), or undefined. */
function duplicateName(text: string): string | undefined {
  try {
    parseLossless(text);
    return undefined;
  } catch (error) {
    return /^Duplicate key '(.*)' encountered/.exec((error as Error).message)?.[1];
  }
}
