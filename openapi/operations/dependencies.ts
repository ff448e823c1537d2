/**
 * The operations' dependency graph, from the spec alone: which answers produce the values which
 * requests consume. A client calls an API in this order (parents created before their children,
 * a station listed before a trip between two stations is searched), and so does the contract
 * suite. Pure: a compiled contract in, one entry per operation out. In order of trust:
 * - `link`: a 2xx answer's OpenAPI `links` pass a value to the parameter (OpenAPI 3.1, 4.8.20).
 * - `parent` / `record`: the parameter is the item parameter of a collection whose item path the
 *   operation's path starts with (`{bookingId}` of `/bookings/{bookingId}/payment`): the
 *   collection's create produces it (`record` when the path is the item path itself).
 * - `name`: the parameter is named for a producer's noun (`stationId`, `station_id`, `station`),
 *   as RESTler matches producer and consumer by name.
 * - `description`: the parameter's description says it is the id of a producer's noun ("The ID
 *   of the origin station" for `origin`).
 * A producer is a collection's create (openapi/operations/collections.ts), an operation whose 2xx
 * answer names a new record of a list by a property named for the list's noun (a trigger answering
 * `instance_id` beside `GET …/instances`; a POST at the list's path that takes no JSON object, by
 * the `id` it answers), or the list itself (a GET on a path without a trailing
 * template answering records with an `id`) for resources a client cannot create.
 * A consumer is a path or query parameter, or a top-level property of a JSON request body named for
 * a producer's noun with an id suffix (`station_id`, `parentId`: a body's bare `station` may be an
 * embedded object, never matched).
 */
import { normalisedName, recogniseCollections, singular, type Collection } from './collections.js';
import { successOf, type CompiledContract, type ContractOperation, type ContractParameter } from './model.js';
import { firstJson } from '../media-types.js';
import type { Schema } from '../schema/resolve.js';

export type DependencySource = 'link' | 'record' | 'parent' | 'name' | 'description';

/** One value a request consumes, and the operation whose answer produces it. */
export interface Dependency {
  parameter: string;
  /** `body`: a top-level property of the operation's JSON request body. */
  in: 'path' | 'query' | 'body';
  /** The operation whose answer holds the value. */
  producer: string;
  /** The answer's property holding it (`id`), or the link's runtime expression. */
  property: string;
  source: DependencySource;
  /** The collection the value names a record of (its path), when the producer creates records. */
  collection?: string;
}

export interface OperationDependencies {
  operationId: string;
  method: string;
  path: string;
  consumes: Dependency[];
}

/** What can produce identities: a collection's create, or a list of records nobody creates through the API. */
interface Producer {
  noun: string;
  operationId: string;
  property: string;
  /** The item path a record is named on (`/stations/{stationId}`), when the spec has one. */
  itemPath?: string;
  itemParameter?: string;
  collection?: Collection;
}

/** The dependency graph of every operation of `contract`, in the document's order. */
export function dependencyGraph(contract: CompiledContract, collections: readonly Collection[] = recogniseCollections(contract).collections): OperationDependencies[] {
  const producers = producersOf(contract, collections);
  const linked = linksByTarget(contract);
  // A create at the target URI names the record it makes in its path: a value it chooses, not one it consumes.
  const madeAt = new Map(collections.filter((c) => c.atTarget !== undefined && c.itemParameter !== undefined).map((c) => [c.create.operationId, c.itemParameter as string]));
  return [...contract.operations.values()].map((operation) => ({
    operationId: operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    consumes: [
      ...operation.parameters.flatMap((parameter) => {
        if ((parameter.in !== 'path' && parameter.in !== 'query') || (parameter.in === 'path' && madeAt.get(operation.operationId) === parameter.name)) return [];
        const found = linked.get(operation.operationId)?.get(parameter.name) ?? inferred(operation, parameter, producers);
        return found ? [{ parameter: parameter.name, in: parameter.in, ...found }] : [];
      }),
      ...bodyConsumers(operation, producers),
    ],
  }));
}

/**
 * The top-level properties of an operation's JSON request body that name another resource's record:
 * a scalar named for a producer's noun with an id suffix (`station_id`, `workflowId`, `tag_ids`).
 * Never the operation's own record: a create's identity, or any property of a producer's own create.
 */
function bodyConsumers(operation: ContractOperation, producers: readonly Producer[]): Dependency[] {
  const body = firstJson(operation.requestBody?.content);
  if (!body) return [];
  const found: Dependency[] = [];
  for (const [name, schema] of body.propertySchemas) {
    if (!scalarSchema(schema) || schema.readOnly === true) continue;
    const key = normalisedName(name);
    const producer = producers.find((p) => [`${normalisedName(p.noun)}id`, `${normalisedName(p.noun)}ids`].includes(key) && p.operationId !== operation.operationId);
    if (!producer) continue;
    found.push({
      parameter: name,
      in: 'body',
      producer: producer.operationId,
      property: producer.property,
      source: 'name',
      ...(producer.collection ? { collection: producer.collection.path } : {}),
    });
  }
  return found;
}

/** The collections' creates, then the lists of records no collection creates. */
function producersOf(contract: CompiledContract, collections: readonly Collection[]): Producer[] {
  const producers: Producer[] = collections.map((collection) => ({
    noun: collection.noun,
    operationId: collection.create.operationId,
    property: collection.identity.property,
    ...(collection.itemPath === undefined ? {} : { itemPath: trimSlash(collection.itemPath) }),
    ...(collection.itemParameter === undefined ? {} : { itemParameter: collection.itemParameter }),
    collection,
  }));
  const operations = [...contract.operations.values()];
  for (const list of operations) {
    if (list.method !== 'get' || /\}\/?$/.test(list.path)) continue;
    const path = trimSlash(list.path);
    if (collections.some((c) => c.path === path)) continue;
    const answer = firstJson(successOf(list)?.response.content);
    const items = answer?.itemProperties ?? [...(answer?.arrayProperties.values() ?? [])].find((properties) => properties.has('id'));
    if (!items?.has('id')) continue;
    const itemPath = operations.find((o) => o.method === 'get' && new RegExp(`^${escape(path)}/\\{[^/{}]+\\}/?$`).test(o.path))?.path;
    const noun = singular(lastWord(path));
    const item = itemPath === undefined ? {} : { itemPath: trimSlash(itemPath), itemParameter: (/\{([^/{}]+)\}\/?$/.exec(itemPath) as RegExpExecArray)[1] as string };
    // An operation beside the list that answers a new record's id (`POST …/actions/trigger` answering `instance_id`) makes
    // the records the list shows: a client takes the id from that answer, as from a create's.
    const maker = answerProducer(operations, path, noun) ?? listMaker(operations, path);
    if (maker) producers.push({ noun, operationId: maker.operationId, property: maker.property, ...item });
    producers.push({ noun, operationId: list.operationId, property: 'id', ...item });
  }
  return producers;
}

/**
 * The POST below the list's parent (`/a/{aId}/…` for the list `/a/{aId}/instances`) whose 2xx JSON
 * answer declares a scalar property named for the list's noun with an id suffix (`instance_id`).
 * Not a value the request itself gives: an answer's `projectId` names the team's project when the
 * POST's path holds `{projectId}` (`POST /projects/{projectId}/teams`), and an identity's
 * `schema_id` the schema its body chose: the answer echoes them, it makes no such record.
 */
function answerProducer(operations: readonly ContractOperation[], listPath: string, noun: string): { operationId: string; property: string } | undefined {
  const parent = listPath.slice(0, listPath.lastIndexOf('/'));
  const wanted = `${normalisedName(noun)}id`;
  for (const operation of operations) {
    if (operation.method !== 'post' || !startsWithPath(trimSlash(operation.path), parent) || trimSlash(operation.path) === listPath) continue;
    if (givenByRequest(operation, wanted)) continue;
    const answer = firstJson(successOf(operation)?.response.content);
    for (const [name, schema] of answer?.propertySchemas ?? []) if (normalisedName(name) === wanted && scalarSchema(schema)) return { operationId: operation.operationId, property: name };
  }
  return undefined;
}

/**
 * A POST at the list's own path that no collection's create is (it takes no JSON object: Netlify's
 * `POST /agent_runners`, all query parameters) and whose 2xx JSON answer declares a scalar `id`: a
 * POST to a collection's URL makes a member of it (RFC 9110 §9.3.3), and the answer names it as the
 * list's records name theirs.
 */
function listMaker(operations: readonly ContractOperation[], listPath: string): { operationId: string; property: string } | undefined {
  const maker = operations.find((o) => o.method === 'post' && trimSlash(o.path) === listPath);
  if (!maker || givenByRequest(maker, 'id')) return undefined;
  const answer = firstJson(successOf(maker)?.response.content);
  const id = answer?.propertySchemas.get('id');
  return id !== undefined && scalarSchema(id) ? { operationId: maker.operationId, property: 'id' } : undefined;
}

/** Whether the request names that value itself: a path parameter, or a top-level property of its JSON body, of that name (normalised). */
function givenByRequest(operation: ContractOperation, name: string): boolean {
  if (operation.parameters.some((p) => p.in === 'path' && normalisedName(p.name) === name)) return true;
  const body = firstJson(operation.requestBody?.content);
  return [...(body?.propertySchemas.keys() ?? [])].some((property) => normalisedName(property) === name);
}

/** Every declared link's parameters, by the operation they lead to and the parameter's name. */
function linksByTarget(contract: CompiledContract): Map<string, Map<string, Omit<Dependency, 'parameter' | 'in'>>> {
  const byTarget = new Map<string, Map<string, Omit<Dependency, 'parameter' | 'in'>>>();
  for (const operation of contract.operations.values()) {
    const answers = [...operation.responses].flatMap(([status, response]) => (typeof status === 'number' && status >= 200 && status < 300 ? [response] : []));
    for (const link of answers.flatMap((response) => response.links)) {
      if (link.operationId === undefined) continue;
      const target = byTarget.get(link.operationId) ?? new Map<string, Omit<Dependency, 'parameter' | 'in'>>();
      for (const [key, expression] of link.parameters) {
        // `path.id`: the location qualifies a name used in two places.
        const name = /^(?:path|query|header|cookie)\.(.+)$/.exec(key)?.[1] ?? key;
        if (!target.has(name)) target.set(name, { producer: operation.operationId, property: typeof expression === 'string' ? expression : JSON.stringify(expression), source: 'link' });
      }
      byTarget.set(link.operationId, target);
    }
  }
  return byTarget;
}

/** The producer of one parameter by the path, the name or the description (in that order), if any. */
function inferred(operation: ContractOperation, parameter: ContractParameter, producers: readonly Producer[]): Omit<Dependency, 'parameter' | 'in'> | undefined {
  const path = trimSlash(operation.path);
  const of = (producer: Producer, source: DependencySource): Omit<Dependency, 'parameter' | 'in'> => ({
    producer: producer.operationId,
    property: producer.property,
    source,
    ...(producer.collection ? { collection: producer.collection.path } : {}),
  });
  if (parameter.in === 'path') {
    // The longest item path first: `/a/{aId}/b/{bId}/c` names a b record by {bId}, not an a record.
    const byPath = producers
      .filter((p) => p.itemPath !== undefined && p.itemParameter === parameter.name && startsWithPath(path, p.itemPath))
      .sort((a, b) => (b.itemPath as string).length - (a.itemPath as string).length)[0];
    if (byPath) return of(byPath, byPath.itemPath === path ? 'record' : 'parent');
  }
  if (!scalar(parameter)) return undefined;
  const key = normalisedName(parameter.name);
  // A parameter named for a noun, with or without an id suffix; not a list's own paging or free-text search.
  const byName = producers.find((p) => [normalisedName(p.noun), `${normalisedName(p.noun)}id`, `${normalisedName(p.noun)}ids`].includes(key) && !ownList(operation, p));
  if (byName) return of(byName, 'name');
  // A name ending in an id (`invoice_id`) names its resource itself: no description overrides it. A bare `id` or `origin` says nothing.
  const description = key === 'id' || key === 'ids' || !/ids?$/.test(key) ? parameter.description?.toLowerCase() : undefined;
  if (description !== undefined && /\b(id|ids|identifier|uuid)\b/.test(description)) {
    const byDescription = producers.find((p) => new RegExp(`\\b${escape(p.noun.toLowerCase().replace(/[-_]/g, ' '))}s?\\b`).test(description.replace(/[-_]/g, ' ')) && !ownList(operation, p));
    if (byDescription) return of(byDescription, 'description');
  }
  return undefined;
}

/** A query parameter of a producer's own list (`/stations?station=`) filters that list; it names no other resource. */
function ownList(operation: ContractOperation, producer: Producer): boolean {
  return producer.collection !== undefined && operation.method === 'get' && trimSlash(operation.path) === producer.collection.path;
}

/** Parameters a single id fits: a string, an integer, or an array of them (a filter by several ids). */
function scalar(parameter: ContractParameter): boolean {
  return scalarSchema(parameter.schema);
}

function scalarSchema(schema: Schema | undefined): boolean {
  const type = schema?.type;
  if (type === 'array') return typeof schema?.items === 'object' && schema.items !== null && ['string', 'integer'].includes(String((schema.items as { type?: unknown }).type));
  return type === undefined || type === 'string' || type === 'integer';
}

/** `/bookings/{bookingId}/payment` starts with `/bookings/{bookingId}`; `/bookingsX` does not start with `/bookings`. */
function startsWithPath(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function lastWord(path: string): string {
  return (
    path
      .split('/')
      .filter((s) => s !== '' && !s.startsWith('{'))
      .pop() ?? path
  );
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A path parameter naming a record of a collection, which a provider has or has not. */
export interface RecordParameter {
  parameter: string;
  collection: Collection;
  /** `record`: the operation's path is the collection's item path; `parent`: below it; `name`: named for the collection's identity. */
  source: 'record' | 'parent' | 'name';
}

/**
 * The path parameters of each operation that name a record of a collection, by operationId, outermost
 * first: the item path's parameter, the operation being on or below it (`{site_id}` of
 * `/sites/{site_id}/ssl/certificates`), or a parameter named for a top-level collection's identity
 * (`{silenceID}` of `/silence/{silenceID}`, where POST /silences answers `silenceID`). A client
 * makes those records, so whether one exists is known to both sides: an operation declaring 404
 * answers it for a record never made (the mock does; the suite sends one on purpose). Not a value
 * a list alone gives (no client makes those: which exist is the provider's own data), a link's or
 * a description's, nor a name a nested collection's record needs its parent to be found by.
 */
export function recordParameters(contract: CompiledContract, collections: readonly Collection[] = recogniseCollections(contract).collections): Map<string, RecordParameter[]> {
  const found = new Map<string, RecordParameter[]>();
  for (const entry of dependencyGraph(contract, collections)) {
    const operation = contract.operations.get(entry.operationId);
    const named: RecordParameter[] = [];
    for (const dependency of entry.consumes) {
      if (dependency.in !== 'path' || dependency.collection === undefined) continue;
      const collection = collections.find((c) => c.path === dependency.collection && c.create.operationId === dependency.producer);
      const schema = operation?.parameters.find((p) => p.in === 'path' && p.name === dependency.parameter)?.schema;
      if (!collection || schema?.type === 'array') continue;
      if (dependency.source === 'record' || dependency.source === 'parent') named.push({ parameter: dependency.parameter, collection, source: dependency.source });
      else if (dependency.source === 'name' && !collection.parent) named.push({ parameter: dependency.parameter, collection, source: 'name' });
    }
    if (!named.length || !operation) continue;
    found.set(
      entry.operationId,
      named.sort((a, b) => operation.path.indexOf(`{${a.parameter}}`) - operation.path.indexOf(`{${b.parameter}}`)),
    );
  }
  return found;
}

/** A path parameter naming a record only a list answers, and that list. */
export interface ListedParameter {
  parameter: string;
  /** The GET answering the records (`GetWorkflowsList`). */
  list: string;
  /** The records' property the parameter's value is (`id`). */
  property: string;
}

/**
 * The path parameters of each operation naming a record that only a list answers, by operationId,
 * outermost first: `{workflowId}` of `/accounts/{accountId}/workflows/{workflowId}/trigger-requirements`,
 * where `GET /accounts/{accountId}/workflows` lists the workflows and no operation of the spec makes
 * or names a new one (no create, and no answer but a GET's declares a `workflow_id` the request did
 * not give). The list's answer is then every such record there is: a value it never answered names
 * none, and an operation declaring 404 answers it (the mock does, for the values its own list
 * answers; the suite sends a fresh UUID where the parameter takes identifiers: missing-parents.ts).
 */
export function listedParameters(contract: CompiledContract, collections: readonly Collection[] = recogniseCollections(contract).collections): Map<string, ListedParameter[]> {
  const found = new Map<string, ListedParameter[]>();
  const operations = [...contract.operations.values()];
  for (const entry of dependencyGraph(contract, collections)) {
    const operation = contract.operations.get(entry.operationId);
    const named: ListedParameter[] = [];
    for (const dependency of entry.consumes) {
      if (dependency.in !== 'path' || dependency.collection !== undefined || dependency.source === 'link') continue;
      const list = contract.operations.get(dependency.producer);
      const schema = operation?.parameters.find((p) => p.in === 'path' && p.name === dependency.parameter)?.schema;
      if (list?.method !== 'get' || schema?.type === 'array' || answeredElsewhere(operations, trimSlash(list.path))) continue;
      named.push({ parameter: dependency.parameter, list: list.operationId, property: dependency.property });
    }
    if (!named.length || !operation) continue;
    found.set(
      entry.operationId,
      named.sort((a, b) => operation.path.indexOf(`{${a.parameter}}`) - operation.path.indexOf(`{${b.parameter}}`)),
    );
  }
  return found;
}

/**
 * Whether an operation other than a GET, at or below the list's parent, answers a new record's id
 * (`authorization_model_id` of OpenFGA's `POST /stores/{store_id}/authorization-models`, an `id` at the
 * list's own path, the records of a batch made there): then clients make those records too, and the
 * list's answer is not all of them.
 */
function answeredElsewhere(operations: readonly ContractOperation[], listPath: string): boolean {
  const parent = listPath.slice(0, listPath.lastIndexOf('/'));
  const wanted = `${normalisedName(singular(lastWord(listPath)))}id`;
  return operations.some((operation) => {
    if (operation.method === 'get' || !startsWithPath(trimSlash(operation.path), parent)) return false;
    const atList = trimSlash(operation.path) === listPath;
    const names = atList ? [wanted, 'id'] : [wanted];
    const answer = firstJson(successOf(operation)?.response.content);
    // A batch made at the list's path answers the new records themselves (Xero's `POST /Statements`: `items[].id`).
    if (atList && [answer?.itemProperties, ...(answer?.arrayProperties.values() ?? [])].some((items) => items?.has('id'))) return true;
    return [...(answer?.propertySchemas.keys() ?? [])].some((name) => names.includes(normalisedName(name)) && !givenByRequest(operation, normalisedName(name)));
  });
}

/** The graph as a short list per operation, for `--dry-run`: `{bookingId} ← createBooking .id (parent)`. */
export function describeDependencies(graph: readonly OperationDependencies[]): string[] {
  const lines: string[] = [];
  for (const entry of graph) {
    if (!entry.consumes.length) continue;
    lines.push(`${entry.method} ${entry.path}`);
    for (const dependency of entry.consumes) {
      const name = dependency.in === 'path' ? `{${dependency.parameter}}` : dependency.in === 'query' ? `?${dependency.parameter}` : `body .${dependency.parameter}`;
      const property = dependency.source === 'link' ? dependency.property : `.${dependency.property}`;
      lines.push(`  ${name} ← ${dependency.producer} ${property} (${dependency.source})`);
    }
  }
  return lines;
}
