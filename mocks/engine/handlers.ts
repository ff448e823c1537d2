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
import { isRejection, reject, type Rejection } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { preflightHeaders } from '../http/cors.js';
import type { MockContext } from './context.js';
import { exampleAnswer } from './examples.js';
import type { Preferences } from './prefer.js';
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

export type MockHandler = (c: Context, exchange: Exchange) => Answer | Promise<Answer>;

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
