/**
 * Reads below a record a client makes, sent once with that record missing on purpose: a GET under
 * test that declares 404 and whose path names a record of a collection (the core's
 * recordParameters, which the mock reads too: on or below a collection's item path, or named for a
 * top-level collection's identity) is sent with the deepest such record never made
 * (`GET /sites/{site_id}/ssl/certificates` of a site never created), the other path values as
 * earlier answers gave them; missing_resource_not_found judges the answer. Not a value only a list
 * gives (a workflow nobody creates through the API): which of those exist is the provider's own
 * data, so none is missing on purpose. Plans are pure; the runner sends them.
 */
import type { CompiledContract } from '../openapi/operations/model.js';
import { recordParameters } from '../openapi/operations/dependencies.js';
import type { SuiteContract } from './spec-contract.js';

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
  return operations.flatMap((operation) => {
    if (operation.method !== 'GET' || !operation.responses.has(404) || judgedReads.has(operation.operationId)) return [];
    const deepest = records.get(operation.operationId)?.at(-1);
    if (!deepest) return [];
    const at = operation.path.indexOf(`{${deepest.parameter}}`);
    return [{ operation, parameter: deepest.parameter, collection: operation.path.slice(0, Math.max(at - 1, 0)) }];
  });
}

/** The reads the sequences already judge on a record never made. */
export function judgedReads(plans: ReadonlyArray<{ read?: SuiteContract }>): Set<string> {
  return new Set(plans.flatMap((plan) => (plan.read ? [plan.read.operationId] : [])));
}
