/**
 * The one way validation errors become words: one sentence per offending field, in the terms a
 * frontend developer or a provider team uses ("id is required", "name must be a string, got the
 * number 5"). The mock's 400s, its journal, the fixture loader and the contract suite all use it.
 *
 * What a client can make us say is bounded: at most `limit` sentences, and how many more there
 * were, so a body with a million faults costs a few lines, not megabytes.
 */
import type { ErrorObject } from 'ajv';
import { choiceNote, type ChoiceNote } from './discriminator.js';
import { literalBehindStandIn } from './exact-json.js';
import { escapePointerToken, jsonPointerTokens } from './resolve.js';

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
  /** What the value itself is called where a problem concerns it whole (`the body` unless said). */
  subject?: string;
}

/** The words for a validator's errors. */
export function describeProblems(errors: readonly ErrorObject[] | null | undefined, options: DescribeOptions = {}): Problems {
  const limit = options.limit ?? DEFAULT_PROBLEM_LIMIT;
  const sentences = new Set<string>();
  const fields: string[] = [];
  let more = 0;
  const merged = mergedNumberErrors(errors ?? [], options);
  // Which schema a discriminator chose is said before what that schema finds wrong (Ajv reports it after).
  const chosen = (error: ErrorObject): ChoiceNote | undefined => (error.keyword === 'if' ? choiceNote(error.parentSchema) : undefined);
  const ordered = [...(errors ?? [])].sort((a, b) => Number(chosen(b) !== undefined) - Number(chosen(a) !== undefined));
  for (const error of ordered) {
    const choice = chosen(error);
    // Branch summaries repeat what their leaves say.
    if ((error.keyword === 'allOf' || error.keyword === 'if') && !choice) continue;
    const group = merged.get(error);
    if (group === null) continue;
    const sentence = bounded((options.prefix ?? '') + (choice ? describeChoice(error, choice, options) : group ? describeIntegerRange(group, options) : describeError(error, options)));
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
  const field = path === '' ? (options.subject ?? 'the body') : pointerToField(path);
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

/** The schema a discriminator's value chose, which the value does not match: `petType is "dog", so the body must be a valid Dog`. */
function describeChoice(error: ErrorObject, { propertyName, value, schema }: ChoiceNote, options: DescribeOptions): string {
  const path = error.instancePath;
  const holder = path === '' ? (options.subject ?? 'the body') : pointerToField(path);
  return `${path === '' ? '' : `${holder}.`}${propertyName} is ${JSON.stringify(value)}, so ${holder} must be a valid ${schema}`;
}

/** The keywords that bound a number; with `type: integer` and an int format, one sentence says them all. */
const NUMBER_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
const INTEGER_FORMATS: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** An error that says the value must be an integer (its type or an int32/int64 format). */
function isIntegerError(error: ErrorObject): boolean {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'type') return String(params.type).split(',').includes('integer');
  return error.keyword === 'format' && String(params.format) in INTEGER_FORMATS;
}

/**
 * The errors of one value that say overlapping things about one integer (`must be <= 100` and
 * `must be an integer from -2147483648 to 2147483647`, or `must be an integer, got 1.5` beside
 * them): the first of each such group maps to the whole group, the others to null (said by it).
 */
function mergedNumberErrors(errors: readonly ErrorObject[], options: DescribeOptions): Map<ErrorObject, ErrorObject[] | null> {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    if (!isIntegerError(error) && !NUMBER_KEYWORDS.has(error.keyword)) continue;
    const group = byPath.get(error.instancePath);
    if (group) group.push(error);
    else byPath.set(error.instancePath, [error]);
  }
  const merged = new Map<ErrorObject, ErrorObject[] | null>();
  for (const group of byPath.values()) {
    if (group.length < 2 || !group.some(isIntegerError)) continue;
    const range = integerRange(group);
    if (range === undefined) continue;
    const typeError = group.find((error) => error.keyword === 'type');
    if (typeError && group.every((error) => error === typeError || error.keyword === 'format') && withinRange(typeError, range, options)) {
      // A fraction the format's range holds (`1.5` for an int32): `must be an integer, got 1.5` says it all.
      for (const error of group) if (error !== typeError) merged.set(error, null);
      continue;
    }
    group.forEach((error, index) => merged.set(error, index === 0 ? group : null));
  }
  return merged;
}

/**
 * The integers a group's schemas allow, from the int format's range and the bounds beside it
 * (Ajv's `verbose` errors carry their schema); undefined when nothing is allowed or nothing known.
 */
function integerRange(group: readonly ErrorObject[]): { low: bigint | undefined; high: bigint | undefined } | undefined {
  let low: bigint | undefined;
  let high: bigint | undefined;
  const raise = (bound: bigint): void => void (low = low === undefined || bound > low ? bound : low);
  const lower = (bound: bigint): void => void (high = high === undefined || bound < high ? bound : high);
  for (const error of group) {
    const schema = error.parentSchema;
    if (schema === undefined) return undefined;
    const format = typeof schema.format === 'string' ? INTEGER_FORMATS[schema.format] : undefined;
    if (format) {
      raise(format[0]);
      lower(format[1]);
    }
    const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
    if (finite(schema.minimum)) raise(BigInt(Math.ceil(schema.minimum)));
    if (finite(schema.exclusiveMinimum)) raise(BigInt(Math.floor(schema.exclusiveMinimum)) + 1n);
    if (finite(schema.maximum)) lower(BigInt(Math.floor(schema.maximum)));
    if (finite(schema.exclusiveMaximum)) lower(BigInt(Math.ceil(schema.exclusiveMaximum)) - 1n);
  }
  if (low !== undefined && high !== undefined && low > high) return undefined;
  return low === undefined && high === undefined ? undefined : { low, high };
}

/** Whether a number refused by its type lies inside `range` (read from the literal sent where the view holds a stand-in). */
function withinRange(error: ErrorObject, { low, high }: { low: bigint | undefined; high: bigint | undefined }, options: DescribeOptions): boolean {
  const literal = options.root !== undefined ? sentLiteral(options.root, error.instancePath) : undefined;
  const value = literal !== undefined ? Number(literal) : error.data;
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  return (low === undefined || value >= Number(low)) && (high === undefined || value <= Number(high));
}

/** One sentence for a group of `mergedNumberErrors`: `limit must be an integer from 1 to 100, got the number 1.5`. */
function describeIntegerRange(group: readonly ErrorObject[], options: DescribeOptions): string {
  const first = group[0] as ErrorObject;
  const path = first.instancePath;
  const field = path === '' ? (options.subject ?? 'the body') : pointerToField(path);
  const { low, high } = integerRange(group) ?? {};
  const range = low !== undefined && high !== undefined ? `from ${low} to ${high}` : low !== undefined ? `of at least ${low}` : `of at most ${String(high)}`;
  const typeError = group.find((error) => error.keyword === 'type');
  const orNull =
    typeError &&
    String((typeError.params as Record<string, unknown>).type)
      .split(',')
      .includes('null')
      ? ' or null'
      : '';
  const got = typeError ? `, got ${describeValue(typeError.data, options.root !== undefined ? sentLiteral(options.root, path) : undefined)}` : '';
  return `${field} must be an integer ${range}${orNull}${got}`;
}

/** The pointer of the field an error concerns: for a missing property, the property's own. */
function fieldPointer(error: ErrorObject): string {
  const path = error.instancePath;
  if (error.keyword !== 'required') return path;
  const missing = String((error.params as Record<string, unknown>).missingProperty);
  return `${path}/${escapePointerToken(missing)}`;
}

/** A pointer as a client writes the field: `/items/0/name` → `items[0].name`, `/query parameter genres/0` → `query parameter genres[0]`. */
function pointerToField(pointer: string): string {
  return jsonPointerTokens(pointer)
    .map((token, i) => (i === 0 ? token : /^\d+$/.test(token) ? `[${token}]` : `.${token}`))
    .join('');
}

/** The number literal as sent, where the validated view holds a stand-in for it (exact-json). */
function sentLiteral(root: unknown, instancePath: string): string | undefined {
  const keys = jsonPointerTokens(instancePath);
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
