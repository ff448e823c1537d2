/**
 * A request's parameters against the spec: each read by its style and explode and coerced to its
 * schema's types (openapi/operations/parameters.ts), then judged by its compiled validator (openapi/operations/compile.ts:
 * exact int32/int64). One judge for both mocks: the stateful mock's request path (./request-path.ts)
 * and the Prism mock's edge (../prism/server.ts), which judges here first because Prism reads
 * numbers into doubles and an empty value as absent.
 */
import type { ErrorObject } from 'ajv';
import type { ContractParameter } from '../../openapi/operations/model.js';
import type { ParameterSource } from '../../openapi/operations/parameters.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import { reject, type Rejection } from '../errors.js';

/**
 * Every parameter's problems (a required one missing, a value its schema refuses), none when all
 * fit; `sent` receives each value the request sends, as read (what a handler and a message quote).
 */
export function parameterErrors(parameters: readonly ContractParameter[], source: ParameterSource, sent: Record<string, unknown>): ErrorObject[] {
  const errors: ErrorObject[] = [];
  for (const parameter of parameters) {
    const value = parameter.read(source);
    if (value === undefined) {
      if (parameter.required) errors.push(missing(parameter.in, parameter.name));
      continue;
    }
    sent[parameter.name] = value;
    if (!parameter.validate) continue;
    if (!parameter.validate(value)) {
      const where = `/${parameter.in} parameter ${parameter.name}`;
      const own = parameter.validate.errors ?? [];
      if (sentMoreThanOnce(parameter, source, value, own)) errors.push(repeated(where));
      else for (const error of own) errors.push({ ...error, instancePath: where + error.instancePath });
    }
  }
  return errors;
}

/** The 400 for parameters that do not fit, in the catalogue's words; `sent` quotes numbers as sent. */
export function parameterRejection(errors: readonly ErrorObject[] | null | undefined, sent: unknown): Rejection {
  const { sentences, more, fields } = describeProblems(errors, { root: sent });
  return reject('INVALID_PARAMETER', { problems: sentences, more, fields });
}

/**
 * Whether a query parameter that takes one value was refused for being sent more than once: the
 * reader hands `?limit=1&limit=2` on as the list it is, and its schema's refusal of a list (`must
 * be an integer, got an array`) would not tell the client what went wrong.
 */
function sentMoreThanOnce(parameter: ContractParameter, source: ParameterSource, value: unknown, errors: readonly ErrorObject[]): boolean {
  if (parameter.in !== 'query' || parameter.style === 'content' || !Array.isArray(value) || (source.query.get(parameter.name)?.length ?? 0) < 2) return false;
  return errors.some(
    (error) =>
      error.keyword === 'type' &&
      error.instancePath === '' &&
      !String((error.params as Record<string, unknown>).type)
        .split(',')
        .includes('array'),
  );
}

function repeated(where: string): ErrorObject {
  return { keyword: 'repeated', instancePath: where, schemaPath: '', params: {}, message: 'was sent more than once but takes one value' } as ErrorObject;
}

function missing(location: string, name: string): ErrorObject {
  return { keyword: 'required', instancePath: '', schemaPath: '', params: { missingProperty: `the ${location} parameter ${name}` } } as ErrorObject;
}
