/**
 * The body a "Try it" form starts with when the spec gives the request no example: one made from
 * the request body's schema by the core's sampler (openapi/schema/sample.ts), as a request: the
 * `readOnly` properties (the server's to set) left out, a recursive schema made finite
 * (`Category.children: Category[]` cut to an empty list where the ref comes back, an optional
 * `parent` left out, a required `next: Node | null` made null).
 *
 * Tried as the mock's generated answers are: with the schema's own examples and defaults, then
 * without them; the first value the request's own validator takes is kept. When neither is valid
 * (a `not`, a `uniqueItems` the sampler does not read) the first one is still a better start than
 * nothing; when the schema has no finite value at all (a required property that can only hold
 * itself) there is none.
 */
import type { ContractMediaType } from '../../openapi/operations/model.js';
import type { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { samples } from '../../openapi/schema/sample.js';

/** A request body for `media` generated from its schema, as JSON would carry it; undefined when the schema has no finite value. */
export function generatedRequestBody(media: ContractMediaType, document: unknown, patterns: PatternStrings): unknown {
  if (media.schema === undefined) return undefined;
  let validate: ContractMediaType['validate'];
  try {
    validate = media.validate;
  } catch {
    // A schema that cannot be compiled: the generated value goes unjudged.
    validate = undefined;
  }
  let first: { value: unknown } | undefined;
  for (const generated of samples(media.schema, { document, direction: 'request', patternString: (keywords) => patterns.stringFor(keywords) })) {
    // Judged as it is sent: JSON text read back (an undefined member dropped).
    const value = generated === undefined ? null : (JSON.parse(JSON.stringify(generated)) as unknown);
    if (!validate || validate(value) === true) return value;
    first ??= { value };
  }
  return first?.value;
}
