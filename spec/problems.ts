/**
 * The one way validation errors become words: one sentence per offending field, in the terms a
 * frontend developer or a provider team uses ("id is required", "name must be a string, got the
 * number 5"). The mock's 400s, its journal, the fixture loader and the contract suite all use it.
 *
 * What a client can make us say is bounded: at most `limit` sentences, and how many more there
 * were, so a body with a million faults costs a few lines, not megabytes.
 */
import type { ErrorObject } from 'ajv';
import { literalBehindStandIn } from './exact-json.js';

/** Sentences shown by default; the rest are counted. */
export const DEFAULT_PROBLEM_LIMIT = 10;

export interface Problems {
  /** At most `limit` distinct sentences, in the order the validator found them. */
  sentences: string[];
  /** How many more distinct problems there were. */
  more: number;
  /** The JSON pointer of the field each sentence concerns (a missing property's own), index by index. */
  fields: string[];
}

export interface DescribeOptions {
  /** The value that was validated, to quote a number as it was sent where the view holds a stand-in. */
  root?: unknown;
  /** Put before every sentence (`[3] ` for the fourth item of a seed). */
  prefix?: string;
  /** Put before every field's pointer (`/3` for the fourth item of a seed). */
  pointerPrefix?: string;
  limit?: number;
}

/** The words for a validator's errors. */
export function describeProblems(errors: readonly ErrorObject[] | null | undefined, options: DescribeOptions = {}): Problems {
  const limit = options.limit ?? DEFAULT_PROBLEM_LIMIT;
  const sentences = new Set<string>();
  const fields: string[] = [];
  let more = 0;
  for (const error of errors ?? []) {
    // Branch summaries repeat what their leaves say.
    if (error.keyword === 'allOf' || error.keyword === 'if') continue;
    const sentence = bounded((options.prefix ?? '') + describeError(error, options));
    if (sentences.has(sentence)) continue;
    if (sentences.size < limit) {
      sentences.add(sentence);
      fields.push((options.pointerPrefix ?? '') + fieldPointer(error));
    } else more++;
  }
  return { sentences: [...sentences], more, fields };
}

/** Longest sentence: field names and quoted values come from the client, and a message stays readable. */
const MAX_SENTENCE = 200;

function bounded(sentence: string): string {
  return sentence.length > MAX_SENTENCE ? `${sentence.slice(0, MAX_SENTENCE)}…` : sentence;
}

/** The sentences joined for a message: `a; b; c (and 4 more)`. */
export function problemsText({ sentences, more }: Problems): string {
  return sentences.join('; ') + (more ? ` (and ${more} more)` : '');
}

function describeError(error: ErrorObject, options: DescribeOptions): string {
  const path = error.instancePath;
  const field = path === '' ? 'the body' : pointerToField(path);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${path === '' ? '' : `${field}.`}${String(params.missingProperty)} is required`;
    case 'type': {
      // Ajv names a list of types with commas (`string,null`): said as words, each with its article.
      const expected = String(params.type)
        .split(',')
        .map((type) => (type === 'null' ? 'null' : `${path === '' ? 'a JSON ' : /^[aeiou]/.test(type) ? 'an ' : 'a '}${type}`))
        .join(' or ');
      const literal = options.root !== undefined ? sentLiteral(options.root, error.instancePath) : undefined;
      return `${field} must be ${expected}, got ${describeValue(error.data, literal)}`;
    }
    case 'format': {
      const format = String(params.format);
      if (format === 'int64') return `${field} must be an integer from -9223372036854775808 to 9223372036854775807`;
      if (format === 'int32') return `${field} must be an integer from -2147483648 to 2147483647`;
      return `${field} must be a valid ${format}`;
    }
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${field} must be ${JSON.stringify(params.allowedValue)}`;
    case 'additionalProperties':
      return `${field} must not have the property ${JSON.stringify(params.additionalProperty)}`;
    case 'maxLength':
    case 'minLength':
      return `${field} must have ${error.keyword === 'maxLength' ? 'at most' : 'at least'} ${String(params.limit)} character${params.limit === 1 ? '' : 's'}`;
    case 'pattern':
      return `${field} must match the pattern ${String(params.pattern)}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

/** The pointer of the field an error concerns: for a missing property, the property's own. */
function fieldPointer(error: ErrorObject): string {
  const path = error.instancePath;
  if (error.keyword !== 'required') return path;
  const missing = String((error.params as Record<string, unknown>).missingProperty);
  return `${path}/${missing.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** A pointer as a client writes the field: `/items/0/name` → `items[0].name`, `/query parameter genres/0` → `query parameter genres[0]`. */
function pointerToField(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .map((part, i) => {
      const token = part.replaceAll('~1', '/').replaceAll('~0', '~');
      return i === 0 ? token : /^\d+$/.test(token) ? `[${token}]` : `.${token}`;
    })
    .join('');
}

/** The number literal as sent, where the validated view holds a stand-in for it (exact-json). */
function sentLiteral(root: unknown, instancePath: string): string | undefined {
  const keys = instancePath
    .split('/')
    .slice(1)
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  const key = keys.pop();
  let container: unknown = root;
  for (const k of keys) container = (container as Record<string, unknown> | undefined)?.[k];
  return key !== undefined && container !== null && typeof container === 'object' ? literalBehindStandIn(container, key) : undefined;
}

function describeValue(value: unknown, literal?: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${literal !== undefined && literal.length > 40 ? `${literal.slice(0, 40)}…` : (literal ?? value)}`;
  return describeType(value);
}

/** A value's JSON type in words: `an array`, `null`, `a string` … */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return `${value}`;
  return `a ${typeof value}`;
}
