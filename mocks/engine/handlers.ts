/**
 * The operation handlers, in openapi-backend's model: one handler per operationId (`register()`),
 * plus its hooks for requests no operation takes (notFound, methodNotAllowed), credentials that
 * fail (unauthorizedHandler), requests that fail the spec (validationFail) and operations without
 * a handler of their own (notImplemented: the spec's examples, as Prism answers). Each receives
 * openapi-backend's Context and the exchange the request path built.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, Handler } from 'openapi-backend';
import type { ErrorObject } from 'ajv';
import { describeProblems } from '../../spec/problems.js';
import { parseExactJson } from '../../spec/exact-json.js';
import { isRejection, reject, type Rejection } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { preflightHeaders } from '../http/cors.js';
import type { CreateOutcome, Page, ResourceStore, StoredRecord } from '../stores/store.js';
import type { MockContext } from './context.js';
import { exampleAnswer } from './examples.js';
import type { Preferences } from './prefer.js';
import { keyInWords, keyOfBody, keyOfPathSegment, mergedJson, projection, recordOf, recordValue } from './records.js';
import type { Collection, CollectionRole, StatefulOperation } from '../../spec/collections.js';
import type { RequestWithText } from './request-path.js';
import type { RoutedOperation } from './routes.js';
import type { SecurityOutcome } from './security.js';

/** What the request path hands every handler besides openapi-backend's Context. */
export interface Exchange {
  req: IncomingMessage;
  mock: MockContext;
  prefer: Preferences;
  /** The routed operation (undefined for notFound / methodNotAllowed). */
  operation?: RoutedOperation;
  /** For notFound / methodNotAllowed. */
  route?: { method: string; path: string; allow?: string };
}

/** Where validation failed, for validationFail's words. */
export interface MockValidation {
  valid: boolean;
  errors: ErrorObject[] | null;
  /** The body (`body`) or the parameters (`parameters`). */
  where?: 'body' | 'parameters';
  /** The validated value, to quote numbers as sent. */
  root?: unknown;
}

type MockHandler = (c: Context, exchange: Exchange) => Answer | Promise<Answer>;

/** The hooks every mock registers, whatever the spec. */
export function hookHandlers(): Record<string, Handler> {
  const hooks: Record<string, MockHandler> = {
    notFound: (_c, { mock, route }) =>
      rejected(reject('ROUTE_NOT_FOUND', { method: route?.method ?? '', path: route?.path ?? '', api: mock.engine.contract.title, operations: mock.engine.operationList })),
    methodNotAllowed: (_c, { route }) => {
      const allow = route?.allow ?? 'OPTIONS';
      if (route?.method === 'OPTIONS') return { status: 204, headers: preflightHeaders(allow) };
      return rejected(reject('METHOD_NOT_ALLOWED', { method: route?.method ?? '', path: route?.path ?? '', allow }));
    },
    unauthorizedHandler: (c, { mock }) => rejected(firstSecurityFailure(c, mock.engine.realm)),
    validationFail: (c, { operation }) => {
      const validation = c.validation as MockValidation;
      const { sentences, more, fields } = describeProblems(validation.errors, { root: validation.root });
      if (validation.where === 'parameters') return rejected(reject('INVALID_PARAMETER', { problems: sentences, more, fields }));
      return rejected(reject('INVALID_REQUEST_BODY', { schema: operation?.body?.schemaName ?? 'request body', problems: sentences, more, fields }));
    },
    notImplemented: (_c, { mock, operation, prefer }) => {
      const routed = operation as RoutedOperation;
      return { ...exampleAnswer(mock.engine.api, routed.contract, { status: prefer.code, example: prefer.example, route: routed }), stateful: false };
    },
  };
  return hooks as Record<string, Handler>;
}

/** The 401 of the first requirement that failed, in the spec's order. */
function firstSecurityFailure(c: Context, realm: string): Rejection {
  for (const [name, result] of Object.entries(c.security ?? {})) {
    if (name === 'authorized') continue;
    const error = (result as SecurityOutcome | undefined)?.error;
    if (isRejection(error)) return error;
  }
  return reject('MISSING_CREDENTIALS', { realm, scheme: 'Bearer', expected: "'Authorization: Bearer <token>'" });
}

/** The stateful handler of each operation the mock serves from its store, by operationId. */
export function statefulHandlers(stateful: ReadonlyMap<string, StatefulOperation>): Record<string, Handler> {
  const handlers: Record<string, MockHandler> = {};
  for (const [operationId, { role, collection }] of stateful) {
    const handler = ROLES[role];
    if (handler) handlers[operationId] = handler(collection);
  }
  return handlers as Record<string, Handler>;
}

const ROLES: Partial<Record<CollectionRole, (collection: Collection) => MockHandler>> = {
  // Not async: the in-memory store answers synchronously, and a create then costs no promise.
  create: (collection) => (c, { mock, operation }) => {
    const body = c.request.requestBody as Record<string, unknown>;
    const key = keyOfBody(body, collection.identity);
    if (key === undefined) {
      return rejected(reject('INVALID_REQUEST_BODY', { schema: collection.resource, problems: [`${collection.identity.property} is required to store the record`] }));
    }
    const text = (c.request as RequestWithText).bodyText;
    const created = mock.store.create(collection.path, recordOf(body, key, collection.declared, text));
    const answer = (outcome: CreateOutcome): Answer => (outcome === 'duplicate' ? duplicate(collection, key) : success(operation as RoutedOperation, body));
    return typeof created === 'string' ? answer(created) : created.then(answer);
  },
  list: (collection) => async (_c, { mock, operation }) => {
    const routed = operation as RoutedOperation;
    const properties = routed.successMedia?.itemProperties ?? collection.declared;
    // The first page is read before answering, so a store outage is still an error answer.
    const first = await mock.store.page(collection.path, { limit: LIST_PAGE });
    return { status: routed.contract.successStatus ?? 200, stream: listed(mock.store, collection.path, first, properties) };
  },
  read: (collection) => async (c, { mock, operation }) => {
    const found = await storedAt(c, collection, mock);
    if (!('record' in found)) return found.answer;
    return success(operation as RoutedOperation, recordValue(found.record));
  },
  replace: (collection) => async (c, { mock, operation }) => {
    const key = pathKey(c, collection);
    const body = c.request.requestBody as Record<string, unknown>;
    const mismatch = key === undefined ? undefined : identityMismatch(collection, key, body);
    if (key === undefined) return notFound(c, collection);
    if (mismatch) return mismatch;
    const record = withIdentity(recordOf(body, key, collection.declared), collection, body);
    const outcome = await mock.store.replace(collection.path, record);
    if (outcome === 'missing') return notFound(c, collection);
    return success(operation as RoutedOperation, recordValue(record));
  },
  patch: (collection) => async (c, { mock, operation }) => {
    const found = await storedAt(c, collection, mock);
    if (!('record' in found)) return found.answer;
    const patch = c.request.requestBody as Record<string, unknown>;
    const mismatch = identityMismatch(collection, found.record.key, patch);
    if (mismatch) return mismatch;
    const value = parseExactJson(mergedJson(recordValue(found.record), patch, collection.declared)) as Record<string, unknown>;
    // The merged record must still be what a create would accept.
    if (!collection.body.validate?.(value)) {
      const { sentences, more } = describeProblems(collection.body.validate?.errors, { root: value });
      return rejected(reject('INVALID_REQUEST_BODY', { schema: collection.resource, problems: sentences.map((s) => `after the patch, ${s}`), more }));
    }
    const record = recordOf(value, found.record.key, collection.declared);
    if ((await mock.store.replace(collection.path, record)) === 'missing') return notFound(c, collection);
    return success(operation as RoutedOperation, value);
  },
  delete: (collection) => async (c, { mock, operation }) => {
    const found = await storedAt(c, collection, mock);
    if (!('record' in found)) return found.answer;
    if ((await mock.store.delete(collection.path, found.record.key)) === 'missing') return notFound(c, collection);
    return success(operation as RoutedOperation, recordValue(found.record));
  },
};

/** The success answer: the spec's success status, with exactly the properties its schema declares. */
function success(operation: RoutedOperation, value: Record<string, unknown>): Answer {
  const status = operation.contract.successStatus ?? 200;
  const media = operation.successMedia;
  if (!media) return { status };
  return { status, body: projection(value, media.propertySet) };
}

function duplicate(collection: Collection, key: string): Answer {
  return rejected(
    reject('DUPLICATE_ID', { ids: [keyInWords(key, collection.identity)], noun: collection.noun, property: collection.identity.property, listing: `/__mock${collection.path}` }),
  );
}

function pathKey(c: Context, collection: Collection): string | undefined {
  const segment = (c.request.params as Record<string, string>)[collection.itemParameter as string];
  return segment === undefined ? undefined : keyOfPathSegment(segment, collection.identity);
}

function notFound(c: Context, collection: Collection): Answer {
  const segment = (c.request.params as Record<string, string>)[collection.itemParameter as string] ?? '';
  return rejected(reject('RECORD_NOT_FOUND', { noun: collection.noun, property: collection.identity.property, key: segment, listing: `/__mock${collection.path}` }));
}

async function storedAt(c: Context, collection: Collection, mock: MockContext): Promise<{ record: StoredRecord } | { answer: Answer }> {
  const key = pathKey(c, collection);
  const record = key === undefined ? undefined : await mock.store.get(collection.path, key);
  return record ? { record } : { answer: notFound(c, collection) };
}

function identityMismatch(collection: Collection, key: string, body: Record<string, unknown>): Answer | undefined {
  const inBody = keyOfBody(body, collection.identity);
  if (inBody === undefined || inBody === key) return undefined;
  const { property } = collection.identity;
  return rejected(reject('IDENTITY_MISMATCH', { property, inPath: keyInWords(key, collection.identity), inBody: keyInWords(inBody, collection.identity) }));
}

/** A replacing body may leave the identity out: the path names it. */
function withIdentity(record: StoredRecord, collection: Collection, body: Record<string, unknown>): StoredRecord {
  if (body[collection.identity.property] !== undefined) return record;
  const identity = `${JSON.stringify(collection.identity.property)}:${record.key}`;
  return { key: record.key, json: record.json === '{}' ? `{${identity}}` : `{${identity},${record.json.slice(1)}` };
}

const LIST_PAGE = 1000;

/** A whole collection as a JSON array, a store page at a time: memory stays one page whatever its size. */
async function* listed(store: ResourceStore, collection: string, first: Page, properties: ReadonlySet<string>): AsyncGenerator<string> {
  let page = first;
  let separator = '[';
  for (;;) {
    let piece = '';
    for (const record of page.records) {
      piece += separator + projection(recordValue(record), properties);
      separator = ',';
    }
    if (piece) yield piece;
    if (page.next === undefined) break;
    page = await store.page(collection, { after: page.next, limit: LIST_PAGE });
  }
  yield separator === '[' ? '[]' : ']';
}
