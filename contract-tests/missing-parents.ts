/**
 * Reads below a record a client makes, sent once with that record missing on purpose: a GET under
 * test that declares 404 and whose path names a record of a collection (the core's
 * recordParameters, which the mock reads too: on or below a collection's item path, or named for a
 * top-level collection's identity) is sent with the deepest such record never made
 * (`GET /sites/{site_id}/ssl/certificates` of a site never created), the other path values as
 * earlier answers gave them; missing_resource_not_found judges the answer. A value only a list gives
 * (a workflow nobody creates through the API: the core's listedParameters) names the provider's own
 * data, which the suite cannot know; but where the parameter takes identifiers (`format: uuid`, or a
 * pattern) and a UUID is one, a fresh random UUID names none of it, so such a read is sent with one
 * (Maestro's trigger requirements of a workflow no list answered). Never a free-form name: a
 * provider may hold any. Plans are pure; the runner sends them.
 */
import { randomUUID } from 'node:crypto';
import type { CompiledContract } from '../openapi/operations/model.js';
import { listedParameters, recordParameters } from '../openapi/operations/dependencies.js';
import type { SuiteContract, SuiteParameter } from './spec-contract.js';

/** A read sent with the record its path names missing on purpose. */
export interface MissingParent {
  operation: SuiteContract;
  /** The path parameter left naming no record (the deepest one naming a record). */
  parameter: string;
  /** The path up to that parameter's collection, for the report. */
  collection: string;
}

/** The missing-parent reads of the operations under test, other than the reads the sequences judge on an id never created. */
export function planMissingParents(compiled: CompiledContract, operations: readonly SuiteContract[], judgedReads: ReadonlySet<string>): MissingParent[] {
  const records = recordParameters(compiled);
  const listed = listedParameters(compiled);
  return operations.flatMap((operation) => {
    if (operation.method !== 'GET' || !operation.responses.has(404) || judgedReads.has(operation.operationId)) return [];
    const made = records.get(operation.operationId)?.at(-1)?.parameter;
    const onlyListed = listed
      .get(operation.operationId)
      ?.filter(({ parameter }) => takesFreshUuid(operation.parameters.find((p) => p.in === 'path' && p.name === parameter)))
      .at(-1)?.parameter;
    const at = (parameter: string | undefined): number => (parameter === undefined ? -1 : operation.path.indexOf(`{${parameter}}`));
    const deepest = at(onlyListed) > at(made) ? onlyListed : made;
    if (deepest === undefined) return [];
    return [{ operation, parameter: deepest, collection: operation.path.slice(0, Math.max(at(deepest) - 1, 0)) }];
  });
}

/** A parameter for identifiers (`format: uuid`, or a pattern) that a UUID fits: a fresh one names no record a provider has. */
function takesFreshUuid(parameter: SuiteParameter | undefined): boolean {
  const schema = parameter?.schema;
  if (!schema || (schema.format !== 'uuid' && typeof schema.pattern !== 'string')) return false;
  return parameter.validate?.(randomUUID()) === true;
}

/** The reads the sequences already judge on a record never made. */
export function judgedReads(plans: ReadonlyArray<{ read?: SuiteContract }>): Set<string> {
  return new Set(plans.flatMap((plan) => (plan.read ? [plan.read.operationId] : [])));
}
