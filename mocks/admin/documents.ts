/**
 * The admin routes of a singleton document (openapi/operations/collections.ts, `recogniseSingletons`) at
 * `/__mock` + its concrete path (`/__mock/users/7/profile`, `/__mock/settings`): GET the document
 * exactly as stored (404 while never written: the API then answers the spec's example), PUT one
 * (judged by the API's PUT: its body's media type read and its schema checked by the request
 * path's own steps), DELETE it. The concrete path is matched by the API's route table, so the
 * admin route and the API name the same document by the same ids.
 */
import type { IncomingMessage } from 'node:http';
import type { Singleton } from '../../openapi/operations/collections.js';
import { storeName } from '../engine/store-names.js';
import type { Engine, RoutedOperation } from '../engine/context.js';
import { parsePrefer } from '../engine/prefer.js';
import { acceptBody, contextOf, invalidBody } from '../engine/request-path.js';
import { written } from '../engine/singletons.js';
import { parentGone, parentMissing, parentRecord, SINGLETON_KEY } from '../engine/stateful.js';
import { recordOf } from '../engine/records.js';
import { isRejection, reject } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { checkContentEncoding, checkJsonMediaType, readBody } from '../http/request-body.js';
import type { MockContext } from './context.js';

/** A singleton document at a concrete path: the document, its path parameters (decoded as the API decodes them), and the PUT that writes it. */
export interface DocumentAt {
  singleton: Singleton;
  params: Readonly<Record<string, string>>;
  /** The API path the document is at, as the admin route was given it (`/users/7/profile`). */
  path: string;
  put: RoutedOperation | undefined;
}

/** The singleton document the API's GET at `path` reads, when that GET is one. */
export function documentAt(path: string, engine: Engine): DocumentAt | undefined {
  const found = engine.routes.route('GET', path);
  if (found.kind !== 'operation') return undefined;
  const read = engine.singletons.get(found.operation.operationId);
  if (read?.role !== 'read') return undefined;
  const putId = [...engine.singletons].find(([, { role, singleton }]) => role === 'replace' && singleton === read.singleton)?.[0];
  return { singleton: read.singleton, params: found.params, path, put: engine.routes.operations.find((operation) => operation.operationId === putId) };
}

type Handler = (req: IncomingMessage, context: MockContext) => Promise<Answer>;

export function documentRoutes(at: DocumentAt): Record<string, Handler> {
  const name = storeName(at.singleton, at.params);
  return {
    GET: async (req, context) => {
      const missing = await parentOf(req, 'GET', at, context);
      if (missing) return missing;
      const stored = await context.store.get(name, SINGLETON_KEY);
      if (!stored) return rejected(reject('DOCUMENT_NOT_WRITTEN', { path: at.path }));
      // The stored JSON text itself: numbers keep their exact digits.
      return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: stored.json };
    },
    // Forgetting a document that is not there is still a forgotten document.
    DELETE: async (_req, { store }) => {
      await store.delete(name, SINGLETON_KEY);
      return { status: 204 };
    },
    PUT: (req, context) => put(req, context, at, name),
  };
}

async function put(req: IncomingMessage, context: MockContext, at: DocumentAt, name: string): Promise<Answer> {
  const mediaTypeProblem = checkContentEncoding(req.headers['content-encoding']) ?? checkJsonMediaType(req.headers['content-type']);
  if (mediaTypeProblem) return rejected(mediaTypeProblem);
  const raw = await readBody(req, context.maxBody);
  if (isRejection(raw)) return rejected(raw);
  const operation = at.put as RoutedOperation;
  const c = contextOf(req, 'PUT', at.path, at.params);
  const refused = (answer: Answer): Answer => ({ ...answer, requestBody: raw });
  const problem = await acceptBody(c, operation, raw);
  if (problem) return refused(rejected(problem));
  const body = c.request.requestBody;
  if (body === undefined) {
    const example = operation.body?.media.examples[0]?.value;
    return refused(
      rejected(reject('EMPTY_BODY', { operationId: operation.operationId, schema: operation.body?.schemaName ?? 'document', example: example === undefined ? '' : JSON.stringify(example) })),
    );
  }
  const invalid = invalidBody(c);
  if (invalid) {
    // The API's own words for the API's own refusal (the validationFail hook).
    c.validation = invalid;
    const answer = await context.engine.handlers.validationFail?.(c, { req, mock: context, prefer: parsePrefer(undefined), operation });
    if (answer) return refused(answer);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refused(rejected(reject('INVALID_REQUEST_BODY', { schema: operation.body?.schemaName ?? 'document', problems: ['the document must be a JSON object'] })));
  }
  const missing = await parentOf(req, 'PUT', at, context);
  if (missing) return refused(missing);
  const record = recordOf(body as Record<string, unknown>, SINGLETON_KEY, at.singleton.declared, c.request.bodyText);
  if ((await written(context.store, name, record, parentRecord(at.singleton, at.params))) === 'parent-missing') return refused(parentGone(at.singleton, at.params));
  return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: record.json, requestBody: raw };
}

/** The 404 of the record a nested document belongs to, when it is not stored: the API answers the same. */
function parentOf(req: IncomingMessage, method: string, at: DocumentAt, context: MockContext): Promise<Answer | undefined> {
  return parentMissing(contextOf(req, method, at.path, at.params), at.singleton, context);
}
