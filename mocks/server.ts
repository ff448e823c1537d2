/**
 * The stateful mock: wires the spec engine, the store, the journal and the admin routes to one
 * HTTP server. This module is the edge: it reads a request, hands it to the request path
 * (engine/request-path.ts) or the admin routes, and writes, journals and logs the answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { MemoryJournal, type RequestJournal } from './admin/journal.js';
import { JournalWaits } from './admin/journal-wait.js';
import { credentialPlaces, DEFAULT_EXCHANGE_BOUNDS, recordExchange, Repeats, type JournalPolicy } from './admin/exchange.js';
import type { CaseRecorder, RecordOptions } from './admin/recorder.js';
import { handleAdminRequest, isAdminPath, isOpenAdminPath, isQuietAdminRead } from './admin/routes.js';
import type { MockContext } from './admin/context.js';
import { handleRequest } from './engine/request-path.js';
import { seedRecords, storeSeed } from './engine/seed.js';
import { loadEngine, type Engine, type EngineOptions } from './engine/engine.js';
import { watchSpec } from './engine/watch.js';
import { SPEC_PATH } from '../openapi/plant-store.js';
import type { IdentityOverrides } from '../openapi/operations/collections.js';
import type { CompiledContract } from '../openapi/operations/model.js';
import { duplicatesOf } from './admin/routes.js';
import { failureKind, isRejection, reject, type Rejection } from './errors.js';
import { rejected, type Answer } from './http/answer.js';
import { HostPolicy, requestedHost, type AllowedHosts } from './http/allowed-hosts.js';
import { Connections, DEFAULT_MAX_CONNECTIONS } from './http/connections.js';
import { ADMIN_GRANT, adminCorsPolicy, corsHeaders, refusedAdminOrigin, type CorsPolicy } from './http/cors.js';
import { DEFAULT_HOST, listen } from './http/listen.js';
import { queryNamesOnly } from './http/credentials.js';
import { createLogger, requestLogger } from './http/logger.js';
import { LoopTurn } from './http/loop-turn.js';
import type { ScanBound } from './engine/scan-bound.js';
import { unkeptMessage, unkeptRecords } from './engine/kept-records.js';
import { continueWhenRead, DEFAULT_MAX_BODY } from './http/request-body.js';
import { clientErrorAnswer, pathOf, rawAnswer, respond } from './http/respond.js';
import { respondStream, StreamShare } from './http/stream.js';
import type { ProxyOptions } from './proxy/proxy.js';
import { MemoryStore } from './stores/memory.js';
import { ParsedTextCache } from '../openapi/document/parsed-text-cache.js';
import { StorageFailure, StoreUnavailable, type ResourceStore } from './stores/store.js';

export { DEFAULT_HOST } from './http/listen.js';
export { DEFAULT_MAX_BODY } from './http/request-body.js';
export { DEFAULT_MAX_CONNECTIONS } from './http/connections.js';

export interface MockOptions {
  port?: number;
  host?: string;
  spec?: string;
  /**
   * The spec already read and compiled (readContract), served instead of reading `spec` again: for a
   * caller that holds it, such as a test handing the same model to the contract suite (its validators
   * are then compiled once for both). Not with `watch`, which reads the file.
   */
  contract?: CompiledContract;
  /** Accepted credentials for the spec's security scheme; empty or undefined accepts any well-formed one. */
  tokens?: readonly string[];
  /** OpenAPI Overlay 1.0 documents applied to the spec in order (`--overlay`): the `x-mock-*` extensions without editing the spec. */
  overlays?: readonly string[];
  /** Identity overrides (`--identity`): a property for every collection declaring it, or per collection path; else the item path's parameter decides. */
  identity?: string | IdentityOverrides;
  /** operationIds answered from the spec's examples even where the mock could serve them from the store; 'all' for every one. */
  stateless?: readonly string[] | 'all';
  /** Reload the spec when its file changes, keeping the store (`prism mock --watch`). */
  watch?: boolean;
  /** The directory keeping the spec's parsed value between starts (`npm start` keeps one: openapi/document/parsed-text-cache.ts); none when undefined. */
  parsedCache?: string;
  /** When set, /__mock routes (but health) require this bearer token. */
  adminToken?: string;
  /** Largest accepted body in bytes (default 1 MiB). */
  maxBody?: number;
  /** Records to start with: a parsed JSON array of create bodies, validated like the admin seed. */
  seed?: unknown;
  /** Apply the seed only to an empty store (a state file that already holds records wins). */
  seedOnlyIfEmpty?: boolean;
  /**
   * Allowed CORS origins; undefined or empty allows any on the API's routes. The admin routes
   * answer only these origins (and their own), none when undefined or empty.
   */
  corsOrigins?: readonly string[];
  /**
   * Host names answered besides the listening address and loopback names (`.example.test`: the
   * domain and its subdomains); `all` answers any Host (no DNS-rebinding protection).
   */
  allowedHosts?: AllowedHosts;
  logLevel?: string;
  logger?: Logger;
  /** `--max-connections`: open connections at most; beyond it the oldest idle one is closed (default DEFAULT_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** `--mask-name`: header and query parameter names masked in the journal besides the common ones and the spec's API keys. */
  maskNames?: string[];
  /** Which process answers, when several replicas share a store (default `hostname:pid`). */
  replica?: string;
  /** The store; an in-memory one by default. */
  store?: ResourceStore;
  /** Proxy mode: forward to this upstream, judging both directions against the spec; the store is not used. */
  proxy?: ProxyOptions;
  /** The request journal; an in-memory one (bounded by journalSize entries and journalBytes bytes) by default. */
  journal?: RequestJournal;
  journalSize?: number;
  journalBytes?: number;
  /** `--record DIR`: every distinct exchange written as a contract case to a file of this run in DIR. */
  record?: RecordOptions;
  /** `--self-check`: judge the mock's own answers against the spec (./self-check.ts). */
  selfCheck?: boolean;
  /** How many records a filtered list reads per event-loop turn (engine/scan-bound.ts); a test sets it small. */
  scan?: ScanBound;
  /** What this server's streamed answers make per loop turn, all together (http/stream.ts); a test sets it small and counts. */
  streamShare?: StreamShare;
  /**
   * A state file kept from a run on another spec: its records this spec cannot serve refuse the start
   * (naming a few), or are dropped with `discard` (engine/kept-records.ts).
   */
  unkept?: { file: string; discard: boolean };
}

export interface MockServer {
  url: string;
  port: number;
  host: string;
  store: ResourceStore;
  journal: RequestJournal;
  /** The journal's long polls waiting now (admin/journal-wait.ts). */
  waits: JournalWaits;
  /** The engine of the spec being served (replaced on --watch). */
  readonly engine: Engine;
  server: Server;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish (cutting Prefer delays short), then resolves. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;

/**
 * The proxy's gateway credentials (`--proxy http://user:password@host/`) in every form an upstream
 * may echo them: the mock sends them as Basic, so an upstream that quotes the Authorization it got
 * would otherwise put them in the journal while health shows `user:***`.
 */
function gatewaySecrets(basic: string | undefined): string[] {
  if (basic === undefined) return [];
  const password = basic.slice(basic.indexOf(':') + 1);
  return [Buffer.from(basic).toString('base64'), basic, ...(password ? [password] : [])];
}

export async function createMockServer(options: MockOptions = {}): Promise<MockServer> {
  const logger = options.logger ?? createLogger(options.logLevel ?? 'info');
  const warn = (details: Record<string, unknown>, message: string): void => logger.warn(details, message);
  if (options.contract && options.watch) throw new Error('--watch reads the spec file again: give the spec, not a compiled contract.');
  const engine = await loadEngine({ ...engineOptions(options), ...(options.contract ? { contract: options.contract } : {}), warn });
  for (const note of engine.contract.notes) logger.info({ spec: engine.contract.source }, note);
  for (const warning of engine.contract.warnings) logger.warn({ spec: engine.contract.source }, warning);
  for (const scheme of engine.unchecked) logger.warn({ scheme }, `the security scheme ${scheme} cannot be checked by the mock; requests are not refused for it`);
  if (options.proxy && (options.seed !== undefined || options.store || options.tokens?.length)) {
    throw new Error('Proxy mode keeps no records and accepts any well-formed credentials (the upstream decides): a seed, a store or tokens do not apply.');
  }
  // The proxy and the recorder are loaded only for the runs that use them (start-up: docs/benchmarks.md).
  const proxy = options.proxy ? new (await import('./proxy/proxy.js')).ValidatingProxy(options.proxy) : undefined;
  if (proxy) logger.info(proxy.describe(), `proxy mode: forwarding to ${proxy.upstream.display}${proxy.strict ? ' (strict)' : ''}; the store is not used`);
  const store: ResourceStore = options.store ?? new MemoryStore();
  const journal: RequestJournal = options.journal ?? new MemoryJournal({ maxEntries: options.journalSize, maxBytes: options.journalBytes });
  const context: MockContext = {
    engine,
    store,
    journal,
    maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
    scan: options.scan,
    replica: options.replica ?? defaultReplicaName(),
    adminTokens: options.adminToken ? new Set([options.adminToken]) : undefined,
    proxy,
    waits: new JournalWaits(),
  };
  if (options.unkept && !proxy) {
    const found = await unkeptRecords(engine.collections, store, options.unkept.discard);
    if (found.count && !options.unkept.discard) throw new Error(unkeptMessage(found, options.unkept.file));
    if (found.count) logger.warn({ records: found.count, named: found.named }, `dropped ${found.count} record(s) of ${options.unkept.file} this spec cannot serve (--discard-unkept-records)`);
  }
  if (options.seed !== undefined) await applySeed(options.seed, context, options.seedOnlyIfEmpty ?? false, logger);
  const recorder: CaseRecorder | undefined = options.record ? new (await import('./admin/recorder.js')).CaseRecorder(options.record, context, logger) : undefined;
  if (recorder) logger.info({ file: recorder.path }, `recording every distinct exchange as a contract case in ${recorder.path}`);
  const watch = options.watch
    ? watchSpec(
        options.spec ?? SPEC_PATH,
        { ...engineOptions(options), warn },
        (next) => {
          context.engine = next;
          // A page waiting on the journal reads the new spec now, not after its wait.
          context.waits.specChanged();
        },
        logger,
      )
    : undefined;
  const cors: CorsPolicy = { origins: options.corsOrigins?.length ? new Set(options.corsOrigins) : undefined };
  const adminCors = adminCorsPolicy(options.corsOrigins);
  const logRequest = requestLogger(logger);
  const delays = new Set<() => void>();
  // Streamed listings in flight: a read, so shutting down cuts them rather than waiting for slow readers.
  const streams = new Set<ServerResponse>();
  const streamShare = options.streamShare ?? new StreamShare();
  const streamed = async (res: ServerResponse, answer: Parameters<typeof respondStream>[1], corsFor: Readonly<Record<string, string>>, keep: number) => {
    streams.add(res);
    try {
      return await respondStream(res, answer, corsFor, { keep, share: streamShare });
    } finally {
      streams.delete(res);
    }
  };
  let closing: Promise<void> | undefined;
  const loopTurn = new LoopTurn();
  const connections = new Connections(options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
  let hosts: HostPolicy | undefined; // once listening: the bound address is part of it
  // What the journal masks follows the spec being served (--watch may change its schemes).
  const secrets = [...(options.adminToken ? [options.adminToken] : []), ...(options.tokens ?? []), ...gatewaySecrets(proxy?.upstream.target.basic)];
  let journalPolicy: { engine: Engine; policy: JournalPolicy } | undefined;
  const policyOf = (engine: Engine): JournalPolicy => {
    if (journalPolicy?.engine !== engine) {
      journalPolicy = {
        engine,
        policy: { ...DEFAULT_EXCHANGE_BOUNDS, credentials: credentialPlaces(engine.contract.securitySchemes.values(), secrets, options.maskNames), repeats: new Repeats() },
      };
    }
    return journalPolicy.policy;
  };

  /** What the edge refuses before any route: a Host the mock does not answer, a missing Host, a foreign origin on admin data. */
  const edgeRefusal = (req: IncomingMessage, path: string, adminData: boolean): Answer | undefined => {
    const host = requestedHost(req.url, req.headers.host);
    if (host === undefined) return req.httpVersionMinor >= 1 ? rejected(reject('MISSING_HOST')) : undefined;
    if (hosts && !hosts.allows(host)) return rejected(reject('HOST_NOT_ALLOWED', { host }));
    if (adminData) {
      const origin = refusedAdminOrigin(req.headers.origin, host, adminCors);
      if (origin !== undefined) return rejected(reject('ADMIN_ORIGIN_NOT_ALLOWED', { origin }));
    }
    return undefined;
  };

  // --self-check is loaded only for the runs that use it, as the proxy is.
  const selfCheck = options.selfCheck ? (await import('./self-check.js')).selfChecked : undefined;
  const checked = async (answer: Answer, method: string, path: string): Promise<Answer> => {
    const judged = await (selfCheck as NonNullable<typeof selfCheck>)(answer, method, context.engine.contract);
    const errors = judged.violations?.filter((violation) => violation.in === 'response' && violation.severity === 'error') ?? [];
    if (errors.length) logger.warn({ method, path, status: judged.status, violations: errors.map((violation) => violation.code) }, `self-check: ${errors[0]?.message}`);
    return judged;
  };

  /** Decides, writes, journals and logs the answer to one request; `decided` skips deciding (a refused Expect). */
  const serve = async (req: IncomingMessage, res: ServerResponse, decided?: Answer): Promise<void> => {
    const started = performance.now();
    // Its connection closes after an earlier answer: this one could never be sent, so nothing is done.
    if (!connections.taken(req, res)) return;
    const arrived = Date.now();
    // Decide once every request that was ready has been read (see LoopTurn): the answers of a
    // loop turn then leave together, and a body that came with its headers is already buffered.
    await loopTurn.afterReads();
    const path = pathOf(req.url);
    const admin = isAdminPath(path);
    const adminData = admin && !isOpenAdminPath(path);
    let answer: Answer;
    try {
      const deciding =
        edgeRefusal(req, path, adminData) ??
        decided ??
        (admin
          ? handleAdminRequest(req, req.method ?? 'GET', path, context, {
              secrets,
              trusted: refusedAdminOrigin(req.headers.origin, requestedHost(req.url, req.headers.host), adminCors) === undefined,
            })
          : proxy
            ? proxy.forward(req, path, context)
            : handleRequest(req, path, context));
      // Awaited even when decided at once: the requests of a loop turn are then all decided before
      // any answer is written, and the answers leave together; writing each as soon as it was
      // decided cost more CPU per request (docs/benchmarks.md, "Figures behind the code").
      answer = await deciding;
      if (answer.mockBug)
        logger.warn({ method: req.method, path, status: answer.status, problems: answer.mockBug }, 'mock bug: a stored record, projected to its answer, still breaks the declared schema');
      if (selfCheck && !admin) answer = await checked(answer, req.method ?? 'GET', path);
    } catch (error) {
      if (!res.socket || res.socket.destroyed) return; // the client went away mid-request: nobody to answer
      // An outage is logged once by the store (lost, back); each refused request has its own request line.
      // The query may carry a credential (access_token, an API key): only its parameters' names are logged.
      if (!(error instanceof StoreUnavailable)) logger.error({ err: error, method: req.method, path, query: loggedQuery(req.url) }, 'unexpected failure');
      const failure =
        error instanceof StoreUnavailable
          ? reject('STORE_UNAVAILABLE', { maybeApplied: error.maybeApplied })
          : error instanceof StorageFailure
            ? reject('STORAGE_FAILED', { code: error.code, backend: error.backend })
            : reject('INTERNAL', { kind: failureKind(error) });
      // The API's failures in the shape its spec declares; the admin routes' are ours.
      answer = admin ? rejected(failure) : answerAt(context.engine, failure, req.method ?? 'GET', path);
    }
    if (answer.delayMs) await sleep(answer.delayMs, delays);
    // The inspector's polling is not journaled (admin/routes.ts): nothing of its answers is kept.
    const quietRead = isQuietAdminRead(req.method ?? '', path, answer.status, answer.rejection?.code);
    const close = connections.closesWith(req, res, answer.headers?.connection === 'close');
    // Health and the inspector's page are readable from any page (health tells a foreign one only its status).
    const corsFor = adminData ? corsHeaders(req.headers.origin, adminCors, ADMIN_GRANT) : corsHeaders(req.headers.origin, cors, admin ? undefined : context.engine.cors);
    let responseHeaders: Readonly<Record<string, string | number>>;
    let responseBody: Buffer | undefined;
    let responseBytes: number | undefined;
    if (answer.send) {
      // Proxy mode: the upstream's answer, written by the proxy; the journal gets what it wrote.
      const sent = await answer.send(res, close ? { ...corsFor, connection: 'close' } : corsFor);
      responseHeaders = sent.headers;
      responseBody = sent.body;
    } else if (answer.stream) {
      // The journal keeps the start of a streamed body: as much as its bound, and the bytes after it to cut at a character.
      const sent = await streamed(res, { ...answer, stream: answer.stream }, close ? { ...corsFor, connection: 'close' } : corsFor, quietRead ? 0 : policyOf(context.engine).bodyBytes + 4);
      responseHeaders = sent.headers;
      responseBody = sent.start;
      responseBytes = sent.bytes;
    } else {
      responseHeaders = respond(res, answer, corsFor, close);
    }
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    // The journal entry and the log line wait for the other answers of this loop turn: those are
    // then written back to back, which costs less CPU per request than writing each between the
    // journaling of the others (docs/benchmarks.md, "Figures behind the code"). Both are done
    // before the loop reads anything new, so a client that asks the journal next still finds it.
    await Promise.resolve();
    const rejection = answer.rejection;
    if (!quietRead) {
      const exchange = { req, path, requestBody: answer.requestBody, answer, responseHeaders, responseBody, responseBytes, time: arrived, durationMs };
      const policy = policyOf(context.engine);
      const record = recordExchange(journal, exchange, policy);
      if (recorder && record && !admin) recorder.record(record, req, policy);
    }
    const reason = rejection && answer.body === undefined ? rejection.message : undefined;
    logRequest({ method: req.method ?? '', path, status: answer.status, ms: durationMs, code: rejection?.code, ...(reason === undefined ? {} : { reason }) }, quietRead);
  };
  const handle = (req: IncomingMessage, res: ServerResponse, decided?: Answer): void => {
    serve(req, res, decided).catch((error: unknown) => {
      logger.error({ err: error }, 'could not send answer');
      res.destroy();
    });
  };
  // Host is checked by the edge, which answers its absence in the Error shape and with CORS.
  const server = createServer({ requestTimeout: 60_000, requireHostHeader: false }, handle);

  server.on('connection', (socket: Socket) => connections.opened(socket));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => connections.refuse(socket, clientErrorAnswer(error)));
  // Expect: 100-continue: the 100 goes out only once the body is read, never before a refusal.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueWhenRead(req, res);
    handle(req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => handle(req, res, rejected(reject('EXPECTATION_FAILED', { expect: String(req.headers.expect) }))));
  // The mock is not a proxy; Node would close a CONNECT without a word.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const rejection = reject('CONNECT_NOT_SUPPORTED');
    socket.on('error', () => socket.destroy());
    socket.end(rawAnswer(rejection, corsHeaders(req.headers.origin, cors)));
    recordExchange(journal, { req, path: pathOf(req.url), requestBody: undefined, answer: rejected(rejection), responseHeaders: {}, time: Date.now(), durationMs: 0 }, policyOf(context.engine));
    logRequest({ method: 'CONNECT', path: pathOf(req.url), status: rejection.status, ms: 0, code: rejection.code }, false);
  });

  const { url, port, host } = await listen(server, options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST);
  hosts = new HostPolicy(host, options.host ?? DEFAULT_HOST, options.allowedHosts);

  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      watch?.close();
      server.close(() => resolve());
      connections.shutDown();
      for (const finish of delays) finish();
      context.waits.close();
      for (const res of streams) res.destroy();
      server.closeIdleConnections();
    }).then(async () => {
      proxy?.close();
      await recorder?.close();
      await store.close?.();
      await journal.close?.();
      // Its last lines leave with it rather than after the logger's wait.
      logger.flush();
    }));

  return {
    url,
    port,
    host,
    store,
    journal,
    waits: context.waits,
    get engine() {
      return context.engine;
    },
    server,
    logger,
    close,
  };
}

/** A rejection of the API's routes, in the shape the spec declares where the request was going. */
function answerAt(engine: Engine, rejection: Rejection, method: string, path: string): Answer {
  const found = engine.routes.route(method, path);
  return engine.errors.answer(rejection, found.kind === 'operation' ? { operation: found.operation.contract } : { path });
}

/** The name a replica goes by unless told: unique per host and process. */
export function defaultReplicaName(): string {
  return `${hostname()}:${process.pid}`;
}

/** What the engine needs of the mock's options. */
export function engineOptions(options: Pick<MockOptions, 'spec' | 'overlays' | 'tokens' | 'identity' | 'stateless' | 'parsedCache'>): EngineOptions {
  return {
    spec: options.spec,
    ...(options.parsedCache === undefined ? {} : { parsedCache: new ParsedTextCache(options.parsedCache) }),
    ...(options.overlays?.length ? { overlays: options.overlays } : {}),
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
  const outcome = await storeSeed(context.store, context.engine.identities, collection, collection.path, records, { retry: !onlyIfEmpty });
  if ('duplicates' in outcome) {
    // Replicas starting together on one store with one seed: each saw it empty, one seeded first.
    // Its records won; only a seed that repeats its own keys is wrong.
    const named = records.flatMap((record) => (record.key === undefined ? [] : [record.key]));
    if (onlyIfEmpty && new Set(named).size === named.length && (await context.store.count(collection.path)) > 0) {
      logger.info({ collection: collection.path }, 'the store was seeded meanwhile (another replica): the seed is not applied');
      return;
    }
    throw new SeedError(duplicatesOf(outcome.duplicates, collection).message);
  }
}

/** A request's query as the log may show it (names, no values); undefined when it has none. */
function loggedQuery(url: string | undefined): string | undefined {
  const at = url?.indexOf('?') ?? -1;
  return url === undefined || at === -1 ? undefined : queryNamesOnly(url.slice(at + 1));
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
