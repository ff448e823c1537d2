/**
 * What the suite does with the dependency graph (openapi/operations/dependencies.ts) before the
 * cases: which operations need a parent record created first (`POST /bookings/{bookingId}/payment`
 * needs a booking), and which query parameters name records whose values come from earlier answers
 * (`GET /trips?origin=` a station's id). Pure: the graph and the operations under test in, plans out.
 */
import type { Collection } from '../openapi/operations/collections.js';
import type { OperationDependencies } from '../openapi/operations/dependencies.js';
import type { SuiteContract } from './spec-contract.js';

/** A collection one record of which is created before the cases, for the operations below it. */
export interface ParentNeed {
  collection: Collection;
  /** The operations whose path names that record, with the path parameter naming it. */
  children: Array<{ operationId: string; parameter: string }>;
}

/**
 * The collections whose records the operations under test name as a parent in their path (by
 * the item path, a link, the name or the description), one entry per collection. An operation on
 * the record itself (its read, update, delete), or on a record below the parent (a path naming both),
 * is left to the sequences, which create their own.
 * A collection whose parent is itself nested (two levels) is left out: one level, as the sequences.
 */
export function parentNeeds(graph: readonly OperationDependencies[], operations: readonly SuiteContract[], collections: readonly Collection[]): ParentNeed[] {
  const tested = new Set(operations.map((o) => o.operationId));
  const needs = new Map<string, ParentNeed>();
  for (const entry of graph) {
    if (!tested.has(entry.operationId)) continue;
    for (const dependency of entry.consumes) {
      if (dependency.in !== 'path' || dependency.source === 'record' || dependency.collection === undefined) continue;
      const collection = collections.find((c) => c.path === dependency.collection);
      if (!collection || collection.parent?.collection.parent) continue;
      // A nested collection's own parent parameter is the one a child names; the child must name that too.
      if (collection.parent && !entry.path.includes(`{${collection.parent.parameter}}`)) continue;
      // Every other template of the path names a record too (`{paymentId}` of a payment below the booking): the pinned parent
      // alone would not make the request name records that exist, so the sequences judge it instead.
      const templates = [...entry.path.matchAll(/\{([^/{}]+)\}/g)].map((m) => m[1]);
      if (templates.some((name) => name !== dependency.parameter && name !== collection.parent?.parameter)) continue;
      const need = needs.get(collection.path) ?? { collection, children: [] };
      if (!need.children.some((c) => c.operationId === entry.operationId)) need.children.push({ operationId: entry.operationId, parameter: dependency.parameter });
      needs.set(collection.path, need);
    }
  }
  return [...needs.values()];
}

/** A query parameter or request body property naming a record (or a path parameter naming a record only a list answers), and where its value comes from. */
export interface ResourceQuery {
  operationId: string;
  parameter: string;
  /** `body`: a top-level property of the JSON request body (`station_id`). */
  in: 'query' | 'path' | 'body';
  /** The collection whose record it names, when the producer creates them. */
  collection?: string;
  /** The operation whose answer holds it, and the property. */
  producer: string;
  property: string;
}

/**
 * The query parameters and request body properties of the operations under test that name another
 * resource's records, and the path parameters naming a record that no collection creates, only a
 * list answers (`{workflowId}` of `/accounts/{accountId}/workflows/{workflowId}/…`, the ids
 * `GET …/workflows` lists): a client takes those from earlier answers, never makes them up.
 */
export function resourceQueries(graph: readonly OperationDependencies[], operations: readonly SuiteContract[]): ResourceQuery[] {
  const tested = new Set(operations.map((o) => o.operationId));
  return graph.flatMap((entry) =>
    tested.has(entry.operationId)
      ? entry.consumes
          .filter((d) => d.source !== 'link' && (d.in === 'query' || d.in === 'body' || (d.in === 'path' && d.collection === undefined && (d.source === 'name' || d.source === 'description'))))
          .map((d) => ({
            operationId: entry.operationId,
            parameter: d.parameter,
            in: d.in,
            producer: d.producer,
            property: d.property,
            ...(d.collection ? { collection: d.collection } : {}),
          }))
      : [],
  );
}

/**
 * The value a query parameter naming a record takes, as JSON text: an identity the run holds for
 * that record's producer (created or seen in an answer) first, else the spec's example, else none
 * (the generator's draw, a last resort).
 */
export function queryValue(query: ResourceQuery, seen: ReadonlyMap<string, string>, example: unknown): string | undefined {
  const held = seen.get(query.producer);
  if (held !== undefined) return held;
  if (typeof example === 'string' || typeof example === 'number') return JSON.stringify(example);
  return undefined;
}
