/**
 * Where a whole-document walk meets names rather than keywords. A key of `properties`, `schemas`,
 * `responses` … is a name the author chose (a property may be called `example` or `nullable`), a
 * key of a schema or an Operation Object is a keyword; values under data keys are data. Passes
 * over the raw document (nullable.ts, upgrade-names.ts) read both sets from here.
 */
import { NAMED_SCHEMA_KEYWORDS, VALUE_KEYWORDS } from '../schema/keywords.js';

/** Keys whose values are data (an example, an Example Object's value, a default, a const), not schemas (keywords.ts). */
export const DATA_KEYS: ReadonlySet<string> = new Set([...VALUE_KEYWORDS, 'value']);

/** Keys whose values are maps of names (to schemas, responses, media types, scopes …): their keys are names, not keywords. */
export const NAME_MAPS: ReadonlySet<string> = new Set([
  ...NAMED_SCHEMA_KEYWORDS,
  'schemas',
  'paths',
  'responses',
  'content',
  'headers',
  'callbacks',
  'webhooks',
  'links',
  'parameters',
  'requestBodies',
  'securitySchemes',
  'pathItems',
  'encoding',
  'mapping',
  'scopes',
  'variables',
]);
