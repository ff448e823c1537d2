/**
 * The hooks beside the operations' handlers (one per operationId: ./stateful.ts, ./singletons.ts):
 * for requests no operation takes (notFound, methodNotAllowed), credentials that fail
 * (unauthorizedHandler), requests that fail the spec (validationFail) and operations without a
 * handler of their own (notImplemented: the spec's examples, as Prism answers, after a 404 the spec declares for a
 * record the path names that is not stored). They bear the
 * names openapi-backend gives its hooks, from when the mock ran on its `handleRequest`. Each
 * receives the request's context (./context.ts) and the exchange the request path built.
 */
import type { ExactFilter } from '../../openapi/operations/list-filters.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import { isRejection, reject, type Rejection } from '../errors.js';
import { rejected } from '../http/answer.js';
import { preflightHeaders } from '../http/cors.js';
import type { MockHandler, RequestContext, RoutedOperation } from './context.js';
import { exampleAnswer, type KeptValue } from './examples.js';
import { parameterRejection } from './parameter-judge.js';
import { parentMissing } from './stateful.js';
import type { SecurityOutcome } from './security.js';

export type { Exchange, MockHandler, MockValidation } from './context.js';

/** The hooks every mock registers, whatever the spec. */
export function hookHandlers(): Record<string, MockHandler> {
  const hooks: Record<string, MockHandler> = {
    notFound: (_c, { mock, route }) => {
      const method = route?.method ?? '';
      const path = route?.path ?? '';
      // A client that took the spec's servers at their word (`/api/v3/pets`): say where the path is served.
      const base = mock.engine.basePaths.find((prefix) => path.startsWith(`${prefix}/`) && mock.engine.routes.route(method, path.slice(prefix.length)).kind !== 'not-found');
      const under = base === undefined ? {} : { under: { base, path: path.slice(base.length) } };
      return rejected(reject('ROUTE_NOT_FOUND', { method, path, api: mock.engine.contract.title, operations: mock.engine.operationList, ...under }));
    },
    methodNotAllowed: (_c, { mock, route }) => {
      const allow = route?.allow ?? 'OPTIONS';
      if (route?.method === 'OPTIONS') return { status: 204, headers: preflightHeaders(allow, mock.engine.cors) };
      return rejected(reject('METHOD_NOT_ALLOWED', { method: route?.method ?? '', path: route?.path ?? '', allow }));
    },
    unauthorizedHandler: (c, { mock }) => rejected(firstSecurityFailure(c, mock.engine.realm)),
    validationFail: (c, { operation }) => {
      const validation = c.validation;
      if (validation.where === 'parameters') return rejected(parameterRejection(validation.errors, validation.root));
      const { sentences, more, fields } = describeProblems(validation.errors, { root: validation.root });
      return rejected(reject('INVALID_REQUEST_BODY', { schema: operation?.body?.schemaName ?? 'request body', problems: sentences, more, fields }));
    },
    notImplemented: async (c, { mock, operation, prefer, mediaType }) => {
      const routed = operation as RoutedOperation;
      // Below a record (a site's certificates) or naming one (a silence by its id): the spec's 404 for one never made.
      if (routed.contract.responses.has(404)) {
        for (const { parameter, collection } of mock.engine.records.get(routed.operationId) ?? []) {
          const missing = await parentMissing(c, { parent: { collection, parameter } }, mock);
          if (missing) return missing;
        }
      }
      const kept = prefer.code === undefined ? keptBy(c, mock.engine.filtersOf(routed.contract)) : [];
      return { ...(await exampleAnswer(mock.engine.bodies, routed.contract, { status: prefer.code, example: prefer.example, mediaType, route: routed, kept })), stateful: false };
    },
  };
  return hooks;
}

/** The exact filters the request names, with the value each keeps (a boolean's text read as one). */
function keptBy(c: RequestContext, filters: readonly ExactFilter[]): KeptValue[] {
  return filters.flatMap(({ parameter, property, kind, wrapper, absent }): KeptValue[] => {
    const text = c.request.query[parameter];
    if (typeof text !== 'string') return [];
    return [{ property, wrapper, value: kind === 'boolean' ? text === 'true' : text, absent }];
  });
}

/** What a scheme says when the request did not send its credential at all (another alternative's may have been). */
const NOT_SENT = new Set(['MISSING_CREDENTIALS', 'MISSING_API_KEY', 'WRONG_AUTH_SCHEME']);

/**
 * The 401 of the first requirement that failed, in the spec's order, preferring one whose credential
 * was sent: a refused API key is told so, not to send the Authorization header of the first
 * alternative (the Prism mock's edge answers it too).
 */
export function firstSecurityFailure(c: RequestContext, realm: string): Rejection {
  let first: Rejection | undefined;
  for (const [name, result] of Object.entries(c.security ?? {})) {
    if (name === 'authorized') continue;
    const error = (result as SecurityOutcome | undefined)?.error;
    if (!isRejection(error)) continue;
    if (!NOT_SENT.has(error.code)) return error;
    first ??= error;
  }
  return first ?? reject('MISSING_CREDENTIALS', { realm, scheme: 'Bearer', expected: "'Authorization: Bearer <token>'" });
}
