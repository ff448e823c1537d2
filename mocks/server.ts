/**
 * The stateful mock: wires the spec engine, the store, the journal and the admin routes to one
 * HTTP server. This module is the edge: it reads a request, hands it to the request path
 * (engine/request-path.ts) or the admin routes, and writes, journals and logs the answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { MemoryJournal, type RequestJournal } from './admin/journal.js';
import { credentialPlaces, DEFAULT_EXCHANGE_BOUNDS, recordExchange, type JournalPolicy } from './admin/exchange.js';
import { handleAdminRequest, isAdminPath, isQuietAdminRead } from './admin/routes.js';
import type { MockContext } from './engine/context.js';
import { handleRequest } from './engine/request-path.js';
import { seedRecords } from './engine/body.js';
import { loadEngine, type Engine, type EngineOptions } from './engine/engine.js';
import { duplicatesOf } from './admin/routes.js';
import { isRejection, reject } from './errors.js';
import { rejected, type Answer } from './http/answer.js';
import { corsHeaders } from './http/cors.js';
import { DEFAULT_HOST, listen } from './http/listen.js';
import { createLogger, requestLogger } from './http/logger.js';
import { LoopTurn } from './http/loop-turn.js';
import { DEFAULT_MAX_BODY } from './http/request-body.js';
import { answerClientError, pathOf, respond } from './http/respond.js';
import { respondStream } from './http/stream.js';
import { MemoryStore } from './stores/memory.js';
import { StorageFailure, StoreUnavailable, type ResourceStore } from './stores/store.js';

export { DEFAULT_HOST } from './http/listen.js';
export { DEFAULT_MAX_BODY } from './http/request-body.js';

export interface MockOptions {
  port?: number;
  host?: string;
  spec?: string;
  /** Accepted credentials for the spec's security scheme; empty or undefined accepts any well-formed one. */
  tokens?: readonly string[];
  /** The property that identifies a record (default `id`). */
  identity?: string;
  /** operationIds answered from the spec's examples even where the mock could serve them from the store; 'all' for every one. */
  stateless?: readonly string[] | 'all';
  /** Reload the spec when its file changes, keeping the store (`prism mock --watch`). */
  watch?: boolean;
  /** When set, /__mock routes (but health) require this bearer token. */
  adminToken?: string;
  /** Largest accepted body in bytes (default 1 MiB). */
  maxBody?: number;
  /** Records to start with: a parsed JSON array of create bodies, validated like the admin seed. */
  seed?: unknown;
  /** Apply the seed only to an empty store (a state file that already holds records wins). */
  seedOnlyIfEmpty?: boolean;
  /** Allowed CORS origins; undefined or empty allows any. */
  corsOrigins?: readonly string[];
  logLevel?: string;
  logger?: Logger;
  /** The store; an in-memory one by default. */
  store?: ResourceStore;
  /** The request journal; an in-memory one (bounded by journalSize entries and journalBytes bytes) by default. */
  journal?: RequestJournal;
  journalSize?: number;
  journalBytes?: number;
}

export interface MockServer {
  url: string;
  port: number;
  host: string;
  store: ResourceStore;
  journal: RequestJournal;
  /** The engine of the spec being served (replaced on --watch). */
  readonly engine: Engine;
  server: Server;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish (cutting Prefer delays short), then resolves. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;

export async function createMockServer(options: MockOptions = {}): Promise<MockServer> {
  const engine = await loadEngine(engineOptions(options));
  const logger = options.logger ?? createLogger(options.logLevel ?? 'info');
  for (const scheme of engine.unchecked) logger.warn({ scheme }, `the security scheme ${scheme} cannot be checked by the mock; requests are not refused for it`);
  const store: ResourceStore = options.store ?? new MemoryStore();
  const journal = options.journal ?? new MemoryJournal({ maxEntries: options.journalSize, maxBytes: options.journalBytes });
  const context: MockContext = {
    engine,
    store,
    journal,
    maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
    adminTokens: options.adminToken ? new Set([options.adminToken]) : undefined,
  };
  if (options.seed !== undefined) await applySeed(options.seed, context, options.seedOnlyIfEmpty ?? false, logger);
  const cors = { origins: options.corsOrigins?.length ? new Set(options.corsOrigins) : undefined };
  const logRequest = requestLogger(logger);
  const delays = new Set<() => void>();
  // Streamed listings in flight: a read, so shutting down cuts them rather than waiting for slow readers.
  const streams = new Set<ServerResponse>();
  const streamed = async (res: ServerResponse, answer: Parameters<typeof respondStream>[1], corsFor: Readonly<Record<string, string>>) => {
    streams.add(res);
    try {
      return await respondStream(res, answer, corsFor);
    } finally {
      streams.delete(res);
    }
  };
  let closing: Promise<void> | undefined;
  const loopTurn = new LoopTurn();
  // What the journal masks follows the spec being served (--watch may change its schemes).
  const secrets = [...(options.adminToken ? [options.adminToken] : []), ...(options.tokens ?? [])];
  let journalPolicy: { engine: Engine; policy: JournalPolicy } | undefined;
  const policyOf = (engine: Engine): JournalPolicy => {
    if (journalPolicy?.engine !== engine) {
      journalPolicy = { engine, policy: { ...DEFAULT_EXCHANGE_BOUNDS, credentials: credentialPlaces(engine.contract.securitySchemes.values(), secrets) } };
    }
    return journalPolicy.policy;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const arrived = Date.now();
    // Decide once every request that was ready has been read (see LoopTurn): the answers of a
    // loop turn then leave together, and a body that came with its headers is already buffered.
    await loopTurn.afterReads();
    const path = pathOf(req.url);
    let answer: Answer;
    try {
      answer = isAdminPath(path) ? await handleAdminRequest(req, req.method ?? 'GET', path, context) : await handleRequest(req, path, context);
    } catch (error) {
      if (!res.socket || res.socket.destroyed) return; // the client went away mid-request: nobody to answer
      logger.error({ err: error, method: req.method, url: req.url }, 'unexpected failure');
      const detail = (error as Error)?.message ?? String(error);
      answer = rejected(
        error instanceof StoreUnavailable
          ? reject('STORE_UNAVAILABLE', { detail })
          : error instanceof StorageFailure
            ? reject('STORAGE_FAILED', { detail })
            : reject('INTERNAL', { detail }),
      );
    }
    if (answer.delayMs) await sleep(answer.delayMs, delays);
    // While shutting down, answer in-flight requests but keep no connection alive.
    if (closing) res.setHeader('connection', 'close');
    const corsFor = corsHeaders(req.headers.origin, cors);
    const responseHeaders = answer.stream ? await streamed(res, { ...answer, stream: answer.stream }, corsFor) : respond(res, answer, corsFor);
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const rejection = answer.rejection;
    const quiet = isQuietAdminRead(req.method ?? '', path, answer.status);
    if (!quiet) {
      const exchange = { req, requestBody: answer.requestBody, answer, responseHeaders, time: arrived, durationMs };
      recordExchange(journal, exchange, policyOf(context.engine));
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
      for (const res of streams) res.destroy();
      server.closeIdleConnections();
    }).then(async () => {
      await store.close?.();
    }));

  return {
    url,
    port,
    host,
    store,
    journal,
    get engine() {
      return context.engine;
    },
    server,
    logger,
    close,
  };
}

/** What the engine needs of the mock's options. */
export function engineOptions(options: Pick<MockOptions, 'spec' | 'tokens' | 'identity' | 'stateless'>): EngineOptions {
  return {
    spec: options.spec,
    tokens: options.tokens?.length ? new Set(options.tokens) : undefined,
    identity: options.identity,
    stateless: options.stateless === 'all' ? 'all' : new Set(options.stateless ?? []),
  };
}

/** A seed that cannot be applied; the message names each problem. */
export class SeedError extends Error {
  override name = 'SeedError';
}

/** Seeds the primary collection with a parsed JSON array of create bodies; throws SeedError naming each problem. */
async function applySeed(value: unknown, context: MockContext, onlyIfEmpty: boolean, logger: Logger): Promise<void> {
  const collection = context.engine.primary;
  if (!collection) throw new SeedError('The spec declares no collection the mock can store records in, so there is nothing to seed.');
  const records = seedRecords(value, collection);
  if (isRejection(records)) throw new SeedError(records.message);
  if (!records.length) return;
  const stored = await context.store.count(collection.path);
  // The seed is where an empty sandbox starts; once the store holds records they win.
  if (onlyIfEmpty && stored > 0) {
    logger.info({ collection: collection.path, records: stored }, 'the store already holds records: the seed is not applied');
    return;
  }
  const outcome = await context.store.seed(collection.path, records);
  if ('duplicates' in outcome) throw new SeedError(duplicatesOf(outcome.duplicates, collection).message);
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
