/**
 * What the suite does with the dependency graph (openapi/operations/dependencies.ts) before the
 * cases: which operations need a parent record created first (`POST /bookings/{bookingId}/payment`
 * needs a booking), and which query parameters name records whose values come from earlier answers
 * (`GET /trips?origin=` a station's id). Pure: the graph and the operations under test in, plans out.
 */
import type { Collection } from '../openapi/operations/collections.js';
import type { OperationDependencies } from '../openapi/operations/dependencies.js';
import type { SuiteContract } from './spec-contract.js';

/** A record the path of an operation names, and the path parameter naming it there. */
export interface NamedRecord {
  collection: Collection;
  parameter: string;
}

/** A collection one record of which is created before the cases, for the operations below it. */
export interface ParentNeed {
  collection: Collection;
  /**
   * The records created before it, each before the records below it (`/sites` for a split test of
   * `/sites/{site_id}/traffic_splits`; a school and a user for `/education/schools/{school-id}/users/{user-id}/$ref`),
   * and deleted after it, last in first out. Empty for a record that names no other.
   */
  before: NamedRecord[];
  /** The operations whose path names that record, with the path parameter naming it. */
  children: Array<{ operationId: string; parameter: string }>;
}

/**
 * The records the operations under test name in their path (by the item path, a link, the name
 * or the description), one entry per set of records, each with the chain of records above a
 * nested one (`POST /sites/{site_id}/traffic_splits/{split_test_id}/publish` needs a site, then a
 * split test of that site). The operation's path must name every record of each chain by the
 * parameter the collection's own paths name it by. An operation on a record itself (its read,
 * update, delete) is left to the sequences, which create their own. Any other template names what
 * no client creates (`{feature_code}`, `{key}`): a drawn value, as a client would name it.
 */
export function parentNeeds(graph: readonly OperationDependencies[], operations: readonly SuiteContract[], collections: readonly Collection[]): ParentNeed[] {
  const tested = new Set(operations.map((o) => o.operationId));
  const needs = new Map<string, ParentNeed>();
  for (const entry of graph) {
    if (!tested.has(entry.operationId)) continue;
    const records = namedRecords(entry, collections);
    if (!records || 'unplanned' in records) continue;
    const last = records.at(-1) as NamedRecord;
    const key = records.map((r) => `${r.collection.path} {${r.parameter}}`).join(' ');
    const need = needs.get(key) ?? { collection: last.collection, before: records.slice(0, -1), children: [] };
    if (!need.children.some((c) => c.operationId === entry.operationId)) need.children.push({ operationId: entry.operationId, parameter: last.parameter });
    needs.set(key, need);
  }
  return [...needs.values()];
}

/**
 * The records an operation's path names, in the order a client creates them (each chain of parents
 * outermost first, the chains in the path's order, the deepest named record last), or why none is
 * planned for it (`unplanned`, for the report); undefined when its path names no record of a collection.
 */
export function namedRecords(entry: OperationDependencies, collections: readonly Collection[]): NamedRecord[] | { unplanned: string } | undefined {
  const templates = [...entry.path.matchAll(/\{([^/{}]+)\}/g)].map((m) => m[1] as string);
  const named = entry.consumes.filter((d) => d.in === 'path' && d.collection !== undefined).sort((a, b) => templates.indexOf(a.parameter) - templates.indexOf(b.parameter));
  if (!named.length) return undefined;
  const own = named.find((d) => d.source === 'record');
  if (own) return { unplanned: `it acts on the record {${own.parameter}} itself, which only its collection's sequence creates` };
  const records: NamedRecord[] = [];
  for (const dependency of named) {
    const collection = collections.find((c) => c.path === dependency.collection);
    if (!collection) return undefined;
    // The parameter naming each record of the chain in this path: the one the next collection's paths name its parent by.
    const chain = [...ancestorsOf(collection), collection].map((each, at, all) => ({ collection: each, parameter: all[at + 1]?.parent?.parameter ?? dependency.parameter }));
    for (const link of chain) {
      if (!templates.includes(link.parameter))
        return { unplanned: `its path does not name the ${link.collection.noun} a ${collection.noun} belongs to by {${link.parameter}}, as ${collection.path} does` };
      const taken = records.find((r) => r.parameter === link.parameter);
      if (taken && taken.collection !== link.collection) return { unplanned: `{${link.parameter}} would name both a record of ${taken.collection.path} and one of ${link.collection.path}` };
      if (!taken) records.push(link);
    }
  }
  return records;
}

/** The collections a nested one's records belong to, outermost first. */
function ancestorsOf(collection: Collection): Collection[] {
  const chain: Collection[] = [];
  for (let parent = collection.parent?.collection; parent; parent = parent.parent?.collection) chain.unshift(parent);
  return chain;
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
 * `GET …/workflows` lists; PowerDNS's `{server_id}`, which scopes the zones of `/servers/{server_id}/zones`,
 * the servers `GET /servers` lists): a client takes those from earlier answers, never makes them up.
 */
export function resourceQueries(graph: readonly OperationDependencies[], operations: readonly SuiteContract[], collections: readonly Collection[] = []): ResourceQuery[] {
  const tested = new Set(operations.map((o) => o.operationId));
  // A listed parent is taken from its list where it scopes records the suite creates (a zone's server); a listed record
  // an operation acts on (`…/instances/{instanceId}/cancel`) is not: the suite acts on records it made, never on a list's first.
  const scopes = new Set(collections.flatMap((collection) => collection.scope ?? []));
  const listed = (d: OperationDependencies['consumes'][number]): boolean =>
    d.in === 'path' && d.collection === undefined && (d.source === 'name' || d.source === 'description' || (d.source === 'parent' && scopes.has(d.parameter)));
  return graph.flatMap((entry) =>
    tested.has(entry.operationId)
      ? entry.consumes
          .filter((d) => d.source !== 'link' && (d.in === 'query' || d.in === 'body' || listed(d)))
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

/** A value path parameters name that only an action's answer gives, and the operations whose path takes it. */
export interface ProducedValue {
  /** The action (a POST, a PUT: never a GET) whose 2xx answer holds the value, and its property. */
  producer: string;
  property: string;
  consumers: Array<{ operationId: string; parameter: string }>;
  /** The read of one such record (a GET whose path ends in the parameter), when it is under test: what a sequence reads back. */
  read?: { operationId: string; parameter: string };
}

/**
 * The path parameters of the operations under test naming what an action answers, neither a
 * collection's create (the pinned records and sequences make those) nor a list (resourceQueries
 * reads those): Maestro's `{instanceId}`, the `instance_id` that `POST …/actions/trigger` answers.
 * A client calls the action first and names what it answered, and so does the suite, once before
 * the cases; only where the action is itself under test, so an excluded operation is never called.
 * A link's value is left to the links the suite follows.
 */
export function producedValues(graph: readonly OperationDependencies[], operations: readonly SuiteContract[]): ProducedValue[] {
  const tested = new Set(operations.map((o) => o.operationId));
  const methods = new Map(graph.map((entry) => [entry.operationId, entry.method]));
  const produced = new Map<string, ProducedValue>();
  for (const entry of graph) {
    if (!tested.has(entry.operationId)) continue;
    for (const d of entry.consumes) {
      const method = methods.get(d.producer);
      if (d.in !== 'path' || d.collection !== undefined || d.source === 'link' || d.producer === entry.operationId || !tested.has(d.producer)) continue;
      if (method === undefined || method === 'GET' || method === 'HEAD') continue;
      const key = JSON.stringify([d.producer, d.property]);
      const value = produced.get(key) ?? { producer: d.producer, property: d.property, consumers: [] };
      value.consumers.push({ operationId: entry.operationId, parameter: d.parameter });
      if (value.read === undefined && entry.method === 'GET' && entry.path.replace(/\/$/, '').endsWith(`/{${d.parameter}}`)) {
        value.read = { operationId: entry.operationId, parameter: d.parameter };
      }
      produced.set(key, value);
    }
  }
  return [...produced.values()];
}
