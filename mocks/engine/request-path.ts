/**
 * The request path of the spec's operations in one place: the judge (route, auth, media type,
 * size, parse, schema), then the forced response, then the operation's handler (stateful, or the
 * spec's examples). The judge is the request side of the one judge (openapi/judge/judge.ts): the
 * mock calls it here with the policy that stops at the first problem and answers it; the proxy
 * (../proxy/request-verdict.ts) hands it to the one judge with the policy that collects them all.
 * Handlers are found by operationId, security checks by scheme name and the hooks for what fails
 * by name (./handlers.ts), over the route table compiled at start (routes.ts). The HTTP edge
 * (../server.ts) only reads the request and writes the answer.
 */
import type { IncomingMessage } from 'node:http';
import { queryValues, type ParameterSource, type QueryValues } from '../../openapi/operations/parameters.js';
import { isRejection, reject, type Rejection } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { checkContentEncoding, checkJsonMediaType, hasBody, readBody, takeBufferedBody } from '../http/request-body.js';
import { bodyKind, parseJsonBody, parseOtherBody } from './body.js';
import { xmlBodyValue } from './xml-body.js';
import { declaredFor, type ContractOperation } from '../../openapi/operations/model.js';
import { isJsonMediaType, isXmlMediaType, mediaEssence } from '../../openapi/media-types.js';
import type { HeaderValues } from './declared-headers.js';
import type { EngineContext, Exchange, MockValidation, RequestContext, Route, RoutedOperation } from './context.js';
import { negotiate } from './negotiate.js';
import { exampleAnswer } from './examples.js';
import { continueWith, type Maybe } from '../maybe.js';
import { parameterErrors } from './parameter-judge.js';
import { forceProblem, parsePrefer, type Preferences } from './prefer.js';
import type { SecurityOutcome } from './security.js';
import type { JudgePolicy } from '../../openapi/judge/violation.js';

const VALID: MockValidation = Object.freeze({ valid: true, errors: null });
const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});
const NO_QUERY_VALUES: QueryValues = new Map();
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
const AUTHORIZED: Readonly<Record<string, unknown>> = Object.freeze({ authorized: true });

/**
 * Decides the answer to one request for the spec's operations; the mock's own rejections in the
 * spec's shapes. A promise only where something is pending (a body still arriving, a store that
 * answers with one, a delay): a request decided at once costs none.
 */
export function handleRequest(req: IncomingMessage, path: string, mock: EngineContext): Answer | Promise<Answer> {
  return continueWith(decide(req, path, mock), (answer) => {
    // A HEAD is told the length of the GET's body: a streamed one (a list) is gathered to count it; Node sends none of it.
    if (req.method === 'HEAD' && answer.stream) return gathered(answer);
    if (!answer.rejection) return answer;
    const { contract, errors } = mock.engine;
    const operation = answer.operationId === undefined ? undefined : contract.operations.get(answer.operationId);
    return errors.render(answer, operation ? { operation } : { path });
  });
}

/** A streamed answer with its body whole. */
export async function gathered(answer: Answer): Promise<Answer> {
  const pieces: string[] = [];
  for await (const piece of answer.stream as Iterable<string> | AsyncIterable<string>) pieces.push(piece);
  return { ...answer, stream: undefined, body: pieces.join('') };
}

function decide(req: IncomingMessage, path: string, mock: EngineContext): Answer | Promise<Answer> {
  const method = req.method ?? 'GET';
  const found = routeOf(mock, method, path);
  const prefer = parsePrefer(req.headers.prefer as string | undefined);
  return continueWith(judge(req, path, mock, found, prefer, readRequestBody, 'first'), (verdict) => decided(verdict, found, prefer, mock));
}

/**
 * The route of a request; a HEAD the spec does not declare takes the GET's route (RFC 9110
 * §9.3.2: the GET's answer without its body, its headers kept). The proxy routes by it too, so
 * the HEAD it forwards is judged as the GET the mock would answer.
 */
export function routeOf(mock: EngineContext, method: string, path: string): Route {
  const found = mock.engine.routes.route(method, path);
  if (method !== 'HEAD' || found.kind !== 'method-not-allowed') return found;
  const get = mock.engine.routes.route('GET', path);
  return get.kind === 'operation' ? get : found;
}

/** The answer once the request is judged: a refusal, a forced answer, else the operation's handler's. */
function decided(verdict: Verdict, found: Route, prefer: Preferences, mock: EngineContext): Answer | Promise<Answer> {
  if (found.kind !== 'operation') return verdict.answers?.[0] as Answer;
  const { operation } = found;
  const { context: c, exchange } = verdict;
  const labelled = (answer: Answer): Answer => {
    answer.requestBody = verdict.received;
    answer.requestText = c.request.bodyText;
    answer.operationId = operation.operationId;
    if (answer.stateful === undefined) answer.stateful = operation.stateful;
    return withDeclaredHeaders(answer, operation.contract, exchange.mediaType, mock.engine.headerValues);
  };
  // Prefer: delay applies to every answer of an operation, rejections included, unless the Prefer header itself is refused.
  const delayed = (answer: Answer): Answer => {
    labelled(answer);
    if (prefer.delayMs) answer.delayMs = prefer.delayMs;
    return answer;
  };
  const refusal = verdict.answers?.[0];
  if (refusal) return delayed(refusal);

  if (prefer.problem !== undefined) return labelled(rejected(reject('INVALID_PREFER', { problem: prefer.problem })));
  const code = prefer.code;
  if (code !== undefined) {
    const problem = forceProblem(code, operation.forceable, operation.contract);
    if (problem) return labelled(rejected(reject('INVALID_PREFER', { problem })));
  }
  // Before the handler: a create refused for its Accept stores nothing.
  const negotiated = negotiate(c.request.headers.accept, operation.contract, code, operation.stateful && code === undefined);
  if ('refusal' in negotiated) return delayed(rejected(negotiated.refusal));
  exchange.mediaType = negotiated.mediaType;
  if (code !== undefined) {
    return continueWith(exampleAnswer(mock.engine.bodies, operation.contract, { status: code, example: prefer.example, mediaType: negotiated.mediaType, route: operation }), (forced) => {
      forced.headers = { ...forced.headers, 'preference-applied': `code=${code}` };
      return delayed({ ...forced, stateful: false });
    });
  }
  const unlisted = unlistedRecord(c, operation, mock);
  if (unlisted) return unlisted.then((refusal) => (refusal ? delayed(refusal) : continueWith(operation.handler(c, exchange), delayed)));
  return continueWith(operation.handler(c, exchange), delayed);
}

/**
 * The 404 of a path naming a record only a list answers by a value that list never answers
 * (./listed-records.ts), before any handler: a stateful operation below such a record (a workflow's
 * instances) is refused as the spec's examples are. Undefined at once for an operation that declares
 * no 404 or has no path parameter: most requests pay nothing.
 */
function unlistedRecord(c: RequestContext, operation: RoutedOperation, mock: EngineContext): Promise<Answer | undefined> | undefined {
  if (!operation.contract.path.includes('{') || !operation.contract.responses.has(404)) return undefined;
  const listed = mock.engine.listed.get(operation.operationId);
  return listed ? mock.engine.listedRecords.unlisted(c.request.params as Record<string, string>, listed, mock.engine.contract.operations) : undefined;
}

/** Where the judge gets a request's body: the mock reads it; the proxy hands the copy it kept while forwarding. */
export type BodySource = (req: IncomingMessage, maxBody: number) => Buffer | Rejection | { unchecked: string } | Promise<Buffer | Rejection | { unchecked: string }>;

/** The mock's body source: the bytes already buffered with the head, else read up to the limit (413 past it). */
const readRequestBody: BodySource = (req, maxBody) => takeBufferedBody(req, maxBody) ?? readBody(req, maxBody);

export interface Verdict {
  /**
   * What the hooks answered, in the order of the checks: for a route miss the notFound or
   * methodNotAllowed answer (a preflight's 204 included), else each refusal; undefined when none.
   */
  answers: Answer[] | undefined;
  /** Why a part was not judged (the proxy's copy of a body it could not keep). */
  unchecked: string | undefined;
  context: RequestContext;
  exchange: Exchange;
  /** The body's bytes, when they were read. */
  received: Buffer | undefined;
}

/**
 * The request against the spec: the route; for an operation the credentials, the media type and
 * encoding, the size, the JSON syntax, the body's schema and the parameters — each problem in the
 * catalogue's words, through the engine's hooks (./handlers.ts).
 */
export function judge(req: IncomingMessage, path: string, mock: EngineContext, found: Route, prefer: Preferences, body: BodySource, policy: JudgePolicy): Verdict | Promise<Verdict> {
  const hooks = mock.engine.handlers;
  const method = req.method ?? 'GET';
  if (found.kind !== 'operation') {
    const exchange: Exchange = { req, mock, prefer, route: { method, path, allow: found.kind === 'method-not-allowed' ? found.allow : undefined } };
    const context = contextOf(req, method, path, NO_PARAMS);
    const verdict: Verdict = { answers: undefined, unchecked: undefined, context, exchange, received: undefined };
    const hook = found.kind === 'not-found' ? hooks.notFound : hooks.methodNotAllowed;
    return continueWith(hook?.(context, exchange), (answer) => {
      refused(verdict, answer, policy);
      return verdict;
    });
  }
  const { operation, params } = found;
  const context = contextOf(req, method, path, params);
  const exchange: Exchange = { req, mock, prefer, operation };
  const verdict: Verdict = { answers: undefined, unchecked: undefined, context, exchange, received: undefined };
  if (authorized(context, operation)) return judgeBody(verdict, operation, body, policy);
  return continueWith(hooks.unauthorizedHandler?.(context, exchange), (answer) => (refused(verdict, answer, policy) ? verdict : judgeBody(verdict, operation, body, policy)));
}

/** The media type, encoding and size, the body read and parsed, then the schemas. */
function judgeBody(verdict: Verdict, operation: RoutedOperation, body: BodySource, policy: JudgePolicy): Verdict | Promise<Verdict> {
  const { context, exchange } = verdict;
  const read = bodyToRead(exchange.req, operation);
  if (read !== true && read !== false) {
    if (refused(verdict, rejected(read), policy)) return verdict;
    return judgeSchemas(verdict, operation, policy);
  }
  if (!read) return judgeSchemas(verdict, operation, policy);
  // The mock's body usually came with the head: no promise to wait for.
  return continueWith(body(exchange.req, exchange.mock.maxBody), (raw) => {
    if (Buffer.isBuffer(raw)) verdict.received = raw;
    if (!Buffer.isBuffer(raw) && 'unchecked' in raw) verdict.unchecked = raw.unchecked;
    else {
      return continueWith(acceptBody(context, operation, raw), (problem) => {
        if (problem && refused(verdict, rejected(problem), policy)) return verdict;
        return judgeSchemas(verdict, operation, policy);
      });
    }
    return judgeSchemas(verdict, operation, policy);
  });
}

/** The body's schema when it was read, and the parameters in any case. */
function judgeSchemas(verdict: Verdict, operation: RoutedOperation, policy: JudgePolicy): Verdict | Promise<Verdict> {
  const { context, exchange } = verdict;
  const invalid = validate(context, operation);
  if (!invalid) return verdict;
  context.validation = invalid;
  return continueWith(exchange.mock.engine.handlers.validationFail?.(context, exchange), (answer) => {
    refused(verdict, answer, policy);
    return verdict;
  });
}

/** Adds a hook's refusal to the verdict; whether the judge stops there. */
function refused(verdict: Verdict, answer: Answer | undefined, policy: JudgePolicy): boolean {
  if (!answer) return false;
  (verdict.answers ??= []).push(answer);
  return policy === 'first';
}

/**
 * Before reading the body of an operation that takes one: true when there is a body to read,
 * false when there is none and none is required, or the rejection (a required body missing, a
 * media type the operation does not take). The proxy (../proxy/) judges requests by this rule too.
 */
function bodyToRead(req: IncomingMessage, operation: RoutedOperation): boolean | Rejection {
  const body = operation.body;
  if (!body) return false;
  const contentType = req.headers['content-type'];
  // No body at all, and none declared: the body is missing (400), not of the wrong type (415).
  if (!hasBody(req) && contentType === undefined) return body.required ? emptyBody(operation) : false;
  // A declared range (`text/*`, `*/*`) takes the type sent; the check still refuses a charset other than UTF-8.
  const declared = contentType === undefined ? undefined : body.matcher.match(contentType);
  const accepted = declared?.includes('*') ? [mediaEssence(contentType as string)] : body.accepted;
  return checkContentEncoding(req.headers['content-encoding']) ?? checkJsonMediaType(contentType, accepted) ?? true;
}

/**
 * The body read (at most the size limit, or the 413 that says it was larger): parsed exactly onto
 * the handlers' request, or the rejection (too large, a required body empty, not UTF-8 JSON).
 */
export function acceptBody(c: RequestContext, operation: RoutedOperation, raw: Buffer | Rejection): Maybe<Rejection | undefined> {
  if (isRejection(raw)) return raw;
  const body = operation.body;
  if (raw.length === 0 || !body) return body?.required ? emptyBody(operation) : undefined;
  const contentType = String(c.request.headers['content-type'] ?? '');
  const declared = body.matcher.match(contentType);
  const media = (declared === undefined ? undefined : body.content.get(declared)) ?? body.media;
  const kind = bodyKind(contentType === '' ? media.mediaType : body.matcher.essence(contentType));
  // A multipart body is read by a stream parser: its promise; every other kind at once.
  const parsed = kind === 'json' ? parseJsonBody(raw, media.exactPlan) : parseOtherBody(raw, kind, contentType, media, body.schemaName);
  return continueWith(parsed, (read) => {
    if (!read.ok) return read.rejection;
    // An XML document of an object schema is read into that object (its XML Object honoured): a create sent as XML stores a record.
    const xml = kind === 'text' && typeof read.value === 'string' && isXmlMediaType(body.matcher.essence(contentType)) ? xmlBodyValue(read.value, media.inlined) : undefined;
    c.request.requestBody = xml ?? read.value;
    c.request.bodyText = read.text;
    // Text of another kind (XML …) and bytes (an upload) are only judged by a schema that takes a string.
    c.request.bodyValidate = (kind === 'text' || kind === 'bytes') && media.type !== 'string' ? undefined : media.validate;
    return undefined;
  });
}

/** The context of one request, before its body is read. */
export function contextOf(req: IncomingMessage, method: string, path: string, params: Readonly<Record<string, string>>): RequestContext {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const values = queryAt === -1 ? NO_QUERY_VALUES : queryValues(url.slice(queryAt + 1));
  return {
    request: {
      method,
      path,
      params,
      query: queryAt === -1 ? NO_QUERY : queryObject(values),
      queryValues: values,
      headers: req.headers,
      requestBody: undefined,
      bodyText: undefined,
    },
    validation: VALID,
    security: AUTHORIZED,
  };
}

/**
 * Runs the security checks of the operation's requirements (OpenAPI's rule: any one
 * requirement suffices, every scheme in it must pass; none declared means no credentials needed).
 */
export function authorized(c: RequestContext, operation: Pick<RoutedOperation, 'security'>): boolean {
  if (operation.security.length === 0) return true;
  // The common case, one requirement of one scheme that is satisfied, allocates nothing.
  const only = operation.security.length === 1 && operation.security[0]?.length === 1 ? operation.security[0][0] : undefined;
  if (only) {
    const result = only.check(c.request);
    if (!result.error) return true;
    c.security = { [only.name]: result, authorized: false };
    return false;
  }
  const results: Record<string, SecurityOutcome> = {};
  for (const requirement of operation.security) {
    let satisfied = true;
    for (const { name, check } of requirement) {
      const result = (results[name] ??= check(c.request));
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
export function validate(c: RequestContext, operation: RoutedOperation): MockValidation | undefined {
  const body = invalidBody(c);
  if (body) return body;
  if (operation.parameters.length === 0) return undefined;
  const sent: Record<string, unknown> = {};
  const source: ParameterSource = { path: c.request.params as Record<string, string>, query: c.request.queryValues ?? queryValuesOf(c.request.query), headers: c.request.headers };
  const errors = parameterErrors(operation.parameters, source, sent);
  c.request.parameterValues = sent;
  return errors.length ? { valid: false, errors, where: 'parameters', root: sent } : undefined;
}

/** The body read (acceptBody) against the schema of the media type it was read as; the failure, or undefined. The admin route writing a singleton judges its body by this too. */
export function invalidBody(c: RequestContext): MockValidation | undefined {
  const value = c.request.requestBody;
  const validateBody = value === undefined ? undefined : c.request.bodyValidate;
  if (validateBody && value !== undefined && !validateBody(value)) {
    return { valid: false, errors: validateBody.errors ?? [], where: 'body', root: value };
  }
  return undefined;
}

/** The handlers' query (a repeated name as an array) as the deserializer reads it. */
function queryValuesOf(query: Readonly<Record<string, string | string[] | undefined>>): QueryValues {
  const values = new Map<string, readonly string[]>();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) values.set(name, Array.isArray(value) ? value : [value]);
  return values;
}

/** The query string's values with a repeated name's as an array (the handlers' shape). */
function queryObject(search: QueryValues): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of search) query[name] = values.length === 1 ? (values[0] as string) : [...values];
  return query;
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

/**
 * The answer with the headers its declared response asks for: a JSON body without a media type of
 * its own in the JSON media type declared (`application/vnd.api+json`, where no plain
 * `application/json` is), and every header marked `required` that it does not carry (a `Location`
 * a create sets itself), a value the header's schema allows, as `simple` style writes it.
 */
function withDeclaredHeaders(answer: Answer, operation: ContractOperation, negotiated: string | undefined, values: HeaderValues): Answer {
  const response = answer.send ? undefined : declaredFor(operation, answer.status);
  if (!response) return answer;
  const typed = answer.headers?.['content-type'] !== undefined || (answer.body === undefined && answer.stream === undefined);
  // A stored record in the JSON type Accept chose (application/vnd.api+json where plain JSON is declared too).
  if (!typed && negotiated !== undefined && !answer.rejection && response.content.has(negotiated) && isJsonMediaType(negotiated)) {
    answer.headers = { ...answer.headers, 'content-type': negotiated };
  } else if (!typed && !response.content.has('application/json')) {
    const json = [...response.content.keys()].find(isJsonMediaType);
    if (json !== undefined) answer.headers = { ...answer.headers, 'content-type': json };
  }
  const declared = response.headerParameters;
  if (!declared?.length) return answer;
  let headers: typeof answer.headers;
  let has: Set<string> | undefined;
  for (const header of declared) {
    const value = header.required && header.name !== 'content-length' ? values.get(header) : undefined;
    if (value === undefined) continue;
    headers ??= { ...answer.headers };
    has ??= new Set(Object.keys(headers).map((name) => name.toLowerCase()));
    if (!has.has(header.name)) headers[header.name] = value;
  }
  if (headers) answer.headers = headers;
  return answer;
}
