/**
 * The handlers of the operations the mock serves from its store, one per role the CRUD rule
 * (openapi/operations/collections.ts) gives an operation: create, list, read, replace, patch, delete, the
 * updates at the collection path with the identity in the body, and form updates. A record
 * belongs to the store collection its path names (`/bookings/{7}/payments` for a nested one: store-names.ts; whose
 * parent record must exist, checked again by the store's create itself); answers show what the
 * operation's success schema declares, never a writeOnly property.
 */
import { type Collection, type CollectionRole, type ListPlan, type ListShape, type Singleton, type StatefulOperation } from '../../openapi/operations/collections.js';
import { NEXT_CURSOR_NAMES as NEXT_CURSORS, PAGING_VALUES, envelopeOf, envelopedMedia, itemPathOf, type PagingValue } from '../../openapi/operations/collections.js';
import { firstJson, mediaEssence } from '../../openapi/media-types.js';
import { successOf, type CompiledContract, type ContractMediaType, type ContractParameter, type ObjectShape } from '../../openapi/operations/model.js';
import { isObject, resolveRef, type Schema } from '../../openapi/schema/resolve.js';
import { exactJsonOf, integerOfLiteral, parseExactJson } from '../../openapi/schema/exact-json.js';
import { leastSample } from '../../openapi/schema/sample.js';
import { Projector, type Projected } from '../../openapi/schema/project.js';
import { typesOf as schemaTypes } from '../../openapi/schema/shape.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import { reject } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import type { CreateOutcome, Page, ParentRecord, RecordKey, ResourceStore, StoredRecord } from '../stores/store.js';
import type { EngineContext, MockHandler, RequestContext } from './context.js';
import { continueWith, type Maybe } from '../maybe.js';
import { appliedJsonPatch } from './json-patch.js';
import { parentKeys, pathOf, storeName, storeNamer } from './store-names.js';
import { DEFAULT_SCAN_BOUND, nextTurn, type ScanBound } from './scan-bound.js';
import { serverFieldsOf, withServerFields, type ServerField } from './server-fields.js';
import { identifiedRecord, keyInWords, keyOfBody, keyOfPathSegment, madeRecord, mergedJson, projection, recordValue, unreachableKey } from './records.js';

type Body = Record<string, unknown>;

/** What a handler knows of its operation, fixed when the engine is built. */
interface Served {
  collection: Collection;
  /** The properties the success answer shows (its schema's, without writeOnly ones); undefined: no JSON answer. */
  answered: ReadonlySet<string> | undefined;
  status: number;
  list?: ListPlan;
  /** The query parameters a form update takes as fields. */
  fields: readonly ContractParameter[];
  /** The first example of the success answer (a wrapped list's other members come from it). */
  example: unknown;
  /** For a wrapped list: the members of its answer the mock fills (total, paging values, page links). */
  wrapper: WrapperPlan | undefined;
  /** For a create answering the records it made as a list (collections.ts, Collection.createdAs): the record goes out as its one item. */
  createdAs: ListShape | undefined;
  /** For a create answering only the new key under its own name (collections.ts, Collection.keyAnswered): that name, and whether its schema wants the key as a string. */
  keyAnswered: { name: string; asString: boolean } | undefined;
  /** Whether `answered` holds every property a record holds. */
  whole: boolean;
  /** For a list whose items do not show every property a record can hold: what they show, and what not (ItemCut). */
  itemsCut: ItemCut | undefined;
  /** Whether the success response declares a `Location` header (a create then names the new record there). */
  location: boolean;
  /** For a PUT that declares 201: the status it answers when it creates the record it names. */
  createdStatus: number | undefined;
  /** For a create at the item path (collections.ts, createsAtTarget): the key is the path's, and how it meets a record already there. */
  atTarget: 'upsert' | 'conflict' | undefined;
  /** Members the answer's schema requires that no record holds (a readOnly `createdAt`), as JSON members to add. */
  fill: string | undefined;
  /** The same for each item of a list. */
  itemFill: string | undefined;
  /** For a list: the response header it declares for the number of records (`X-Total-Count`), lower case. */
  totalHeader: string | undefined;
  /** The collections and singletons nested under each collection: a deleted record's go with it. */
  nested: Nested;
  /** The success answer's JSON media type: what a record is projected to (openapi/schema/project.ts). */
  media: ContractMediaType | undefined;
  /** For a list: the inlined schema of its items. */
  itemSchema: Schema | undefined;
  projector: Projector;
  /** The envelope member the request body wraps the record in (`article`), when the operation's body is the collection's envelope. */
  unwrap: string | undefined;
  /** The envelope member the answer wraps the record in, when the success answer is the collection's envelope (`media` is then the inner object's). */
  wrap: string | undefined;
  /** The properties the client may write here: the create body's, and this operation's own body's (a PATCH may allow more). */
  writable: ReadonlySet<string>;
  /** Required answer properties no client sends, made once at create and stored (server-fields.ts). */
  serverFields: readonly ServerField[];
  /** This operation's own JSON request body (inside the envelope): what a merge patch's members are judged by. */
  ownBody: ContractMediaType | undefined;
}

interface Nested {
  collections: ReadonlyMap<Collection, readonly Collection[]>;
  singletons: ReadonlyMap<Collection, readonly Singleton[]>;
  /** Each nested path's store name under its parent records (store-names.ts), its template split once. */
  names: ReadonlyMap<string, (keys: ReadonlyMap<string, RecordKey>) => string>;
}

/** The key of a singleton's one document in its store collection (the concrete path). */
export const SINGLETON_KEY = '0';

/** The stateful handler of each operation the mock serves from its store, by operationId. */
export function statefulHandlers(stateful: ReadonlyMap<string, StatefulOperation>, contract: CompiledContract, singletons: Iterable<Singleton> = []): Record<string, MockHandler> {
  const handlers: Record<string, MockHandler> = {};
  const nested = { collections: new Map<Collection, Collection[]>(), singletons: new Map<Collection, Singleton[]>(), names: new Map<string, (keys: ReadonlyMap<string, RecordKey>) => string>() };
  const under = <T>(map: Map<Collection, T[]>, parent: Collection | undefined, child: T): void => {
    if (parent && !map.get(parent)?.includes(child)) map.set(parent, [...(map.get(parent) ?? []), child]);
  };
  for (const { collection } of stateful.values()) under(nested.collections, collection.parent?.collection, collection);
  for (const singleton of singletons) under(nested.singletons, singleton.parent?.collection, singleton);
  for (const below of [...nested.collections.values(), ...nested.singletons.values()]) for (const { path } of below) if (!nested.names.has(path)) nested.names.set(path, storeNamer(path));
  const projector = new Projector(contract.document);
  // Per collection: what its records may hold (every writing body's properties, the server fields) and its server fields.
  const shapes = new Map<Collection, ObjectShape[]>();
  const held = new Map<Collection, Set<string>>();
  for (const [operationId, { collection, list }] of stateful) {
    const operation = contract.operations.get(operationId);
    const media = operation && innerOf(firstJson(successOf(operation)?.response.content), collection, contract.document);
    const shape = list ? media?.itemObject(list.shape.kind === 'wrapped' ? list.shape.property : undefined) : media?.type === 'object' || media?.type === undefined ? media?.object : undefined;
    if (shape) shapes.set(collection, [...(shapes.get(collection) ?? []), shape]);
    if (!held.has(collection)) held.set(collection, new Set(collection.declared));
    for (const name of writableOf(operation, collection, contract.document)) held.get(collection)?.add(name);
  }
  const serverFields = new Map<Collection, ServerField[]>();
  for (const [collection, found] of shapes) {
    const fields = serverFieldsOf(collection, found);
    serverFields.set(collection, fields);
    for (const field of fields) held.get(collection)?.add(field.name);
  }
  for (const [operationId, { role, collection, list, atTarget }] of stateful) {
    const operation = contract.operations.get(operationId);
    if (!operation) continue;
    const success = successOf(operation)?.response;
    const declared = firstJson(success?.content);
    // An enveloped collection's answers are the record wrapped in the member each one declares (collections.ts, envelopeOf).
    const inner = collection.envelope === undefined || declared === undefined ? undefined : envelopedMedia(declared, collection.envelope, contract.document);
    const media = inner ?? declared;
    const unwrap = collection.envelope !== undefined && envelopeOf(firstJson(operation.requestBody?.content)) === collection.envelope ? collection.envelope : undefined;
    // A create answering a list of what it made shows the record as that list's item.
    const primary = role === 'create' && operationId === collection.create.operationId;
    const createdAs = primary ? collection.createdAs : undefined;
    const createdIn = createdAs?.kind === 'wrapped' ? createdAs.property : undefined;
    const shown = createdAs === undefined ? media?.propertySet : createdIn === undefined ? media?.itemProperties : media?.arrayProperties.get(createdIn);
    const answered = shown && new Set([...shown].filter((name) => !collection.writeOnly.has(name)));
    const holds = held.get(collection) ?? collection.declared;
    // Members an answer adds for what no record holds: never a server field, which the record holds.
    const fillHeld = { ...collection, declared: holds };
    // What the handler answers with (fills, list wrappers, the items' schema) is worked out when the
    // operation is first called: a large document's start builds none it is not asked for.
    const build = (): MockHandler =>
      ROLES[role]({
        whole: showsWhole(collection, holds, answered),
        nested,
        itemsCut: list && !showsWhole(collection, holds, list.items) ? itemCutOf(list.items, [...holds, collection.identity.property]) : undefined,
        location: success?.headers.includes('location') === true,
        createdStatus: (role === 'replace' || role === 'replace-in-body' || atTarget !== undefined) && operation.responses.has(201) ? 201 : undefined,
        atTarget,
        fill: media && fillOf(createdAs === undefined ? media.object : media.itemObject(createdIn), contract.document, fillHeld, answered),
        createdAs,
        keyAnswered: primary && collection.keyAnswered !== undefined ? keyAnsweredOf(collection.keyAnswered, media) : undefined,
        totalHeader: list ? success?.headers.find((name) => TOTAL_HEADERS.has(name)) : undefined,
        itemFill: list && media ? fillOf(media.itemObject(list.shape.kind === 'wrapped' ? list.shape.property : undefined), contract.document, fillHeld, list.items) : undefined,
        writable: new Set([...collection.declared, ...writableOf(operation, collection, contract.document)]),
        serverFields: serverFields.get(collection) ?? [],
        ownBody: innerOf(firstJson(operation.requestBody?.content), collection, contract.document),
        collection,
        answered,
        // No responses declared at all: 204, as for an operation answered from the spec (examples.ts).
        status: successOf(operation)?.status ?? (operation.responses.size === 0 && !operation.ranges?.size ? 204 : 200),
        list,
        fields: operation.parameters.filter((p) => p.in === 'query' && collection.declared.has(p.name)),
        example: media?.examples[0]?.value,
        wrapper: list?.shape.kind === 'wrapped' && media ? wrapperPlanOf(media, answered, contract.document, list.shape.property) : undefined,
        media,
        itemSchema: list && media ? itemSchemaOf(media.inlined, list) : undefined,
        projector,
        unwrap,
        wrap: inner && collection.envelope,
      });
    let handler: MockHandler | undefined;
    handlers[operationId] = (c, exchange) => (handler ??= build())(c, exchange);
  }
  return handlers;
}

const ROLES: Record<CollectionRole, (served: Served) => MockHandler> = {
  // Not async: the in-memory store answers synchronously, and a create then costs no promise.
  create:
    (served) =>
    (c, { mock }) => {
      const { collection } = served;
      // A create whose optional body was not sent is a create of an empty record (the spec allows
      // it): assigned identities are assigned, a client-chosen one is refused as missing.
      const body = (sentBody(served, c) ?? {}) as Body;
      if (served.atTarget) return createdAtTarget(served, body, mock, c);
      const params = c.request.params as Record<string, string>;
      const create = (): Maybe<Answer> => {
        const name = storeName(collection, params);
        // Checked above, and by the store again as it stores: the parent may be deleted between (by another replica too).
        const parent = parentRecord(collection, params);
        const key = keyOfBody(body, collection.identity);
        // An optional identity the client left out is the mock's to assign; one it sent is the key.
        if (collection.identity.assigned && (key === undefined || !collection.identity.optional)) return createAssigned(served, body, name, parent, params, mock, 0);
        if (key === undefined) {
          return rejected(reject('INVALID_REQUEST_BODY', { schema: collection.resource, problems: [`${collection.identity.property} is required to store the record`] }));
        }
        const unreachable = unreachableKey(key, collection);
        if (unreachable !== undefined) return unreachableRefused(collection, unreachable);
        const made = madeRecord(body, key, collection.identity, collection.declared, sentText(served, c));
        const record = served.serverFields.length
          ? withServerFields(made.record, (field) => collection.declared.has(field) && body[field] !== undefined, served.serverFields, served.projector)
          : made.record;
        const value = record === made.record ? made.value : undefined;
        const created = mock.store.create(name, record, parent);
        const answer = (outcome: CreateOutcome): Answer =>
          outcome === 'duplicate' ? duplicate(collection, key, params) : outcome === 'parent-missing' ? parentGone(collection, params) : answerCreated(served, record, params, value);
        return typeof created === 'string' ? answer(created) : created.then(answer);
      };
      if (!collection.parent) return create() as Answer;
      return parentMissing(c, collection, mock).then((missing) => missing ?? create());
    },
  // The read, list and delete handlers wait only where the store answers with a promise: the
  // in-memory store answers at once, and a request then costs no promise here (docs/benchmarks.md).
  list:
    (served) =>
    (c, { mock, req }) => {
      const { collection } = served;
      const plan = served.list as ListPlan;
      const listing = (): Maybe<Answer> => {
        const name = storeName(collection, c.request.params as Record<string, string>);
        const query = c.request.query as Record<string, unknown>;
        // Each filter as its parameter's style reads it (`?tag=b,two` unexploded: two values), else as the query has it.
        const sent = c.request.parameterValues ?? query;
        const filters = plan.filters.size === 0 && !plan.memberFilters ? NO_FILTERS : activeFilters(plan, collection, sent, req.url ?? '');
        const window = windowOf(plan, query);
        const { totalHeader } = served;
        if (plan.shape.kind === 'array' && filters.length === 0 && window.size === undefined && window.offset === 0) {
          // The first page is read before answering, so a store outage is still an error answer.
          const answer = (first: Page, total?: number): Answer => ({
            status: served.status,
            stream: listed(mock.store, name, first, served.itemsCut, (json) => projectedItem(served, filled(json, served.itemFill))),
            headers: totalHeader && total !== undefined ? { [totalHeader]: String(total) } : undefined,
          });
          const first = mock.store.page(name, { limit: LIST_PAGE });
          if (!totalHeader) return continueWith(first, (page) => answer(page));
          return continueWith(first, (page) => (page.next === undefined ? answer(page, page.records.length) : continueWith(mock.store.count(name), (total) => answer(page, total))));
        }
        const needsTotal = plan.shape.kind === 'wrapped' || totalHeader !== undefined;
        return continueWith(selected(mock.store, name, served.itemsCut, filters, window, needsTotal, mock.scan ?? DEFAULT_SCAN_BOUND), ({ pieces, total }): Answer => {
          const array = `[${pieces.map((piece) => projectedItem(served, filled(piece, served.itemFill))).join(',')}]`;
          const headers = totalHeader ? { [totalHeader]: String(total) } : undefined;
          if (plan.shape.kind === 'array') return { status: served.status, body: array, headers };
          const page = { url: req.url ?? '', origin: `http://${req.headers.host ?? 'localhost'}`, shown: pieces.length, total };
          return { status: served.status, body: wrapped(served, plan, array, window, page), headers };
        });
      };
      if (!collection.parent) return listing();
      return parentMissing(c, collection, mock).then((missing) => missing ?? listing());
    },
  read:
    (served) =>
    (c, { mock }) =>
      continueWith(storedAt(c, served.collection, mock), (found) => ('record' in found ? answerRecord(served, found.record) : found.answer)),
  replace:
    (served) =>
    async (c, { mock }) => {
      const segment = pathSegment(c, served.collection);
      const key = keyOfPathSegment(segment, served.collection.identity);
      if (key === undefined) return notFound(served.collection, segment, c.request.params);
      // A replace whose optional body was not sent (`PUT /ehr/{ehr_id}`, an upsert) writes an empty record, as a create does.
      return replaced(served, key, (sentBody(served, c) ?? {}) as Body, mock, c);
    },
  'replace-in-body':
    (served) =>
    async (c, { mock }) => {
      const body = sentBody(served, c) as Body;
      const key = keyOfBody(body, served.collection.identity);
      if (key === undefined) return identityRequired(served.collection);
      return replaced(served, key, body, mock, c);
    },
  patch:
    (served) =>
    async (c, { mock }) => {
      const found = await storedAt(c, served.collection, mock);
      if (!('record' in found)) return found.answer;
      if (isJsonPatch(c)) return jsonPatched(served, found.record, c.request.requestBody, mock, c);
      return patched(served, found.record, sentBody(served, c) as Body, mock, c);
    },
  'patch-in-body':
    (served) =>
    async (c, { mock }) => {
      const body = sentBody(served, c) as Body;
      const key = keyOfBody(body, served.collection.identity);
      if (key === undefined) return identityRequired(served.collection);
      const missing = await parentMissing(c, served.collection, mock);
      if (missing) return missing;
      const record = await mock.store.get(storeName(served.collection, c.request.params as Record<string, string>), key);
      if (!record) return notFound(served.collection, keyInWords(key, served.collection.identity), c.request.params);
      return patched(served, record, body, mock, c);
    },
  'form-update':
    (served) =>
    async (c, { mock }) => {
      const found = await storedAt(c, served.collection, mock);
      if (!('record' in found)) return found.answer;
      // The fields as JSON text, then read exactly: a number is exact only inside the container it was read in (an int64 field).
      const fields = new Map<string, string>();
      const query = c.request.query as Record<string, unknown>;
      for (const parameter of served.fields) {
        const value = firstOf(query[parameter.name]);
        if (value !== undefined) fields.set(parameter.name, fieldJson(value, served.collection.stored.get(parameter.name)));
      }
      const body = sentBody(served, c);
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
        for (const [property, value] of Object.entries(body)) {
          fields.set(property, typeof value === 'string' ? fieldJson(value, served.collection.stored.get(property)) : exactJsonOf(body, property));
        }
      }
      const text = `{${[...fields].map(([name, json]) => `${JSON.stringify(name)}:${json}`).join(',')}}`;
      return patched(served, found.record, parseExactJson(text) as Body, mock, c);
    },
  delete: (served) => {
    const { collection } = served;
    const hasNested = (served.nested.collections.get(collection)?.length ?? 0) + (served.nested.singletons.get(collection)?.length ?? 0) > 0;
    const removed = (c: RequestContext, mock: EngineContext, name: string, key: RecordKey, record: StoredRecord | undefined): Maybe<Answer> =>
      continueWith(mock.store.delete(name, key), (outcome) => {
        if (outcome === 'missing') return notFound(collection, pathSegment(c, collection), c.request.params);
        const answer = record ? answerRecord(served, record) : { status: served.status };
        if (!hasNested) return answer;
        // After the parent, so a nested create racing this one finds no parent (404) rather than a parent being emptied.
        return deleteNested(served.nested, collection, key, parentKeys(collection, c.request.params as Record<string, string>) ?? new Map(), mock.store).then(() => answer);
      });
    return (c, { mock }) => {
      // An answer that shows the deleted record reads it first; one without a body needs only the delete's outcome.
      if (served.answered) return continueWith(storedAt(c, collection, mock), (found) => ('record' in found ? removed(c, mock, found.name, found.record.key, found.record) : found.answer));
      const remove = (): Maybe<Answer> => {
        const segment = pathSegment(c, collection);
        const key = keyOfPathSegment(segment, collection.identity);
        if (key === undefined) return notFound(collection, segment, c.request.params);
        return removed(c, mock, storeName(collection, c.request.params as Record<string, string>), key, undefined);
      };
      if (!collection.parent) return remove();
      return parentMissing(c, collection, mock).then((missing) => missing ?? remove());
    };
  },
};

/**
 * Deletes the records nested under a deleted one, and theirs: a booking's payments go with it, so
 * the admin listing no longer shows them and a booking created again with that id starts with none.
 * Each nested collection is read to its last page before deleting (a store's cursor may not survive deletes).
 */
async function deleteNested(nested: Nested, collection: Collection, key: RecordKey, above: ReadonlyMap<string, RecordKey>, store: ResourceStore): Promise<void> {
  // The records below are named by the deleted record's key itself: every path text naming it (`7`, `7.0`) names them.
  // The keys below, made once for the parameter the nested paths name this record by (one, nearly always).
  let below: { parameter: string; keys: Map<string, RecordKey> } | undefined;
  const keysBelow = (parameter: string): Map<string, RecordKey> => {
    if (below?.parameter !== parameter) below = { parameter, keys: new Map(above).set(parameter, key) };
    return below.keys;
  };
  const named = (path: string, keys: ReadonlyMap<string, RecordKey>): string => (nested.names.get(path) ?? storeNamer(path))(keys);
  for (const singleton of nested.singletons.get(collection) ?? []) {
    await store.delete(named(singleton.path, keysBelow(singleton.parent?.parameter as string)), SINGLETON_KEY);
  }
  for (const child of nested.collections.get(collection) ?? []) {
    const childKeys = keysBelow(child.parent?.parameter as string);
    const name = named(child.path, childKeys);
    const found: RecordKey[] = [];
    let after: string | undefined;
    do {
      const page = await store.page(name, { after, limit: LIST_PAGE });
      found.push(...page.records.map((record) => record.key));
      after = page.next;
    } while (after !== undefined);
    for (const childKey of found) {
      await store.delete(name, childKey);
      await deleteNested(nested, child, childKey, childKeys, store);
    }
  }
}

/** A create whose identity the mock assigns: the next value, and the one after while the store has it taken. */
function createAssigned(served: Served, body: Body, name: string, parent: ParentRecord | undefined, params: Readonly<Record<string, string>>, mock: EngineContext, attempt: number): Maybe<Answer> {
  const { collection } = served;
  const then = (key: RecordKey): Maybe<Answer> => {
    const record = identified(body, key, served);
    const created = mock.store.create(name, record, parent);
    const answer = (outcome: CreateOutcome): Maybe<Answer> => {
      if (outcome === 'created') return answerCreated(served, record, params);
      if (outcome === 'parent-missing') return parentGone(collection, params);
      // Taken (records kept from before, another replica): jump further each time, a bounded number of times.
      if (attempt >= 32) return duplicate(collection, key, params);
      mock.engine.identities.skip(name, 2 ** attempt);
      return createAssigned(served, body, name, parent, params, mock, attempt + 1);
    };
    return typeof created === 'string' ? answer(created) : created.then(answer);
  };
  const key = mock.engine.identities.next(collection, name, mock.store);
  return typeof key === 'string' ? then(key) : key.then(then);
}

/**
 * A create at the target URI: the record its path names, keyed by that segment. Where one is there
 * already, replaced (`upsert`) or refused as a duplicate (`conflict`: the operation declares 409).
 */
async function createdAtTarget(served: Served, body: Body, mock: EngineContext, c: RequestContext): Promise<Answer> {
  const { collection } = served;
  const segment = pathSegment(c, collection);
  const key = keyOfPathSegment(segment, collection.identity);
  if (key === undefined) return notFound(collection, segment, c.request.params);
  if (served.atTarget === 'upsert') return replaced(served, key, body, mock, c);
  const mismatch = identityMismatch(collection, key, body);
  if (mismatch) return mismatch;
  const missing = await parentMissing(c, collection, mock);
  if (missing) return missing;
  const unreachable = unreachableKey(key, collection);
  if (unreachable !== undefined) return unreachableRefused(collection, unreachable);
  const params = c.request.params as Record<string, string>;
  const record = identified(body, key, served);
  const outcome = await mock.store.create(storeName(collection, params), record, parentRecord(collection, params));
  if (outcome === 'duplicate') return duplicate(collection, key, params);
  if (outcome === 'parent-missing') return parentGone(collection, params);
  return answerCreated(served, record, params);
}

async function replaced(served: Served, key: RecordKey, body: Body, mock: EngineContext, c: RequestContext): Promise<Answer> {
  const { collection } = served;
  const mismatch = identityMismatch(collection, key, body);
  if (mismatch) return mismatch;
  const missing = await parentMissing(c, collection, mock);
  if (missing) return missing;
  const params = c.request.params as Record<string, string>;
  const name = storeName(collection, params);
  // The record replaced keeps the server fields it was given at create (its `createdAt`); one a PUT creates gets its own.
  const previous = served.serverFields.length ? await mock.store.get(name, key) : undefined;
  const record = identified(body, key, served, previous && recordValue(previous));
  const outcome = await mock.store.replace(name, record);
  if (outcome !== 'missing') return answerRecord(served, record);
  // A PUT that declares 201 may create what it names (an upsert), as a create at the target does; another PUT finds a 404.
  if (served.createdStatus !== undefined || served.atTarget !== undefined) {
    const unreachable = unreachableKey(key, collection);
    if (unreachable !== undefined) return unreachableRefused(collection, unreachable);
    const created = await mock.store.create(name, record, parentRecord(collection, params));
    if (created === 'created') return { ...answerRecord(served, record), status: served.createdStatus ?? served.status };
    if (created === 'parent-missing') return parentGone(collection, params);
    // Created by another request meanwhile: this one replaces it.
    if ((await mock.store.replace(name, record)) !== 'missing') return answerRecord(served, record);
  }
  return notFound(collection, keyInWords(key, collection.identity), params);
}

async function patched(served: Served, stored: StoredRecord, patch: Body, mock: EngineContext, c: RequestContext): Promise<Answer> {
  const { collection } = served;
  const mismatch = identityMismatch(collection, stored.key, patch);
  if (mismatch) return mismatch;
  return updated(served, stored, fittedMerge(parseExactJson(mergedJson(recordValue(stored), patch, served.writable)) as Body, patch, served), mock, c);
}

/**
 * A merge patch merges nested objects (RFC 7396); where a member so merged breaks this operation's
 * own schema for it (a union's branch changed: a bank account's `seLocal` identification merged
 * into a stored `auLocal` one holds the members of both), the member is the one sent, which that
 * schema accepted, rather than a mixture the answer's projection would have to replace.
 */
function fittedMerge(merged: Body, patch: Body, served: Served): Body {
  const schemas = served.ownBody?.inlined.properties;
  if (!isObject(schemas)) return merged;
  let fitted: Body | undefined;
  for (const [name, sent] of Object.entries(patch)) {
    const schema = schemas[name];
    if (!isObject(sent) || Array.isArray(sent) || !isObject(schema) || !Object.hasOwn(merged, name)) continue;
    const validate = served.projector.validatorOf(schema);
    if (validate && !validate(merged[name])) (fitted ??= { ...merged })[name] = sent;
  }
  return fitted ?? merged;
}

/** A PATCH sent as `application/json-patch+json` (RFC 6902) rather than a merge patch. */
export function isJsonPatch(c: RequestContext): boolean {
  const type = c.request.headers['content-type'];
  return mediaEssence(typeof type === 'string' ? type : '') === 'application/json-patch+json';
}

async function jsonPatched(served: Served, stored: StoredRecord, operations: unknown, mock: EngineContext, c: RequestContext): Promise<Answer> {
  const { collection } = served;
  const outcome = appliedJsonPatch(recordValue(stored), operations);
  if ('problem' in outcome) return rejected(reject('INVALID_REQUEST_BODY', { schema: 'JSON Patch', problems: [outcome.problem] }));
  const value = parseExactJson(outcome.json);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return rejected(reject('INVALID_REQUEST_BODY', { schema: 'JSON Patch', problems: [`it would make the ${collection.noun} something other than an object`] }));
  }
  const mismatch = identityMismatch(collection, stored.key, value as Body);
  if (mismatch) return mismatch;
  // A JSON Patch's operations say nothing of the record they make: the create body's schema is the only one to judge it by.
  return updated(served, stored, value as Body, mock, c, true);
}

/**
 * Stores `value` as the record `stored` becomes. A merge patch or form update was judged by its own
 * operation's schema already (a PATCH may allow what a create does not): stored as merged, answered
 * through the answer's schema. A JSON Patch's result must still be what a create would accept.
 */
async function updated(served: Served, stored: StoredRecord, value: Body, mock: EngineContext, c: RequestContext, judgeByCreate = false): Promise<Answer> {
  const { collection } = served;
  // An identity or server field the create body does not declare aside.
  const candidate = judgeByCreate ? withoutUndeclared(value, served) : value;
  if (judgeByCreate && !collection.body.validate?.(candidate)) {
    const { sentences, more } = describeProblems(collection.body.validate?.errors, { root: candidate });
    return rejected(reject('INVALID_REQUEST_BODY', { schema: collection.resource, problems: sentences.map((s) => `after the update, ${s}`), more }));
  }
  const record = identified(value, stored.key, served, recordValue(stored));
  if ((await mock.store.replace(storeName(collection, c.request.params as Record<string, string>), record)) === 'missing') {
    return notFound(collection, keyInWords(stored.key, collection.identity), c.request.params);
  }
  return answerRecord(served, record);
}

/** The record of `body` under `key`: what the operation lets the client write, and the server fields (`kept`'s, where it replaces a record). */
function identified(body: Body, key: RecordKey, served: Served, kept?: Body): StoredRecord {
  const record = identifiedRecord(body, key, served.collection.identity, served.writable);
  if (!served.serverFields.length) return record;
  return withServerFields(record, (field) => served.writable.has(field) && body[field] !== undefined, served.serverFields, served.projector, kept);
}

/** The properties an operation's own JSON body lets a client write (its readOnly ones aside): none for one without a body. */
/** An enveloped collection's record inside a body or answer that is its envelope (collections.ts, envelopeOf); else the media itself. */
function innerOf(media: ContractMediaType | undefined, collection: Collection, document: unknown): ContractMediaType | undefined {
  return (collection.envelope !== undefined && media !== undefined && envelopedMedia(media, collection.envelope, document)) || media;
}

function writableOf(operation: { requestBody?: { content: ReadonlyMap<string, ContractMediaType> } } | undefined, collection: Collection, document: unknown): string[] {
  const body = innerOf(firstJson(operation?.requestBody?.content), collection, document);
  if (!body || body === collection.body) return [];
  return [...body.propertySet].filter((name) => body.propertySchemas.get(name)?.readOnly !== true);
}

function withoutUndeclared(value: Body, served: Served): Body {
  const { collection } = served;
  const copy = { ...value };
  for (const name of [collection.identity.property, ...served.serverFields.map((field) => field.name)]) if (!collection.body.propertySchemas.has(name)) delete copy[name];
  return copy;
}

/**
 * The success answer for a stored record: the spec's success status, with exactly the properties
 * its schema declares (writeOnly ones never) — the record's own text when the schema shows all it holds.
 */
/** `value`: what the record reads back as, when the caller holds it (a create's body stored as sent). */
function answerRecord(served: Served, record: StoredRecord, value?: Body): Answer {
  if (!served.answered) return { status: served.status };
  if (served.keyAnswered) {
    // The key's JSON is its text: a string's quoted, an integer's digits (records.ts).
    const { name, asString } = served.keyAnswered;
    const key = asString && record.key.charCodeAt(0) !== 0x22 ? JSON.stringify(record.key) : record.key;
    return { status: served.status, body: `{${JSON.stringify(name)}:${key}}` };
  }
  const shown = filled(served.whole ? record.json : projection(value ?? recordValue(record), served.answered), served.fill);
  const body = served.createdAs === undefined ? shown : served.createdAs.kind === 'array' ? `[${shown}]` : `{${JSON.stringify(served.createdAs.property)}:[${shown}]}`;
  const media = served.media as ContractMediaType;
  const answer = answered(served.status, served.projector.projectText(body, media.inlined, media.validate), body);
  if (served.wrap !== undefined && answer.body !== undefined) answer.body = `{${JSON.stringify(served.wrap)}:${String(answer.body)}}`;
  return answer;
}

/** The request body as the record reads it: an envelope's inner object (`{"article": {...}}` → `{...}`), else the body. */
function sentBody(served: Served, c: RequestContext): unknown {
  const body = c.request.requestBody;
  if (served.unwrap === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  // The member may be optional: an envelope sent empty is an empty record, as an absent body is.
  return (body as Body)[served.unwrap] ?? {};
}

/** The request's text where a record may keep it as sent: the envelope's member, exactly as sent. */
function sentText(served: Served, c: RequestContext): string | undefined {
  const body = c.request.requestBody;
  if (served.unwrap === undefined) return c.request.bodyText;
  return body !== null && typeof body === 'object' && served.unwrap in body ? exactJsonOf(body, served.unwrap) : undefined;
}

/** An answer of `body`, or of its projection (a mock bug, when even that breaks the schema, carried for the log). */
function answered(status: number, projected: Projected | undefined, body: string): Answer {
  if (!projected) return { status, body };
  return projected.problems ? { status, body: projected.json, mockBug: projected.problems } : { status, body: projected.json };
}

function keyAnsweredOf(name: string, media: ContractMediaType | undefined): Served['keyAnswered'] {
  const schema = media?.propertySchemas.get(name);
  return { name, asString: schema !== undefined && typesOf(schema).includes('string') && !typesOf(schema).includes('integer') };
}

/** A list item's JSON projected to the items' schema. */
function projectedItem(served: Served, json: string): string {
  if (!served.itemSchema) return json;
  return served.projector.projectText(json, served.itemSchema)?.json ?? json;
}

/** The inlined schema of a list's items: the array's, or its wrapper's array property's. */
function itemSchemaOf(inlined: Schema, list: ListPlan): Schema | undefined {
  const array = list.shape.kind === 'array' ? inlined : (inlined.properties as Record<string, Schema> | undefined)?.[list.shape.property];
  const items = array?.items;
  return items !== null && typeof items === 'object' && !Array.isArray(items) ? (items as Schema) : undefined;
}

/** A record's JSON object with the members `fill` adds. */
export function filled(json: string, fill: string | undefined): string {
  if (fill === undefined) return json;
  return json === '{}' ? `{${fill}}` : `${json.slice(0, -1)},${fill}}`;
}

/**
 * The members an answer adds to each record for the properties its schema requires and no record
 * can hold (readOnly ones a create leaves out, ones only the answer declares): a value each one's
 * schema allows, the same on every answer, so every answer is valid against its schema.
 */
export function fillOf(
  flat: ObjectShape | undefined,
  /** The document the properties' refs point into. */
  document: unknown,
  held: Pick<Collection, 'declared' | 'writeOnly'> & { identity?: Collection['identity'] },
  shown: ReadonlySet<string> | undefined,
): string | undefined {
  if (flat === undefined) return undefined;
  const members: string[] = [];
  for (const name of flat.required) {
    if (name === held.identity?.property || held.declared.has(name) || held.writeOnly.has(name) || (shown && !shown.has(name))) continue;
    const property = flat.properties.get(name);
    if (property) members.push(`${JSON.stringify(name)}:${JSON.stringify(leastSample(property, document))}`);
  }
  return members.length ? members.join(',') : undefined;
}

/** A create's answer, with a `Location` naming the new record where the success response declares one. */
function answerCreated(served: Served, record: StoredRecord, params: Readonly<Record<string, string>>, value?: Body): Answer {
  const answer = answerRecord(served, record, value);
  if (served.location) {
    // The item path may name the collection in the singular (`/silences` → `/silence/{silenceID}`: collections.ts).
    const { collection } = served;
    const itemBase = collection.itemPath === undefined ? undefined : itemPathOf(collection.itemPath);
    const base = pathOf(itemBase === undefined || itemBase === collection.path ? collection : { ...collection, path: itemBase }, params);
    answer.headers = { ...answer.headers, location: `${base === '/' ? '' : base}/${encodeURIComponent(keyInWords(record.key, served.collection.identity))}` };
  }
  return answer;
}

/** Whether `shown` holds every property a record of the collection can hold: its text is then the answer as it is. */
function showsWhole(collection: Collection, held: ReadonlySet<string>, shown: ReadonlySet<string> | undefined): boolean {
  return shown !== undefined && shown.has(collection.identity.property) && [...held].every((name) => shown.has(name));
}

/** `params`: the request's path parameters, so a nested collection's listing is the concrete path (`/__mock/orders/7/lines`). */
function duplicate(collection: Collection, key: string, params: RequestContext['request']['params']): Answer {
  const listing = `/__mock${pathOf(collection, params as Record<string, string>)}`;
  return rejected(reject('DUPLICATE_ID', { ids: [keyInWords(key, collection.identity)], noun: collection.noun, property: collection.identity.property, listing }));
}

/** The 400 of a create whose identity could name no item path (`unreachableKey`), pointing at the identity. */
function unreachableRefused(collection: Collection, problem: string): Answer {
  return rejected(reject('INVALID_REQUEST_BODY', { schema: collection.resource, problems: [problem], fields: [`/${collection.identity.property}`] }));
}

function identityRequired(collection: Collection): Answer {
  return rejected(reject('INVALID_REQUEST_BODY', { schema: collection.resource, problems: [`${collection.identity.property} is required to name the record to update`] }));
}

function pathSegment(c: RequestContext, collection: Collection): string {
  return (c.request.params as Record<string, string>)[collection.itemParameter as string] ?? '';
}

/** `params`: the request's path parameters, so a nested collection's listing is the concrete path (`/__mock/orders/7/lines`). */
function notFound(collection: Collection, key: string, params: RequestContext['request']['params']): Answer {
  const listing = `/__mock${pathOf(collection, params as Record<string, string>)}`;
  return rejected(reject('RECORD_NOT_FOUND', { noun: collection.noun, property: collection.identity.property, key, listing }));
}

/** The 404 of a nested collection's parent record (or its own parent's) that is not stored; undefined when every one is. */
export async function parentMissing(c: RequestContext, collection: Pick<Collection, 'parent'>, mock: EngineContext): Promise<Answer | undefined> {
  const parent = collection.parent;
  if (!parent) return undefined;
  const above = await parentMissing(c, parent.collection, mock);
  if (above) return above;
  const params = c.request.params as Record<string, string>;
  const segment = params[parent.parameter] ?? '';
  const key = keyOfPathSegment(segment, parent.collection.identity);
  const record = key === undefined ? undefined : await mock.store.get(storeName(parent.collection, params), key);
  return record ? undefined : notFound(parent.collection, segment, params);
}

/**
 * The parent record a nested create names to the store, which stores the record only while that
 * parent exists (store.ts); undefined at the top level, or for a path segment no key can be
 * (parentMissing answers those first).
 */
export function parentRecord(collection: Pick<Collection, 'parent'>, params: Readonly<Record<string, string>>): ParentRecord | undefined {
  const parent = collection.parent;
  if (!parent) return undefined;
  const key = keyOfPathSegment(params[parent.parameter] ?? '', parent.collection.identity);
  return key === undefined ? undefined : { collection: storeName(parent.collection, params), key };
}

/** The 404 of a create the store refused as 'parent-missing': the one parentMissing answers. */
export function parentGone(collection: Pick<Collection, 'parent'>, params: Readonly<Record<string, string>>): Answer {
  const parent = collection.parent as NonNullable<Collection['parent']>;
  return notFound(parent.collection, params[parent.parameter] ?? '', params);
}

function storedAt(c: RequestContext, collection: Collection, mock: EngineContext): Maybe<{ record: StoredRecord; name: string } | { answer: Answer }> {
  const found = (): Maybe<{ record: StoredRecord; name: string } | { answer: Answer }> => {
    const segment = pathSegment(c, collection);
    const key = keyOfPathSegment(segment, collection.identity);
    const name = storeName(collection, c.request.params as Record<string, string>);
    if (key === undefined) return { answer: notFound(collection, segment, c.request.params) };
    return continueWith(mock.store.get(name, key), (record) => (record ? { record, name } : { answer: notFound(collection, segment, c.request.params) }));
  };
  if (!collection.parent) return found();
  return parentMissing(c, collection, mock).then((missing) => (missing ? { answer: missing } : found()));
}

function identityMismatch(collection: Collection, key: string, body: Body): Answer | undefined {
  // A value the client may not set (assigned or read-only) is ignored, not compared.
  if (!collection.declared.has(collection.identity.property)) return undefined;
  const inBody = keyOfBody(body, collection.identity);
  if (inBody === undefined || inBody === key) return undefined;
  const { property } = collection.identity;
  return rejected(reject('IDENTITY_MISMATCH', { property, inPath: keyInWords(key, collection.identity), inBody: keyInWords(inBody, collection.identity) }));
}

/** A form or query field's text as JSON of the type the stored schema gives it (a number as its literal, every digit kept). */
function fieldJson(value: unknown, schema: Schema | undefined): string {
  if (typeof value !== 'string') return JSON.stringify(value) ?? 'null';
  const types = Array.isArray(schema?.type) ? (schema?.type as unknown[]) : [schema?.type];
  // JSON's number grammar: the literal is the number, every digit kept.
  if ((types.includes('integer') || types.includes('number')) && /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value)) return value;
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value;
  return JSON.stringify(value);
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

const LIST_PAGE = 1000;

/** Response headers that carry a list's number of records, lower case. */
const TOTAL_HEADERS = new Set(['x-total-count', 'x-total', 'total-count', 'x-count', 'x-result-count', 'x-total-results']);

/**
 * What a list's items show of records that can hold more (a create body's `repo` no listed site
 * declares, a `writeOnly` `cvc`): `shown`, and the properties not shown as JSON keys (`"repo"`).
 */
interface ItemCut {
  shown: ReadonlySet<string>;
  unshown: readonly string[];
}

function itemCutOf(shown: ReadonlySet<string>, held: Iterable<string>): ItemCut {
  return { shown, unshown: [...new Set(held)].filter((name) => !shown.has(name)).map((name) => JSON.stringify(name)) };
}

/**
 * Whether a stored record's JSON may hold a property its list's items do not show, and must be
 * parsed and projected: it names one (as a key, or a value: either way the text is read), or holds an
 * escape that could spell one. Most records hold none, and go out as stored: parsing each listed
 * record was a third of a list's CPU on netlify's sites.
 */
function mayShowMore(json: string, cut: ItemCut): boolean {
  if (json.includes('\\')) return true;
  for (const key of cut.unshown) if (json.includes(key)) return true;
  return false;
}

/** A whole collection as a JSON array, a store page at a time: memory stays one page whatever its size. */
async function* listed(store: ResourceStore, collection: string, first: Page, cut: ItemCut | undefined, finish: (json: string) => string): AsyncGenerator<string> {
  let page = first;
  let separator = '[';
  for (;;) {
    let piece = '';
    for (const record of page.records) {
      piece += separator + finish(cut && mayShowMore(record.json, cut) ? projection(recordValue(record), cut.shown) : record.json);
      separator = ',';
    }
    if (piece) yield piece;
    if (page.next === undefined) break;
    page = await store.page(collection, { after: page.next, limit: LIST_PAGE });
  }
  yield separator === '[' ? '[]' : ']';
}

/** Which records a list answers: from `offset`, at most `size` (undefined: all), of those every filter lets through. */
interface ListWindow {
  offset: number;
  size: number | undefined;
  /** The page number in effect: the one sent, else the parameter's default, else the page `offset` falls on. */
  page: number;
}

/**
 * The window the declared paging parameters ask for: a size (limit, size, per_page…), an offset
 * (offset, skip, start) or a page number (page…, counted from the parameter's minimum, 0 or 1).
 * A value not sent is its parameter's default (a page's only when no offset is sent; with no default,
 * the first page); a page number without a size takes `maxItems`, else 20. No answer holds more than
 * `maxItems`.
 */
function windowOf(plan: ListPlan, query: Record<string, unknown>): ListWindow {
  const number = (name: string | undefined): number | undefined => {
    if (name === undefined) return undefined;
    const value = Number(firstOf(query[name]));
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  };
  const { paging } = plan;
  let size = number(paging.size) ?? paging.defaultSize;
  const sentOffset = number(paging.offset) ?? (paging.cursor === undefined ? undefined : cursorOffset(firstOf(query[paging.cursor])));
  // A list with a page number is paged whether or not the client sends one: no page sent is the first (or the
  // declared default), the same size as the second, so that walking page 1, 2, 3 meets each record once.
  const page = number(paging.page) ?? (sentOffset === undefined && paging.page ? (paging.defaultPage ?? paging.firstPage) : undefined);
  let offset = sentOffset ?? paging.defaultOffset ?? 0;
  if (page !== undefined) {
    size ??= plan.maxItems ?? DEFAULT_PAGE_SIZE;
    offset = Math.max(0, page - paging.firstPage) * size;
  }
  if (plan.maxItems !== undefined) size = Math.min(size ?? plan.maxItems, plan.maxItems);
  return { offset, size, page: page ?? (size ? Math.floor(offset / size) : 0) + paging.firstPage };
}

const DEFAULT_PAGE_SIZE = 20;

/** The mock's cursor for the page starting at `offset`: opaque to the client, given back as it was sent. */
export function cursorOf(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

/** The offset a cursor of the mock's names; undefined for anything else (a first page). */
function cursorOffset(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const match = /^offset:(\d{1,15})$/.exec(Buffer.from(value, 'base64url').toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

/** A filter a request sets: the stored property, the values any one of which it must equal, and the value a record without it has. */
type Filter = readonly [property: string, wanted: string[], absent?: unknown];

/** A list plan without filter parameters: nothing to read from the query. */
const NO_FILTERS: readonly Filter[] = Object.freeze([]);

/**
 * The filters a request sets. A record without the property is judged by the `default` its
 * schema gives it (a record created without `status` is `open` when that is the default).
 */
function activeFilters(plan: ListPlan, collection: Collection, query: Record<string, unknown>, url: string): Filter[] {
  const active: Filter[] = [];
  const filter = (property: string, wanted: string[]): void => {
    active.push([property, wanted, collection.stored.get(property)?.default]);
  };
  let repeated: URLSearchParams | undefined;
  for (const [parameter, property] of plan.filters) {
    const value = query[parameter];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      filter(property, value.map(String));
      continue;
    }
    // `?tags=a&tags=b` (form, exploded: an array parameter's default) where the query kept one value.
    repeated ??= new URLSearchParams(url.slice(url.indexOf('?') + 1));
    const all = repeated.getAll(parameter);
    // A number as its literal says it (an int64 a double would round), in the digits a record holds.
    const sent = typeof value === 'number' && all.length === 1 ? integerOfLiteral(all[0] as string)?.toString() : undefined;
    filter(property, all.length > 1 ? all : [sent ?? String(value)]);
  }
  // `?filter[author]=Ada`: each member naming a stored property is one more filter.
  for (const [parameter, members] of plan.memberFilters ?? []) {
    const value = query[parameter];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [member, property] of members) {
      const wanted = (value as Record<string, unknown>)[member];
      if (wanted !== undefined) filter(property, Array.isArray(wanted) ? wanted.map(String) : [String(wanted)]);
    }
  }
  return active;
}

/** Whether a stored value equals one of the filter's values (any element of an array value). */
function matches(value: unknown, wanted: readonly string[]): boolean {
  if (Array.isArray(value)) return value.some((item) => matches(item, wanted));
  if (value !== null && typeof value === 'object') return false;
  return wanted.includes(String(value));
}

/** `matches` for `container[key]` of a record, its numbers by their exact digits. */
function matchesAt(container: Record<string, unknown> | unknown[], key: string, wanted: readonly string[]): boolean {
  const value = (container as Record<string, unknown>)[key];
  if (typeof value === 'number') return wanted.includes(exactJsonOf(container, key));
  if (Array.isArray(value)) return value.some((_, index) => matchesAt(value, String(index), wanted));
  return matches(value, wanted);
}

/** The records a filtered or paged list shows, as JSON texts, and how many passed the filters. */
function selected(
  store: ResourceStore,
  name: string,
  cut: ItemCut | undefined,
  filters: readonly Filter[],
  window: ListWindow,
  needsTotal: boolean,
  bound: ScanBound,
): Maybe<{ pieces: string[]; total: number }> {
  const pieces: string[] = [];
  let passed = 0;
  // Unfiltered, a window is its first offset + size records: no store page larger than that, nor than a loop turn's share.
  const limit = Math.max(1, Math.min(filters.length === 0 && window.size !== undefined ? window.offset + window.size : LIST_PAGE, LIST_PAGE, bound.recordsPerTurn));
  // Records read since the loop last had a turn: past the bound, the next page waits for the next turn.
  let read = 0;
  // One page at a time; the next is asked for only once this one is taken (a promise only from a store that answers with one).
  const take = (page: Page): Maybe<{ pieces: string[]; total: number }> => {
    for (;;) {
      read += page.records.length;
      for (const record of page.records) {
        const projected = cut !== undefined && mayShowMore(record.json, cut);
        const value = filters.length || projected ? recordValue(record) : undefined;
        if (value && !filters.every(([property, wanted, absent]) => (value[property] === undefined ? matches(absent, wanted) : matchesAt(value, property, wanted)))) continue;
        if (passed >= window.offset && (window.size === undefined || pieces.length < window.size)) pieces.push(value && projected ? projection(value, cut.shown) : record.json);
        passed++;
      }
      const full = window.size !== undefined && pieces.length >= window.size;
      if (page.next === undefined || (full && !needsTotal)) return { pieces, total: passed };
      if (full && filters.length === 0) return continueWith(store.count(name), (total) => ({ pieces, total }));
      const next = store.page(name, { after: page.next, limit });
      // A store that answers with a promise waits on its backend: the loop turns meanwhile.
      if (next instanceof Promise) {
        read = 0;
        return next.then(take);
      }
      if (read >= bound.recordsPerTurn) {
        read = 0;
        return nextTurn(bound).then(() => take(next));
      }
      page = next;
    }
  };
  return continueWith(store.page(name, { limit }), take);
}

/** Names a wrapper's count of every record the filters let through goes under. */
const TOTAL_NAMES = new Set([
  'total',
  'totalCount',
  'total_count',
  'totalItems',
  'total_items',
  'count',
  'totalElements',
  'total_elements',
  'totalResults',
  'total_results',
  'totalRecords',
  'total_records',
  'totalHits',
  'total_hits',
]);

/** Number members that count pages (Spring Data's `totalPages`; `pages` in Overseerr's pageInfo). */
const PAGE_COUNT_NAMES = new Set(['totalPages', 'total_pages', 'pageCount', 'page_count', 'pages']);

/** Inside a paging object only (Overseerr's `pageInfo.results`): at a list's top, `results` is the records' array. */
const NESTED_TOTAL_NAMES = new Set(['results']);

/** Number members naming the page answered, beside the page parameter's own names (Lago's `meta.current_page`). */
const CURRENT_PAGE_NAMES = new Set(['current_page', 'currentPage']);

/** Number members naming the next or the previous page's number (Lago's `meta.next_page`). */
const PAGE_NUMBER_MEMBERS = new Map<string, 'next' | 'prev'>([
  ['next_page', 'next'],
  ['nextPage', 'next'],
  ['prev_page', 'prev'],
  ['prevPage', 'prev'],
  ['previous_page', 'prev'],
  ['previousPage', 'prev'],
]);

/** The page a link names (RFC 8288's registered relations): the same list with its paging parameters moved. */
type PageRel = 'next' | 'prev' | 'self' | 'first' | 'last';

const LINK_NAMES = new Map<string, PageRel>([
  ['next', 'next'],
  ['prev', 'prev'],
  ['previous', 'prev'],
  ['self', 'self'],
  ['first', 'first'],
  ['last', 'last'],
]);

/** A member of a wrapped list (`next`) or of one of its object members (`links.next`) that links the next or previous page. */
interface PageLink {
  at: MemberPath;
  rel: PageRel;
  /** `format: uri`: an absolute URL. */
  absolute: boolean;
  /** Null where there is no such page; else the member is left out. */
  nullable: boolean;
}

/** Where a wrapped list's answer holds a member it fills: at its top (`["total"]`) or in an object member (`["meta", "total_count"]`). */
type MemberPath = readonly [string] | readonly [string, string];

/** What a wrapped list's answer fills, read once from its schema: at its top or one object member down (`meta`, `pageInfo`). */
interface WrapperPlan {
  /** Number members named like a total (total, totalCount, count…). */
  totals: readonly MemberPath[];
  /** Number members named like a page count (totalPages, pages…): the pages the total makes at the size applied. */
  pageCounts: readonly MemberPath[];
  /** Number members named like a paging parameter (page, current_page, limit, offset…): the value in effect. */
  paging: ReadonlyArray<{ at: MemberPath; value: PagingValue }>;
  /** Number members naming the next or previous page's number (next_page, prev_page): null, or left out, where there is none. */
  pageNumbers: ReadonlyArray<{ at: MemberPath; rel: 'next' | 'prev'; nullable: boolean }>;
  links: readonly PageLink[];
  required: ReadonlySet<string>;
  /** Boolean members named like "there is more" (hasMore, more…): whether a page follows. */
  more: readonly MemberPath[];
  /** A value its schema allows for each other required member, for an answer without an example of it. */
  samples: ReadonlyMap<string, unknown>;
  /** String members carrying the next page's cursor (next_cursor…), each with whether it may be null. */
  cursors: ReadonlyMap<string, boolean>;
}

function wrapperPlanOf(media: ContractMediaType, answered: ReadonlySet<string> | undefined, document: unknown, array: string): WrapperPlan {
  // The array's own count is its total too (`articlesCount` beside `articles`, `items_count` beside `items`).
  const ownTotals = new Set([`${array}Count`, `${array}_count`]);
  const totals: MemberPath[] = [];
  const pageCounts: MemberPath[] = [];
  const paging: Array<{ at: MemberPath; value: PagingValue }> = [];
  const pageNumbers: Array<{ at: MemberPath; rel: 'next' | 'prev'; nullable: boolean }> = [];
  const more: MemberPath[] = [];
  const cursors = new Map<string, boolean>();
  const links: PageLink[] = [];
  // What one member is, by its name and type; false when none of these.
  const fill = (at: MemberPath, schema: unknown): boolean => {
    const name = at[at.length - 1] as string;
    const types = typesOf(schema);
    const number = types.includes('integer') || types.includes('number');
    const nested = at.length === 2;
    if (number && (TOTAL_NAMES.has(name) || (!nested && ownTotals.has(name)) || (nested && NESTED_TOTAL_NAMES.has(name)))) totals.push(at);
    else if (number && PAGE_COUNT_NAMES.has(name)) pageCounts.push(at);
    else if (number && (PAGING_VALUES.has(name) || CURRENT_PAGE_NAMES.has(name))) paging.push({ at, value: PAGING_VALUES.get(name) ?? 'page' });
    else if (number && PAGE_NUMBER_MEMBERS.has(name)) pageNumbers.push({ at, rel: PAGE_NUMBER_MEMBERS.get(name) as 'next' | 'prev', nullable: types.includes('null') });
    else if (types.includes('boolean') && MORE_NAMES.has(name)) more.push(at);
    else if (!nested && types.includes('string') && NEXT_CURSOR_NAMES.has(name)) cursors.set(name, types.includes('null'));
    else {
      const rel = LINK_NAMES.get(name);
      if (!rel || !types.includes('string')) return false;
      links.push({ at, rel, absolute: (schema as Schema).format === 'uri', nullable: types.includes('null') });
    }
    return true;
  };
  const filledTop = new Set<string>();
  for (const [name, schema] of media.propertySchemas) {
    if (answered && !answered.has(name)) continue;
    if (fill([name], schema)) filledTop.add(name);
    else {
      const object = resolveRef(schema, document);
      if (isObject(object) && typesOf(object).includes('object') && isObject(object.properties)) {
        for (const [member, inner] of Object.entries(object.properties)) fill([name, member], resolveRef(inner, document));
      }
    }
  }
  const required = new Set(media.required);
  const samples = new Map<string, unknown>();
  // A member filled inside an object member (`meta.total_count`) fills that one: the object's required others are still sampled.
  for (const [name, schema] of media.propertySchemas) {
    if ((answered && !answered.has(name)) || filledTop.has(name)) continue;
    if (required.has(name)) samples.set(name, leastSample(schema, document));
  }
  return { totals, pageCounts, paging, pageNumbers, links, required, more, samples, cursors };
}

/** String members of a wrapped list that carry the cursor of the next page. */
const NEXT_CURSOR_NAMES: ReadonlySet<string> = new Set(NEXT_CURSORS);

const MORE_NAMES = new Set(['more', 'hasMore', 'has_more', 'hasNext', 'has_next', 'hasNextPage', 'has_next_page']);

function typesOf(schema: unknown): string[] {
  return schema !== null && typeof schema === 'object' ? schemaTypes(schema as Schema) : [];
}

/** The page a list answered: the request's URL, where the mock is, how many records it showed of how many. */
interface PageShown {
  url: string;
  origin: string;
  shown: number;
  total: number;
}

/**
 * A wrapped list: the success answer's example (when it is an object) with the records in the
 * array property, and every member the mock knows how to fill: an integer total-like member
 * (total, totalCount, count…) set to the number of records the filters let through, members
 * named like paging parameters set to the values in effect (sent, else the parameter's
 * default, else implied: page 1, offset 0, the size applied), and `next`/`prev` links (at the
 * top or in an object member such as `links`) to the same query with the page or offset moved,
 * null or left out where there is no such page.
 */
function wrapped(served: Served, plan: ListPlan, array: string, window: ListWindow, shown: PageShown): string {
  const shape = plan.shape as { kind: 'wrapped'; property: string };
  const wrapper = served.wrapper as WrapperPlan;
  const example = served.example;
  const members = new Map<string, unknown>();
  if (example !== null && typeof example === 'object' && !Array.isArray(example)) {
    for (const [name, value] of Object.entries(example)) if (served.answered?.has(name) ?? true) members.set(name, value);
  }
  members.set(shape.property, undefined);
  // Required members the example does not give and the mock cannot fill: still valid answers.
  for (const [name, value] of wrapper.samples) if (!members.has(name)) members.set(name, value);
  // Sets (undefined: leaves out) a member at the top or inside an object member, which is copied, never changed where it came from.
  const place = (at: MemberPath, value: unknown): void => {
    const [first, inner] = at;
    if (inner === undefined) {
      if (value === undefined) members.delete(first);
      else members.set(first, value);
      return;
    }
    const current = members.get(first);
    const object = current !== null && typeof current === 'object' && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
    if (value === undefined) delete object[inner];
    else object[inner] = value;
    members.set(first, object);
  };
  for (const at of wrapper.more) place(at, window.offset + shown.shown < shown.total);
  for (const at of wrapper.totals) place(at, shown.total);
  // No size applied: every record on one page (none when there are none).
  const pages = window.size ? Math.ceil(shown.total / window.size) : shown.total > 0 ? 1 : 0;
  for (const at of wrapper.pageCounts) place(at, pages);
  for (const { at, value } of wrapper.paging) {
    // No size applied (every record answered): the number shown, only where the schema requires one.
    const size = window.size ?? (at.length === 1 && wrapper.required.has(at[0]) ? shown.shown : undefined);
    const filled = value === 'page' ? window.page : value === 'offset' ? window.offset : size;
    if (filled !== undefined) place(at, filled);
  }
  for (const { at, rel, nullable } of wrapper.pageNumbers) {
    const target = window.size ? (rel === 'next' ? window.offset + window.size < shown.total : window.offset > 0) : false;
    place(at, target ? (rel === 'next' ? window.page + 1 : Math.max(plan.paging.firstPage, window.page - 1)) : nullable ? null : undefined);
  }
  // The next page's cursor where one follows (the page's size applied), else null or nothing.
  const nextOffset = window.size ? window.offset + window.size : undefined;
  for (const [name, nullable] of wrapper.cursors) {
    if (nextOffset !== undefined && nextOffset < shown.total) members.set(name, cursorOf(nextOffset));
    else if (nullable || wrapper.required.has(name)) members.set(name, nullable ? null : '');
    else members.delete(name);
  }
  for (const link of wrapper.links) {
    // `self` is the request itself; the others the same list at another page, where there is one.
    const target = link.rel === 'self' ? null : pageTarget(plan, window, shown, link.rel);
    place(link.at, target === undefined ? (link.nullable ? null : undefined) : pageLink(shown, target, link.absolute));
  }
  return `{${[...members].map(([name, value]) => `${JSON.stringify(name)}:${name === shape.property ? array : JSON.stringify(value)}`).join(',')}}`;
}

/** The query member and value that ask for the next or previous page; undefined when there is none, or no parameter to ask with. */
function pageTarget(plan: ListPlan, window: ListWindow, shown: PageShown, rel: Exclude<PageRel, 'self'>): [string, number | string] | undefined {
  const { size, offset } = window;
  if (size === undefined || size === 0) return undefined;
  if (rel === 'next' ? offset + size >= shown.total : rel === 'prev' ? offset === 0 : false) return undefined;
  // The offset of the page the link names: the last is the one holding the last record.
  const wanted = rel === 'next' ? offset + size : rel === 'prev' ? Math.max(0, offset - size) : rel === 'first' ? 0 : Math.max(0, Math.ceil(shown.total / size) - 1) * size;
  if (plan.paging.page) return [plan.paging.page, rel === 'next' ? window.page + 1 : rel === 'prev' ? Math.max(plan.paging.firstPage, window.page - 1) : plan.paging.firstPage + wanted / size];
  if (plan.paging.offset) return [plan.paging.offset, wanted];
  // A cursor list: the mock's own cursor of that page, which the same parameter takes back.
  if (plan.paging.cursor) return [plan.paging.cursor, cursorOf(wanted)];
  return undefined;
}

/** The request's own path and query with one paging member set (its other members kept as sent); null: the request itself. */
function pageLink(shown: PageShown, target: [string, number | string] | null, absolute: boolean): string {
  // An absolute-form target (`GET http://host/books`) keeps only its path.
  const url = shown.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const kept = (at === -1 ? [] : url.slice(at + 1).split('&')).filter((part) => part !== '' && (target === null || queryName(part) !== target[0]));
  if (target !== null) kept.push(`${encodeURIComponent(target[0])}=${encodeURIComponent(String(target[1]))}`);
  return `${absolute ? shown.origin : ''}${path || '/'}${kept.length ? `?${kept.join('&')}` : ''}`;
}

function queryName(part: string): string {
  const name = part.split('=', 1)[0] as string;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
