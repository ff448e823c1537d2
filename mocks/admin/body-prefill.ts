/**
 * The body a "Try it" form starts with when the spec gives the request no example: one generated
 * from the request body's schema by openapi-backend's generator (mock-json-schema), on the schema
 * as ../engine/mockable-schema.ts rewrites it for a request. That rewrite is what makes a recursive
 * schema finite (`Category.children: Category[]` is cut to an empty list where the ref comes back,
 * an optional `parent` left out, a required `next: Node | null` made null) and leaves out the
 * `readOnly` properties (the server's to set); handed the dereferenced schema, the generator
 * recursed until the stack ran out and the form started empty.
 *
 * Tried as the mock's generated answers are: with the schema's own examples and defaults, then
 * without them; the first value the request's own validator takes is kept. When neither is valid
 * (a `not`, a `uniqueItems` the rewrite does not read) the first one is still a better start than
 * nothing; when the schema has no finite value at all (a required property that can only hold
 * itself) there is none.
 */
import type { mock as mockFunction } from 'mock-json-schema';
import type { ContractMediaType } from '../../openapi/operations/model.js';
import type { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { mockableSchema } from '../engine/mockable-schema.js';

export interface PrefillTools {
  mock: typeof mockFunction;
  patterns: PatternStrings;
}

/** A request body for `media` generated from its schema, as JSON would carry it; undefined when the schema has no finite value. */
export function generatedRequestBody(media: ContractMediaType, document: unknown, tools: PrefillTools): unknown {
  if (media.schema === undefined) return undefined;
  let validate: ContractMediaType['validate'];
  try {
    validate = media.validate;
  } catch {
    // A schema that cannot be compiled: the generated value goes unjudged.
    validate = undefined;
  }
  let first: { value: unknown } | undefined;
  for (const examples of [true, false]) {
    const mockable = mockableSchema(media.schema, document, { examples, direction: 'request', patternString: (keywords) => tools.patterns.stringFor(keywords) });
    if (mockable === undefined) continue;
    let generated: unknown;
    try {
      generated = tools.mock(mockable as Parameters<typeof mockFunction>[0]);
    } catch {
      continue;
    }
    // Judged as it is sent: JSON text read back (an undefined member dropped).
    const value = generated === undefined ? null : (JSON.parse(JSON.stringify(generated)) as unknown);
    if (!validate || validate(value) === true) return value;
    first ??= { value };
  }
  return first?.value;
}
