/**
 * What the store accepts: a body that is a NewPlant by the spec's schema, read with its id
 * exact over the whole int64 range.
 */
import { isUtf8 } from 'node:buffer';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { exactInteger, exactPlanOfArray, JsonTooDeep, literalBehindStandIn, parseExactJson, READ_EVERY_NUMBER, type ExactPlan } from '../../spec/exact-json.js';
import { reject, type Rejection } from '../errors.js';
import type { StoredPlant } from '../stores/plant-store.js';

/**
 * Parses and validates a createPlant body; returns the plant or the 400 it earns. `plan` says
 * which numbers the schema needs read exactly (SpecEngine's newPlantPlan); every number by default.
 */
export function parseNewPlant(body: Buffer, validate: ValidateFunction, plan: ExactPlan | undefined = READ_EVERY_NUMBER): StoredPlant | Rejection {
  if (body.length === 0) return reject('EMPTY_BODY');
  const parsed = parseJsonBody(body, plan);
  if (!parsed.ok) return parsed.rejection;
  const value = parsed.value;
  const problems = newPlantProblems(value, validate, '');
  if (problems.length) return reject('INVALID_NEW_PLANT', { problems });
  return toStoredPlant(value as Record<string, unknown>);
}

/** Parses an array of NewPlants (the admin seed); all valid or the 400 naming each problem. `plan` is a NewPlant's. */
export function parseNewPlants(body: Buffer, validate: ValidateFunction, plan: ExactPlan | undefined = READ_EVERY_NUMBER): StoredPlant[] | Rejection {
  if (body.length === 0) return reject('INVALID_SEED', { problems: ['the body is empty'] });
  const parsed = parseJsonBody(body, exactPlanOfArray(plan));
  if (!parsed.ok) return reject('INVALID_SEED', { problems: [parsed.rejection.message] });
  return newPlantsFromValue(parsed.value, validate);
}

/** Validates an already parsed array of NewPlants (from a seed file or the admin route). */
export function newPlantsFromValue(value: unknown, validate: ValidateFunction): StoredPlant[] | Rejection {
  if (!Array.isArray(value)) {
    return reject('INVALID_SEED', { problems: [`expected a JSON array of NewPlants, got ${describeType(value)}`] });
  }
  const problems = value.flatMap((item, index) => newPlantProblems(item, validate, `[${index}] `));
  if (problems.length) return reject('INVALID_SEED', { problems });
  return value.map((item) => toStoredPlant(item as Record<string, unknown>));
}

type Parsed = { ok: true; value: unknown } | { ok: false; rejection: Rejection };

function parseJsonBody(body: Buffer, plan: ExactPlan | undefined): Parsed {
  if (!isUtf8(body)) return { ok: false, rejection: reject('INVALID_ENCODING') };
  try {
    return { ok: true, value: parseExactJson(body.toString('utf8'), plan) };
  } catch (error) {
    if (error instanceof JsonTooDeep) return { ok: false, rejection: reject('JSON_TOO_DEEP', { limit: error.limit }) };
    return { ok: false, rejection: reject('MALFORMED_JSON', { detail: (error as Error).message }) };
  }
}

function newPlantProblems(value: unknown, validate: ValidateFunction, prefix: string): string[] {
  // openapi-backend's body validators wrap the body as `requestBody`.
  const root = { requestBody: value };
  if (validate(root)) return [];
  return describeErrors(validate.errors ?? [], root).map((problem) => prefix + problem);
}

function toStoredPlant(value: Record<string, unknown>): StoredPlant {
  const plant: StoredPlant = { id: exactInteger(value, 'id') as bigint, name: value.name as string };
  if (value.tag !== undefined) plant.tag = value.tag as string;
  return plant;
}

/**
 * One sentence per offending field, in the words a frontend developer uses. `root` is the value
 * that was validated, to quote a number as it was sent when the parsed view shows a stand-in.
 */
export function describeErrors(errors: readonly ErrorObject[], root?: object): string[] {
  const sentences = new Set<string>();
  for (const error of errors) sentences.add(describeError(error, root));
  return [...sentences];
}

function describeError(error: ErrorObject, root: object | undefined): string {
  const path = error.instancePath.replace(/^\/requestBody/, '');
  const field = path === '' ? 'the body' : path.slice(1).replaceAll('/', '.');
  switch (error.keyword) {
    case 'required':
      return `${path === '' ? '' : `${field}.`}${(error.params as { missingProperty: string }).missingProperty} is required`;
    case 'type': {
      const expected = (error.params as { type: string }).type;
      const article = path === '' ? 'a JSON ' : /^[aeiou]/.test(expected) ? 'an ' : 'a ';
      return `${field} must be ${article}${expected}, got ${describeValue(error.data, root && sentLiteral(root, error.instancePath))}`;
    }
    case 'format': {
      const format = (error.params as { format: string }).format;
      if (format === 'int64') return `${field} must be an integer from -9223372036854775808 to 9223372036854775807`;
      if (format === 'int32') return `${field} must be an integer from -2147483648 to 2147483647`;
      return `${field} must be a valid ${format}`;
    }
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

/** The number literal as sent, where the validated view holds a stand-in for it (exact-json). */
function sentLiteral(root: object, instancePath: string): string | undefined {
  const keys = instancePath.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  const key = keys.pop();
  let container: unknown = root;
  for (const k of keys) container = (container as Record<string, unknown> | undefined)?.[k];
  return key !== undefined && container !== null && typeof container === 'object' ? literalBehindStandIn(container, key) : undefined;
}

function describeValue(value: unknown, literal?: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${literal ?? value}`;
  return describeType(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return `${value}`;
  return `a ${typeof value}`;
}
