/**
 * The request path of the spec's operations in one place: route, auth, media type, size, parse,
 * schema, forced response, then the operation's handler (stateful, or the spec's examples).
 * Every decision is openapi-backend's model — handlers by operationId, security handlers by
 * scheme name, its hooks for what fails — run over the route table compiled at start
 * (routes.ts says why not `api.handleRequest`). The HTTP edge (../server.ts) only reads the
 * request and writes the answer.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'openapi-backend';
import type { ErrorObject } from 'ajv';
import { queryValues, type ParameterSource, type QueryValues } from '../../spec/parameters.js';
import { isRejection, reject, type Rejection } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { checkContentEncoding, checkJsonMediaType, hasBody, readBody, takeBufferedBody } from '../http/request-body.js';
import { parseJsonBody } from './body.js';
import type { MockContext } from './context.js';
import { exampleAnswer } from './examples.js';
import type { Exchange, MockValidation } from './handlers.js';
import { forceProblem, parsePrefer } from './prefer.js';
import type { RoutedOperation } from './routes.js';
import type { SecurityOutcome } from './security.js';

const VALID: MockValidation = Object.freeze({ valid: true, errors: null }) as MockValidation;
const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});

/** Decides the answer to one request for the spec's operations; the mock's own rejections in the spec's shapes. */
export async function handleRequest(req: IncomingMessage, path: string, mock: MockContext): Promise<Answer> {
  const answer = await decide(req, path, mock);
  if (!answer.rejection) return answer;
  const { contract, errors } = mock.engine;
  const operation = answer.operationId === undefined ? undefined : contract.operations.get(answer.operationId);
  return errors.render(answer, operation ? { operation } : { path });
}

async function decide(req: IncomingMessage, path: string, mock: MockContext): Promise<Answer> {
  const { api, routes } = mock.engine;
  const method = req.method ?? 'GET';
  const found = routes.route(method, path);
  const prefer = parsePrefer(req.headers.prefer as string | undefined);
  if (found.kind !== 'operation') {
    const exchange: Exchange = { req, mock, prefer, route: { method, path, allow: found.kind === 'method-not-allowed' ? found.allow : undefined } };
    const hook = found.kind === 'not-found' ? api.handlers.notFound : api.handlers.methodNotAllowed;
    return hook?.(contextOf(mock, req, method, path, {}, undefined), exchange) as Answer;
  }
  const { operation, params } = found;
  const c = contextOf(mock, req, method, path, params, operation);
  const exchange: Exchange = { req, mock, prefer, operation };
  let received: Buffer | undefined;
  const labelled = (answer: Answer): Answer => {
    answer.requestBody = received;
    answer.requestText = (c.request as RequestWithText).bodyText;
    answer.operationId = operation.operationId;
    if (answer.stateful === undefined) answer.stateful = operation.stateful;
    return answer;
  };
  // Prefer: delay applies to every answer of an operation, rejections included, unless the Prefer header itself is refused.
  const delayed = (answer: Answer): Answer => {
    labelled(answer);
    if (prefer.delayMs) answer.delayMs = prefer.delayMs;
    return answer;
  };

  if (!authorized(c, exchange, operation)) return delayed(await api.handlers.unauthorizedHandler?.(c, exchange));

  if (operation.body) {
    const read = bodyToRead(req, operation);
    if (read !== true && read !== false) return delayed(rejected(read));
    if (read) {
      const raw = takeBufferedBody(req, mock.maxBody) ?? (await readBody(req, mock.maxBody));
      if (!isRejection(raw)) received = raw;
      const problem = acceptBody(c, operation, raw);
      if (problem) return delayed(rejected(problem));
    }
  }

  const invalid = validate(c, operation);
  if (invalid) {
    c.validation = invalid;
    return delayed(await api.handlers.validationFail?.(c, exchange));
  }

  if (prefer.problem !== undefined) return labelled(rejected(reject('INVALID_PREFER', { problem: prefer.problem })));
  if (prefer.code !== undefined) {
    const problem = forceProblem(prefer.code, operation.forceable);
    if (problem) return labelled(rejected(reject('INVALID_PREFER', { problem })));
    const forced = exampleAnswer(api, operation.contract, { status: prefer.code, example: prefer.example, route: operation });
    forced.headers = { ...forced.headers, 'preference-applied': `code=${prefer.code}` };
    return delayed({ ...forced, stateful: false });
  }
  const answer = operation.handler(c, exchange) as Answer | Promise<Answer>;
  return delayed(answer instanceof Promise ? await answer : answer);
}

/**
 * Before reading the body of an operation that takes one: true when there is a body to read,
 * false when there is none and none is required, or the rejection (a required body missing, a
 * media type the operation does not take). The proxy (../proxy/) judges requests by this rule too.
 */
export function bodyToRead(req: IncomingMessage, operation: RoutedOperation): boolean | Rejection {
  const body = operation.body;
  if (!body) return false;
  const contentType = req.headers['content-type'];
  // No body at all, and none declared: the body is missing (400), not of the wrong type (415).
  if (!hasBody(req) && contentType === undefined) return body.required ? emptyBody(operation) : false;
  return checkContentEncoding(req.headers['content-encoding']) ?? checkJsonMediaType(contentType, body.accepted) ?? true;
}

/**
 * The body read (at most the size limit, or the 413 that says it was larger): parsed exactly onto
 * openapi-backend's request, or the rejection (too large, a required body empty, not UTF-8 JSON).
 */
export function acceptBody(c: Context, operation: RoutedOperation, raw: Buffer | Rejection): Rejection | undefined {
  if (isRejection(raw)) return raw;
  if (raw.length === 0) return operation.body?.required ? emptyBody(operation) : undefined;
  const parsed = parseJsonBody(raw, operation.body?.media.exactPlan);
  if (!parsed.ok) return parsed.rejection;
  c.request.body = c.request.requestBody = parsed.value;
  (c.request as RequestWithText).bodyText = parsed.text;
  return undefined;
}

/** openapi-backend's parsed request, with the body's text as received (for records and the journal). */
export type RequestWithText = Context['request'] & {
  bodyText?: string;
  /** Each parameter sent, by name, read by its style and coerced to its schema (set by `validate`). */
  parameterValues?: Record<string, unknown>;
};

/** openapi-backend's Context for one request, as its handlers expect it. */
export function contextOf(
  mock: MockContext,
  req: IncomingMessage,
  method: string,
  path: string,
  params: Record<string, string>,
  operation: RoutedOperation | undefined,
): Context {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  return {
    api: mock.engine.api,
    request: {
      method,
      path,
      params,
      query: queryAt === -1 ? NO_QUERY : queryObject(url.slice(queryAt + 1)),
      headers: req.headers,
      cookies: {},
      requestBody: undefined,
      body: undefined,
    },
    operation: operation?.contract as never,
    validation: VALID,
    security: { authorized: true },
    response: undefined,
  } as unknown as Context;
}

/**
 * Runs the security handlers of the operation's requirements (openapi-backend's rule: any one
 * requirement suffices, every scheme in it must pass; none declared means no credentials needed).
 */
export function authorized(c: Context, exchange: Exchange, operation: RoutedOperation): boolean {
  if (operation.security.length === 0) return true;
  // The common case, one requirement of one scheme that is satisfied, allocates nothing.
  const only = operation.security.length === 1 && operation.security[0]?.length === 1 ? operation.security[0][0] : undefined;
  if (only) {
    const result = only.check(c, exchange) as SecurityOutcome;
    if (!result.error) return true;
    c.security = { [only.name]: result, authorized: false };
    return false;
  }
  const results: Record<string, SecurityOutcome> = {};
  for (const requirement of operation.security) {
    let satisfied = true;
    for (const { name, check } of requirement) {
      const result = (results[name] ??= check(c, exchange) as SecurityOutcome);
      if (result.error) {
        satisfied = false;
        break;
      }
    }
    if (satisfied) {
      c.security = { ...results, authorized: true };
      return true;
    }
  }
  c.security = { ...results, authorized: false };
  return false;
}

/** The body and the parameters against the spec; the failure, or undefined when all is valid. */
export function validate(c: Context, operation: RoutedOperation): MockValidation | undefined {
  const validateBody = operation.body?.media.validate;
  const value = c.request.requestBody;
  if (validateBody && value !== undefined && !validateBody(value)) {
    return { valid: false, errors: validateBody.errors ?? [], where: 'body', root: value };
  }
  if (operation.parameters.length === 0) return undefined;
  const errors: ErrorObject[] = [];
  const sent: Record<string, unknown> = {};
  const source: ParameterSource = { path: c.request.params as Record<string, string>, query: queryValuesOf(c.request.query), headers: c.request.headers };
  for (const parameter of operation.parameters) {
    // Read by its style and explode, coerced to its schema (spec/parameters.ts).
    const value = parameter.read(source);
    if (value === undefined) {
      if (parameter.required) errors.push(missing(parameter.in, parameter.name));
      continue;
    }
    sent[parameter.name] = value;
    if (!parameter.validate) continue;
    if (!parameter.validate(value)) {
      const where = `/${parameter.in === 'path' ? 'path' : parameter.in} parameter ${parameter.name}`;
      for (const error of parameter.validate.errors ?? []) errors.push({ ...error, instancePath: where + error.instancePath });
    }
  }
  (c.request as RequestWithText).parameterValues = sent;
  return errors.length ? { valid: false, errors, where: 'parameters', root: sent } : undefined;
}

/** openapi-backend's query (a repeated name as an array) as the deserializer reads it. */
function queryValuesOf(query: Record<string, string | string[] | undefined>): QueryValues {
  const values = new Map<string, readonly string[]>();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) values.set(name, Array.isArray(value) ? value : [value]);
  return values;
}

/** The query string with a repeated name's values as an array (openapi-backend's shape). */
function queryObject(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of queryValues(search)) query[name] = values.length === 1 ? (values[0] as string) : [...values];
  return query;
}

function missing(location: string, name: string): ErrorObject {
  return { keyword: 'required', instancePath: '', schemaPath: '', params: { missingProperty: `the ${location} parameter ${name}` } } as ErrorObject;
}

function emptyBody(operation: RoutedOperation) {
  const media = operation.body?.media;
  const example = media?.examples[0]?.value;
  return reject('EMPTY_BODY', {
    operationId: operation.operationId,
    schema: operation.body?.schemaName ?? 'body',
    example: example === undefined ? '' : JSON.stringify(example),
  });
}
