/**
 * A forwarded request judged by the mock's own rules (../engine/request-path.ts): the route, the
 * credentials' presence and shape for the operation's security, the media type, the size, the
 * JSON syntax, the body's schema and the parameters — with the mock's words (its hooks and the
 * catalogue). Unlike the mock, the proxy does not stop at the first problem: the credentials and
 * the body are judged independently, and nothing is refused (the upstream decides).
 */
import type { IncomingMessage } from 'node:http';
import type { MockContext } from '../engine/context.js';
import type { Exchange } from '../engine/handlers.js';
import type { Preferences } from '../engine/prefer.js';
import { acceptBody, authorized, bodyToRead, contextOf, validate } from '../engine/request-path.js';
import type { Route } from '../engine/routes.js';
import { reject, type Rejection } from '../errors.js';
import type { Answer } from '../http/answer.js';
import { violation, type Violation } from './violations.js';

/** The copy of the request body the proxy kept while forwarding it, or why it kept none. */
export type BodyCopy = { bytes: Buffer } | { unchecked: string };

export async function judgeRequest(
  req: IncomingMessage,
  path: string,
  mock: MockContext,
  found: Route,
  prefer: Preferences,
  body: Promise<BodyCopy>,
): Promise<Violation[]> {
  const { api } = mock.engine;
  const method = req.method ?? 'GET';
  const violations: Violation[] = [];
  const add = (answer: Answer | undefined): void => {
    if (answer?.rejection) violations.push(violation('request', answer.rejection));
  };
  if (found.kind !== 'operation') {
    const exchange: Exchange = { req, mock, prefer, route: { method, path, allow: found.kind === 'method-not-allowed' ? found.allow : undefined } };
    const hook = found.kind === 'not-found' ? api.handlers.notFound : api.handlers.methodNotAllowed;
    add(await hook?.(contextOf(mock, req, method, path, {}, undefined), exchange));
    return violations;
  }
  const { operation, params } = found;
  const c = contextOf(mock, req, method, path, params, operation);
  const exchange: Exchange = { req, mock, prefer, operation };
  if (!authorized(c, exchange, operation)) add(await api.handlers.unauthorizedHandler?.(c, exchange));
  const read = bodyToRead(req, operation);
  if (read !== true && read !== false) violations.push(violation('request', read));
  else if (read) {
    const copy = await body;
    if ('unchecked' in copy) violations.push(violation('request', reject('NOT_VALIDATED', { what: 'request body', reason: copy.unchecked }), 'warning'));
    else {
      const problem: Rejection | undefined = acceptBody(c, operation, copy.bytes);
      if (problem) violations.push(violation('request', problem));
    }
  }
  // The body's schema when it was read, and the parameters in any case.
  const invalid = validate(c, operation);
  if (invalid) {
    c.validation = invalid;
    add(await api.handlers.validationFail?.(c, exchange));
  }
  return violations;
}
