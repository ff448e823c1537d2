/**
 * The stateless mock: Prism (@stoplight/prism-http) answering from the spec's examples.
 *
 * Prism decides the answer — routing, the body's validation, the response it mocks. This module
 * is the HTTP edge, judging first what the stateful mock judges first and alike: the credentials,
 * by the stateful mock's own checks (./credentials.ts), before anything else; then it reads the
 * body, parses JSON losslessly so that an int64 id is judged on its real digits (Prism itself
 * would parse into doubles), answers a malformed or oversized body in the shape the spec declares
 * (engine/error-answers.ts) instead of Prism's crash, refuses a body whose strings miss their
 * `pattern` by the spec's linear-time validator (Prism would backtrack), refuses parameters the spec's schemas refuse,
 * judged exactly as the stateful mock judges them (./parameters.ts), and writes Prism's output,
 * judged by the one judge (openapi/judge/: ./answers.ts) with its verdict in `sl-violations`.
 * prism-http-server is not used because its edge lets a malformed JSON body take the whole process
 * down (so it does in 5.16).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createLogger } from '@stoplight/prism-core';
import { createInstance, ProblemJsonError, type IHttpConfig, type IHttpRequest } from '@stoplight/prism-http';
import type { ErrorObject } from 'ajv';
import { isJsonMediaType, matchingMedia } from '../../openapi/media-types.js';
import { pathTemplatePattern } from '../../openapi/operations/paths.js';
import { readContract } from '../../openapi/operations/compile.js';
import { type CompiledContract, type ContractOperation } from '../../openapi/operations/model.js';
import { describeProblems } from '../../openapi/schema/problems.js';
import { refName } from '../../openapi/schema/resolve.js';
import { DuplicateMemberName, parseExactJson } from '../../openapi/schema/exact-json.js';
import { applyCors, preflightHeaders, specCorsGrant, type CorsGrant } from '../http/cors.js';
import { ErrorAnswers } from '../engine/error-answers.js';
import { failureKind, isRejection, reject, type Rejection } from '../errors.js';
import { DEFAULT_MAX_BODY, readBody } from '../http/request-body.js';
import { DEFAULT_HOST, listen } from '../http/listen.js';
import { ANSWER_ATTEMPTS, declaredMedia, judgeAnswer, madeUp, wireAnswer, type WireAnswer } from './answers.js';
import { loadPrismOperations } from './operations.js';
import { PrismRouting } from './routing.js';
import { CredentialGate } from './credentials.js';
import { ParameterGate } from './parameters.js';
import { mockPreferences } from './preferences.js';

export const DEFAULT_PRISM_PORT = 4011;

export interface PrismMockOptions {
  port?: number;
  host?: string;
  /** OpenAPI document to serve (default: the project's spec). */
  spec?: string;
  /** The compiled contract to serve (instead of reading `spec`). */
  contract?: CompiledContract;
  /** Prism's log level (pino levels plus Prism's `success`); `silent` by default. */
  logLevel?: string;
  /** Generate responses from the schemas instead of answering the spec's examples. */
  dynamic?: boolean;
  /** Largest accepted body in bytes (default 1 MiB, as the stateful mock). */
  maxBody?: number;
}

export interface PrismMock {
  url: string;
  port: number;
  host: string;
  server: Server;
  close(): Promise<void>;
}

type PrismInstance = ReturnType<typeof createInstance>;

/** Starts Prism on `port` (0 picks a free one) and resolves once it listens. */
export async function startPrismMock(options: PrismMockOptions = {}): Promise<PrismMock> {
  const contract = options.contract ?? (await readContract(options.spec));
  const config: IHttpConfig = {
    // The edge judges credentials, by the stateful mock's rules, before the body and the parameters (./credentials.ts).
    checkSecurity: false,
    validateRequest: true,
    validateResponse: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    mock: { dynamic: options.dynamic ?? false },
  };
  const logger = createLogger('PRISM', { level: options.logLevel ?? 'silent' });
  const operations = await loadPrismOperations(contract, (message) => logger.warn(message));
  const prism = createInstance(config, { logger });
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const errors = new ErrorAnswers(contract);
  const parameters = new ParameterGate(contract);
  const credentials = new CredentialGate(contract);
  const cors = specCorsGrant(contract);
  const routing = new PrismRouting(contract, operations);

  const server = createServer((req, res) => {
    answer(req, res, { prism, routing, config, maxBody, contract, errors, parameters, credentials, cors }).catch((error: unknown) => {
      logger.error({ err: error }, 'unexpected failure');
      if (res.headersSent) res.destroy();
      else {
        const path = new URL(req.url ?? '/', 'http://prism.invalid').pathname;
        send(res, reject('INTERNAL', { kind: failureKind(error) }), path, errors.operationAt((req.method ?? 'GET').toUpperCase(), path), errors);
      }
    });
  });
  const { url, port, host } = await listen(server, options.port ?? DEFAULT_PRISM_PORT, options.host ?? DEFAULT_HOST);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }));
  return { url, port, host, server, close };
}

interface PrismContext {
  contract: CompiledContract;
  prism: PrismInstance;
  /** What Prism's router is given per request (./routing.ts). */
  routing: PrismRouting;
  config: IHttpConfig;
  maxBody: number;
  /** The edge's own rejections in the shapes the spec declares. */
  errors: ErrorAnswers;
  /** The edge's own judge of parameters, before Prism's. */
  parameters: ParameterGate;
  /** The stateful mock's judge of credentials, first of all. */
  credentials: CredentialGate;
  /** The headers a page may send and read: ours and the spec's, as the stateful mock allows them. */
  cors: CorsGrant;
}

async function answer(req: IncomingMessage, res: ServerResponse, context: PrismContext): Promise<void> {
  applyCors(req, res, { origins: undefined }, context.cors);
  // As the stateful mock answers it (engine/handlers.ts): OPTIONS at a path the spec declares, and
  // that declares no OPTIONS of its own, is 204 with what it allows, a CORS preflight or not; at a
  // path the spec does not declare it goes on to Prism's 404.
  if (req.method === 'OPTIONS') {
    const declared = declaredAt(context.contract, req.url ?? '/');
    if (declared.length > 0 && !declared.includes('OPTIONS')) {
      for (const [name, value] of Object.entries(preflightHeaders([...declared, 'OPTIONS'].join(', '), context.cors))) res.setHeader(name, value);
      res.writeHead(204).end();
      return;
    }
  }
  // As the stateful mock answers it (engine/request-path.ts): a HEAD the spec does not declare, at a
  // path with a GET, is that GET; Node sends its headers (Content-Length included) and no body.
  const declaredHere = req.method === 'HEAD' ? declaredMethods(context.contract, req.url ?? '/') : new Set<string>();
  const method = req.method === 'HEAD' && declaredHere.has('GET') && !declaredHere.has('HEAD') ? 'GET' : (req.method ?? 'GET').toUpperCase();
  const { pathname, search, searchParams } = new URL(req.url ?? '/', 'http://prism.invalid');
  const operation = context.errors.operationAt(method, pathname);
  // The stateful mock's order: the credentials, then the body, then the parameters (engine/request-path.ts).
  const unauthorized = operation && context.credentials.refusal(operation, req, pathname);
  if (unauthorized) return send(res, unauthorized, pathname, operation, context.errors);
  const raw = await readBody(req, context.maxBody);
  if (isRejection(raw)) return send(res, raw, pathname, operation, context.errors);
  const body = requestBody(raw, req.headers['content-type']);
  if (isRejection(body)) return send(res, body, pathname, operation, context.errors);
  const unmatched = operation && body !== undefined ? patternRefusal(operation, req.headers['content-type'], body) : undefined;
  if (unmatched) return send(res, unmatched, pathname, operation, context.errors);

  // Parameters are judged exactly here, as the stateful mock judges them (./parameters.ts says why not by Prism).
  const refusal = operation && context.parameters.refusal(operation, pathname, search.slice(1), req.headers);
  if (refusal) return send(res, refusal, pathname, operation, context.errors);
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  const route = context.routing.route(pathname, operation);
  const input: IHttpRequest = {
    method: method.toLowerCase() as IHttpRequest['method'],
    url: { path: route.path, query },
    headers: req.headers as Record<string, string>,
    body,
  };
  const preferences = mockPreferences(input);
  if ('problem' in preferences) return sendProblem(res, preferences.problem);
  const requestConfig = { ...context.config, mock: { ...context.config.mock, ...definedOnly(preferences.ok) } } as IHttpConfig;

  const outcome = await context.prism.request(input, route.operations, requestConfig)();
  if (outcome._tag === 'Left') {
    // RFC 9110 §15.5.6: a 405 names the methods the target does support (Prism's own does not).
    if ((outcome.left as { status?: number }).status === 405) res.setHeader('allow', declaredAt(context.contract, req.url ?? '/').join(', '));
    return sendProblem(res, outcome.left);
  }
  const { output, validations } = outcome.right;
  // Every answer is judged by the one judge, as it goes on the wire (./answers.ts). One made up from
  // a schema that breaks it is made up again, from the schema (a static sample is the same each
  // time), a bounded number of times; one that still breaks the spec goes out with the verdict.
  let answer = wireAnswer(output);
  let verdict = operation ? judgeAnswer(operation, req.method ?? method, answer) : undefined;
  const media = declaredMedia(operation, answer);
  const dynamic = requestConfig.mock.dynamic === true;
  const again = { ...requestConfig, mock: { ...requestConfig.mock, dynamic: true } } as IHttpConfig;
  for (let attempt = 0; attempt < ANSWER_ATTEMPTS && operation && media && madeUp(media, dynamic) && verdict?.remake; attempt++) {
    const retried = await context.prism.request(input, route.operations, again)();
    if (retried._tag === 'Left' || retried.right.output.statusCode !== output.statusCode) break;
    const remade = wireAnswer(retried.right.output);
    const judged = judgeAnswer(operation, req.method ?? method, remade);
    if (judged.violations.some((violation) => violation.code === 'UPSTREAM_INVALID_BODY')) continue;
    answer = remade;
    verdict = judged;
  }
  // Prism's verdict on the request, the one judge's on the answer (Prism's own check of its answer judges by its copy of the schemas).
  const violations = validations.input.map((v) => v.message).concat(verdict?.words ?? []);
  if (violations.length) res.setHeader('sl-violations', JSON.stringify(violations).slice(0, 8000));
  sendAnswer(res, answer);
}

/**
 * The body as Prism should see it: a JSON body parsed with exact int64 decisions, any other
 * body as text (Prism then answers 415 from the spec), none when empty.
 */
function requestBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  if (contentType === undefined || !isJsonMediaType(contentType)) return raw.toString('utf8');
  let text: string;
  try {
    // JSON is UTF-8 (RFC 8259 §8.1): bytes that are not are refused, as the stateful mock refuses them, not read as U+FFFD.
    text = UTF8.decode(raw);
  } catch {
    return reject('INVALID_ENCODING');
  }
  try {
    // Repeated names are refused as the stateful mock refuses them (RFC 8259 §4 leaves the reading to each parser).
    return parseExactJson(text, undefined, { refuseDuplicateNames: true });
  } catch (error) {
    if (error instanceof DuplicateMemberName) return reject('DUPLICATE_MEMBER_NAME', { member: error.member, pointer: error.pointer, problems: [error.message], fields: [error.pointer] });
    return reject('MALFORMED_JSON', { detail: (error as Error).message });
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The 400 a JSON body earns when the spec's validator refuses it for what Prism no longer judges, or
 * undefined: a string its `pattern` does not match, a property under `patternProperties`, or a key
 * left to `additionalProperties`/`unevaluatedProperties` beside them. Judged here in linear time
 * (openapi/schema/patterns.ts) because Prism is given the body schemas without those (./operations.ts): its V8
 * RegExp backtracks, and a spec's `^(a+)+$` against a short string or key held the process for
 * seconds to minutes (docs/benchmarks.md, "Figures behind the code"). A body refused for anything
 * else goes on to Prism's own verdict.
 */
function patternRefusal(operation: ContractOperation, contentType: string | undefined, body: unknown): Rejection | undefined {
  const content = operation.requestBody?.content;
  if (!content || !contentType || typeof body === 'string') return undefined;
  const key = matchingMedia(content.keys(), contentType);
  const media = key === undefined ? undefined : content.get(key);
  const validate = media?.validate;
  if (!validate || validate(body) || !validate.errors?.some(judgedByPattern)) return undefined;
  const { sentences, more, fields } = describeProblems(validate.errors, { root: body });
  return reject('INVALID_REQUEST_BODY', { schema: refName(media?.schema) ?? 'request body', problems: sentences, more, fields });
}

/** Whether Ajv's `error` is one Prism cannot see, its schema having lost patterns (./operations.ts `withoutPatterns`). */
function judgedByPattern(error: ErrorObject): boolean {
  if (error.keyword === 'pattern' || error.schemaPath.includes('/patternProperties/')) return true;
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  return (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') && parent?.patternProperties !== undefined;
}

/** The methods the spec's operations take at the path of `url`. */
function declaredMethods(contract: CompiledContract, url: string): Set<string> {
  const path = new URL(url, 'http://prism.invalid').pathname;
  const methods = new Set<string>();
  for (const operation of contract.operations.values()) {
    if (pathTemplatePattern(operation.path).test(path)) methods.add(operation.method.toUpperCase());
  }
  return methods;
}

/** What the path of `url` allows, for Allow: the declared methods, HEAD after GET. */
function declaredAt(contract: CompiledContract, url: string): string[] {
  const methods = declaredMethods(contract, url);
  // HEAD after GET, as the stateful mock's Allow lists it (a GET answers it).
  const listed: string[] = [];
  for (const method of methods) {
    if (method !== 'HEAD') listed.push(method);
    if (method === 'GET' || (method === 'HEAD' && !methods.has('GET'))) listed.push('HEAD');
  }
  return listed;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function sendAnswer(res: ServerResponse, answer: WireAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.statusCode = answer.status;
  res.end(answer.body);
}

function sendProblem(res: ServerResponse, error: Error & { status?: number; additional?: { headers?: Record<string, string> } }): void {
  for (const [name, value] of Object.entries(error.additional?.headers ?? {})) res.setHeader(name, value);
  const problem = ProblemJsonError.toProblemJson(error);
  res.writeHead(error.status ?? 500, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify(problem));
}

/** The edge's rejection, in the shape the spec declares for the operation the request was going to (at `path` when none). */
function send(res: ServerResponse, rejection: Rejection, path: string, operation: ContractOperation | undefined, errors: ErrorAnswers): void {
  const answer = errors.answer(rejection, operation ? { operation } : { path });
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  const body = answer.body ?? '';
  if (answer.body !== undefined) res.setHeader('content-type', answer.headers?.['content-type'] ?? 'application/json');
  res.writeHead(rejection.status, { 'content-length': Buffer.byteLength(body) });
  res.end(body);
  if (rejection.headers?.connection === 'close') res.once('finish', () => res.socket?.destroySoon());
}
