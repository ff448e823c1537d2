/**
 * The exact filters of lists no client fills (openapi/operations/list-filters.ts: a query parameter
 * named as the items' property, taking an enum's string or a boolean; DocuSign Maestro's workflows,
 * listed per account by `status`), judged on the list's own records, since the suite can make none:
 * the list without the filter first, then with the value its first record holds (where another
 * record holds another value, a provider ignoring the filter shows that one). Every
 * record the filtered list shows must hold the value (list_honours_parameters). A collection's list
 * is judged by its sequence instead (sequences.ts), on records the suite made to match and not.
 * The runner gives the sender; this module decides what is sent.
 */
import fc from 'fast-check';
import { recogniseCollections } from '../openapi/operations/collections.js';
import { exactFilters, listedItems, type ExactFilter } from '../openapi/operations/list-filters.js';
import type { CompiledContract } from '../openapi/operations/model.js';
import { isObject } from '../openapi/schema/resolve.js';
import { validParameterValues } from './generators/parameters.js';
import type { StepSender } from './sequences.js';
import type { SuiteContract } from './spec-contract.js';

export interface ListedFilters {
  operation: SuiteContract;
  filters: readonly ExactFilter[];
}

/**
 * The lists under test with exact filters that no collection holds (an operation the collections
 * rule places, its list or its read, is judged by the collection's sequence on records made for it).
 */
export function listedFilters(compiled: CompiledContract, operations: readonly SuiteContract[]): ListedFilters[] {
  const placed = recogniseCollections(compiled).stateful;
  return operations.flatMap((operation): ListedFilters[] => {
    const compiledOperation = compiled.operations.get(operation.operationId);
    if (placed.has(operation.operationId) || !compiledOperation) return [];
    const filters = exactFilters(compiledOperation, compiled.document);
    return filters.length ? [{ operation, filters }] : [];
  });
}

/** Lists each list without its filters, then with each filter set to a value its records hold. */
export async function runListedFilters(lists: readonly ListedFilters[], context: { send: StepSender; seed: number; given: ReadonlyMap<string, ReadonlyMap<string, string>> }): Promise<void> {
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (context.seed + 7_919 * ++draws) | 0, numRuns: 1 })[0] as T;
  for (const { operation, filters } of lists) {
    const given = context.given.get(operation.operationId);
    // The required parameters (the path's, and any other the list cannot go without): values earlier answers gave, else valid ones.
    const path = new Map<string, string>();
    for (const [parameter, literal] of validParameterValues(operation, sample, false)) {
      if (literal !== undefined) path.set(parameter.name, given?.get(parameter.name) ?? literal);
    }
    const step = { kind: 'list' as const, collection: operation.path, identity: 'id' };
    const names = filters.map((f) => f.parameter).join(', ');
    const all = await context.send({ operation, step, description: `lists without ${names}, to find the values its records hold`, expect: 'provider-choice', parameters: path });
    // No list, no record to choose a value from: the filtered list says why it was not sent (the report's skipped cases), rather than judging nothing unsaid.
    const listed = all.status !== undefined && all.status >= 200 && all.status <= 299;
    for (const filter of filters) {
      const records = listed ? (listedItems(all.body, filter.wrapper) ?? []) : [];
      const wanted = chosenValue(filter, records);
      if (wanted === undefined) continue;
      // Records that leave the property out (a summary of each) cannot be told to match or not.
      const shown = records.length === 0 || filter.absent !== undefined || records.some((record) => isObject(record) && filter.property in record);
      const why = !listed
        ? `not sent: the list without ${filter.parameter} answered ${all.status ?? 'nothing'}, so no record showed a value to filter by`
        : !shown
          ? `not sent: the records listed without ${filter.parameter} do not show their ${filter.property}, so a filtered list could not be judged`
          : undefined;
      await context.send({
        ...(why === undefined ? {} : { notSent: why }),
        operation,
        step: {
          ...step,
          ...(filter.wrapper === undefined ? {} : { wrapper: filter.wrapper }),
          filter: { parameter: filter.parameter, property: filter.property, values: [wanted], ...(filter.absent === undefined ? {} : { absent: filter.absent }) },
        },
        description: `lists with ${filter.parameter}=${String(wanted)}: only records whose ${filter.property} is ${String(wanted)}`,
        expect: 'accepted',
        parameters: new Map([...path, [filter.parameter, JSON.stringify(wanted)]]),
      });
    }
  }
}

/**
 * The value to filter by: the first a listed record holds (where another record holds another, a
 * provider ignoring the filter shows that one), else the first the parameter takes. One pass: a
 * hostile list of many records costs time linear in them.
 */
function chosenValue(filter: ExactFilter, records: readonly unknown[]): string | boolean | undefined {
  for (const record of records) {
    const value = isObject(record) ? record[filter.property] : undefined;
    if (filter.values.includes(value as string | boolean)) return value as string | boolean;
  }
  return filter.values[0];
}
