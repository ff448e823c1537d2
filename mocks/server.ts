/**
 * The stateful mock: the HTTP edge. `handleRequest` is the whole request path in one place —
 * route, auth, media type, size, parse, schema, forced response, duplicate, store — and every
 * rule it applies lives in a plain function of its own module.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { handleAdminRequest, isAdminPath, isQuietAdminRead } from './admin.js';
import { rejected, type Answer } from './answer.js';
import { listen } from './listen.js';
import { checkBearer } from './auth.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { errorBody, forcedRejection, isRejection, reject, REALM, type Rejection } from './errors.js';
import { RequestJournal } from './journal.js';
import { createLogger, requestLogger } from './logger.js';
import { parseNewPlant } from './new-plant.js';
import { MemoryPlantStore, StorageFailure, type PlantStore, type StoredPlant } from './plant-store.js';
import { parsePrefer, type Preferences } from './prefer.js';
import { checkJsonMediaType, readBody, takeBufferedBody } from './request-body.js';
import { loadSpecEngine, type SpecEngine } from './spec-engine.js';

export interface MockOptions {
  port?: number;
  host?: string;
  spec?: string;
  /** Accepted bearer tokens; empty or undefined accepts any non-empty token. */
  tokens?: readonly string[];
  /** When set, /__mock routes (but health) require this bearer token. */
  adminToken?: string;
  /** Largest accepted body in bytes (default 1 MiB). */
  maxBody?: number;
  /** Plants to start with (validated like POST /plants). */
  seed?: readonly StoredPlant[];
  /** Allowed CORS origins; undefined or empty allows any. */
  corsOrigins?: readonly string[];
  logLevel?: string;
  logger?: Logger;
  /** The store; an in-memory one by default. */
  store?: PlantStore;
  journalSize?: number;
}

export interface MockServer {
  url: string;
  port: number;
  host: string;
  store: PlantStore;
  journal: RequestJournal;
  server: Server;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish (cutting Prefer delays short), then resolves. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_MAX_BODY = 1024 * 1024;

export interface MockContext {
  engine: SpecEngine;
  store: PlantStore;
  journal: RequestJournal;
  options: Required<Pick<MockOptions, 'maxBody'>> & MockOptions;
  tokens: ReadonlySet<string> | undefined;
  /** The admin token as a one-entry allow-list; undefined leaves the admin routes open. */
  adminTokens: ReadonlySet<string> | undefined;
}

export async function createMockServer(options: MockOptions = {}): Promise<MockServer> {
  const engine = await loadSpecEngine(options.spec);
  const logger = options.logger ?? createLogger(options.logLevel ?? 'info');
  const store: PlantStore = options.store ?? new MemoryPlantStore();
  const journal = new RequestJournal(options.journalSize);
  const context: MockContext = {
    engine,
    store,
    journal,
    options: { ...options, maxBody: options.maxBody ?? DEFAULT_MAX_BODY },
    tokens: options.tokens?.length ? new Set(options.tokens) : undefined,
    adminTokens: options.adminToken ? new Set([options.adminToken]) : undefined,
  };
  if (options.seed?.length) {
    const outcome = await store.seedPlants(options.seed);
    if ('duplicates' in outcome) throw new Error(`The seed repeats ids already stored: ${outcome.duplicates.join(', ')}`);
  }
  const cors = { origins: options.corsOrigins?.length ? new Set(options.corsOrigins) : undefined };
  const logRequest = requestLogger(logger);
  const delays = new Set<() => void>();
  let closing: Promise<void> | undefined;

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    // Decide once every request that was ready has been read (see afterReads): the answers of a
    // loop turn then leave together, and a body that came with its headers is already buffered.
    await afterReads();
    let answer: Answer;
    try {
      answer = await handleRequest(req, context);
    } catch (error) {
      if (!res.socket || res.socket.destroyed) return; // the client went away mid-request: nobody to answer
      logger.error({ err: error, method: req.method, url: req.url }, 'unexpected failure');
      const detail = (error as Error)?.message ?? String(error);
      answer = rejected(error instanceof StorageFailure ? reject('STORAGE_FAILED', { detail }) : reject('INTERNAL', { detail }));
    }
    if (answer.delayMs) await sleep(answer.delayMs, delays);
    // While shutting down, answer in-flight requests but keep no connection alive.
    if (closing) res.setHeader('connection', 'close');
    respond(res, answer, corsHeaders(req.headers.origin, cors));
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const path = pathOf(req.url);
    const rejection = answer.rejection;
    const quiet = isQuietAdminRead(req.method ?? '', path, answer.status);
    if (!quiet) {
      journal.record({
        time: Date.now(),
        method: req.method ?? '',
        path,
        status: answer.status,
        durationMs,
        code: rejection?.code,
        message: rejection?.message,
        problems: rejection?.problems,
      });
    }
    logRequest({ method: req.method ?? '', path, status: answer.status, ms: durationMs, code: rejection?.code }, quiet);
  };
  const server = createServer({ requestTimeout: 60_000 }, (req, res) => {
    serve(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'could not send answer');
      res.destroy();
    });
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));

  const { url, port, host } = await listen(server, options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST);

  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const finish of delays) finish();
      server.closeIdleConnections();
    }).then(async () => {
      await store.close?.();
    }));

  return { url, port, host, store, journal, server, logger, close };
}

/** Decides the answer to one request. */
export async function handleRequest(req: IncomingMessage, context: MockContext): Promise<Answer> {
  const method = req.method ?? 'GET';
  const path = pathOf(req.url);
  if (isAdminPath(path)) return handleAdminRequest(req, method, path, context);

  const route = context.engine.route(method, path);
  if (route.kind === 'not-found') return rejected(reject('ROUTE_NOT_FOUND', { method, path }));
  if (route.kind === 'method-not-allowed') {
    if (method === 'OPTIONS') return { status: 204, headers: preflightHeaders(route.allow) };
    return rejected(reject('METHOD_NOT_ALLOWED', { method, path, allow: route.allow }));
  }

  // Prefer: delay applies to every answer, rejections included.
  const prefer = parsePrefer(req.headers.prefer as string | undefined);
  const delayed = (answer: Answer): Answer =>
    prefer.delayMs ? { ...answer, delayMs: prefer.delayMs } : answer;

  const token = checkBearer(req.headers.authorization, { realm: REALM, tokens: context.tokens });
  if (isRejection(token)) return delayed(rejected(token));
  const mediaTypeProblem = checkJsonMediaType(req.headers['content-type']);
  if (mediaTypeProblem) return delayed(rejected(mediaTypeProblem));
  const body = takeBufferedBody(req, context.options.maxBody) ?? (await readBody(req, context.options.maxBody));
  if (isRejection(body)) return delayed(rejected(body));
  const plant = parseNewPlant(body, context.engine.validateNewPlant);
  if (isRejection(plant)) return delayed(rejected(plant));

  if (prefer.problem !== undefined) return rejected(reject('INVALID_PREFER', { problem: prefer.problem }));
  if (prefer.code !== undefined) return delayed(forcedAnswer(prefer, context));

  // The in-memory store answers synchronously: no await, no extra microtask per create.
  const created = context.store.createPlant(plant);
  const outcome = typeof created === 'string' ? created : await created;
  if (outcome === 'duplicate') return delayed(rejected(reject('DUPLICATE_ID', { ids: [plant.id.toString()] })));
  return delayed({ status: 200, body: plantBody(plant, context.engine.plantFields) });
}

/** The answer to `Prefer: code=N` once the request itself is sound: an example, nothing stored. */
function forcedAnswer(prefer: Preferences, context: MockContext): Answer {
  const code = prefer.code as number;
  const applied = { 'preference-applied': `code=${code}` };
  if (code === 200) return { status: 200, body: JSON.stringify(context.engine.plantExample), headers: applied };
  const rejection = forcedRejection(code);
  return { ...rejected(rejection), headers: { ...rejection.headers, ...applied } };
}

/** A 200 body: exactly the fields the spec's Plant declares. */
function plantBody(plant: StoredPlant, fields: readonly string[]): string {
  // Written field by field: the same JSON as stringifying a fresh object, without building one.
  let body = '';
  for (const field of fields) {
    const value = (plant as unknown as Record<string, unknown>)[field];
    if (value !== undefined) body += `${body ? ',' : '{'}${JSON.stringify(field)}:${JSON.stringify(value)}`;
  }
  return body ? `${body}}` : '{}';
}

function respond(res: ServerResponse, answer: Answer, cors: Readonly<Record<string, string>>): void {
  // One writeHead with every header: each setHeader before it costs more than the answer's JSON.
  const headers: Record<string, string | number> = answer.headers ? { ...cors, ...answer.headers } : { ...cors };
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  headers['content-type'] = answer.headers?.['content-type'] ?? 'application/json';
  headers['content-length'] = Buffer.byteLength(answer.body);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
  // A body we refused to read is not drained: close instead of reading it to the end.
  if (answer.headers?.connection === 'close') res.once('finish', () => res.socket?.destroySoon());
}

/** Requests Node cannot parse still get an answer in the Error shape, then the connection closes. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const rejection: Rejection =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? reject('HEADERS_TOO_LARGE')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? reject('REQUEST_TIMEOUT')
        : reject('MALFORMED_HTTP', { detail: error.code ?? error.message });
  const body = errorBody(rejection);
  socket.end(
    `HTTP/1.1 ${rejection.status} ${STATUS_CODES[rejection.status]}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Resolves in the event loop's check phase, after the poll phase has read every socket that was
 * ready. Answers then leave together instead of one per read: under load the bench measured about
 * a third more requests per second, and a quiet mock answers in the same loop turn as before.
 */
function afterReads(): Promise<void> {
  return new Promise((resolve) => {
    if (readsDone.push(resolve) === 1) setImmediate(releaseAnswers);
  });
}
/** Answers waiting for the check phase; one setImmediate releases them all. */
let readsDone: (() => void)[] = [];
function releaseAnswers(): void {
  const waiting = readsDone;
  readsDone = [];
  for (const resolve of waiting) resolve();
}

function sleep(ms: number, pending: Set<() => void>): Promise<void> {
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      pending.delete(finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    pending.add(finish);
  });
}
