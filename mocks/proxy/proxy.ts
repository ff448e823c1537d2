/**
 * `--proxy URL`: the mock in front of the real service. Every request outside /__mock is
 * forwarded to the upstream and its answer passed back unchanged — status, end-to-end headers,
 * body bytes, streamed — while both are judged against the spec on the way through (the request
 * by the mock's own rules, the answer by the operation's responses). The verdicts go to the
 * journal and the `plant-store-violations` header; with `strict`, an answer that breaks the spec
 * is replaced by a 502 Error naming the violation.
 *
 * Answered by the mock without forwarding: CORS preflights (the browser talks to the mock, so
 * CORS is the mock's policy), `Prefer: code=` (the mock's forced answers, as without --proxy)
 * and unusable preferences. Paths the spec does not have are forwarded too, with the request
 * verdict saying so: the real service may have them, and the spec is what is missing.
 */
import { randomBytes } from 'node:crypto';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ContractOperation } from '../../openapi/operations/model.js';
import { judgeResponseBody, judgeResponseHead, type BodyCheck, type ResponseHead } from '../../openapi/judge/response.js';
import { plainViolation, type Violation } from '../../openapi/judge/violation.js';
import type { EngineContext } from '../engine/context.js';
import { parsePrefer } from '../engine/prefer.js';
import { handleRequest, routeOf } from '../engine/request-path.js';
import type { Route } from '../engine/routes.js';
import { failureKind, reject, type Rejection } from '../errors.js';
import type { Answer, SentAnswer } from '../http/answer.js';
import { preflightHeaders } from '../http/cors.js';
import { decodedForJudging, forwardRequestBody, readUpTo } from './bodies.js';
import { clientResponseHeaders, upstreamRequestHeaders, viaOf } from './headers.js';
import { judgeRequest } from './request-verdict.js';
import { flatHeaders, sendProxied, withCors, type ProxiedBody } from './send.js';
import { Upstream, DEFAULT_UPSTREAM_SOCKETS } from './upstream.js';
import { parseUpstreamUrl, DEFAULT_PROXY_CONNECT_TIMEOUT_MS, DEFAULT_PROXY_TIMEOUT_MS } from './upstream-url.js';
import { responseErrors, violation, VIOLATIONS_HEADER, violationsHeader } from './violations.js';

export interface ProxyOptions {
  /** Base URL of the real service: `http(s)://[user:password@]host[:port][/path prefix]`. */
  upstream: string;
  /** Replace an answer that breaks the spec with a 502 Error naming the violation (Prism's --errors). */
  strict?: boolean;
  /** Longest wait for the upstream's whole answer, from the request's arrival (504 after it). */
  timeoutMs?: number;
  /** Longest wait for a new connection to the upstream, TLS handshake included (504 after it). */
  connectTimeoutMs?: number;
  /** Connections kept to the upstream at most. */
  sockets?: number;
}

/** What /__mock/health and /__mock/spec say of proxy mode. */
export interface ProxyDescription {
  mode: 'proxy';
  upstream: string;
  strict: boolean;
}

/** The mock's request failed upstream; carries the Error answer to give. */
class UpstreamFailure extends Error {
  constructor(readonly rejection: Rejection) {
    super(rejection.message);
  }
}

export class ValidatingProxy {
  readonly upstream: Upstream;
  readonly strict: boolean;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  /** This mock in Via, to recognise a request it forwarded coming back to it. */
  readonly via = viaOf(randomBytes(4).toString('hex'));

  constructor(options: ProxyOptions) {
    this.upstream = new Upstream(parseUpstreamUrl(options.upstream), options.sockets ?? DEFAULT_UPSTREAM_SOCKETS);
    this.strict = options.strict ?? false;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_PROXY_CONNECT_TIMEOUT_MS;
  }

  describe(): ProxyDescription {
    return { mode: 'proxy', upstream: this.upstream.display, strict: this.strict };
  }

  close(): void {
    this.upstream.close();
  }

  /** The answer to one request outside /__mock. */
  async forward(req: IncomingMessage, path: string, mock: EngineContext): Promise<Answer> {
    const method = req.method ?? 'GET';
    const found = routeOf(mock, method, path);
    const prefer = parsePrefer(req.headers.prefer as string | undefined);
    const local = this.#localAnswer(req, method, path, found, prefer.code !== undefined || prefer.problem !== undefined, mock);
    if (local) return local;

    const started = performance.now();
    const operation = found.kind === 'operation' ? found.operation : undefined;
    const outgoing = this.upstream.request(method, requestTarget(req.url, path), upstreamRequestHeaders(req, this.upstream.target.basic, this.via));
    const failure = this.#watch(outgoing);
    const body = forwardRequestBody(req, outgoing, mock.maxBody);
    // Settled at once: it is awaited only once the upstream answers, and a failure meanwhile must not be an unhandled rejection.
    const requestVerdict = judgeRequest(req, path, mock, found, prefer, body.copy).catch((error: unknown) => [
      violation('request', reject('NOT_VALIDATED', { what: 'request', reason: `the mock failed while judging it: ${failureKind(error)}` }), 'warning'),
    ]);
    // The client went away: nobody to answer, so the upstream exchange is abandoned.
    const abandon = (): void => {
      outgoing.destroy();
    };
    req.socket.once('close', abandon);
    const base = { operationId: operation?.operationId, delayMs: prefer.delayMs };

    const violations: Violation[] = [];
    let judging: Promise<Violation[]> | undefined;
    // The request's verdict first, then the answer's; the request's waits for its body's copy at most until the answer is in.
    const judged = (): Promise<Violation[]> =>
      (judging ??= (async () => {
        body.settle('the upstream answered before it arrived whole');
        violations.unshift(...(await requestVerdict));
        return violations;
      })());
    // The journal keeps the request body as it went to the upstream (the bounded copy).
    const sentBody = async (): Promise<Buffer | undefined> => {
      const copy = await body.copy;
      return 'bytes' in copy ? copy.bytes : undefined;
    };
    const failed = async (rejection: Rejection): Promise<Answer> => {
      failure.stop();
      req.socket.off('close', abandon);
      const all = await judged();
      const answer = mock.engine.errors.answer(rejection, operation ? { operation: operation.contract } : { path });
      return { ...answer, headers: { ...answer.headers, [VIOLATIONS_HEADER]: violationsHeader(all) }, violations: all, requestBody: await sentBody(), ...base };
    };

    let upstream: IncomingMessage;
    let head: ResponseHead;
    let read: ProxiedBody;
    try {
      upstream = await failure.response;
      head = {
        method,
        status: upstream.statusCode ?? 0,
        contentType: upstream.headers['content-type'],
        contentLength: upstream.headers['content-length'] === undefined ? undefined : Number(upstream.headers['content-length']),
        headers: upstream.headers,
      };
      const verdict = operation ? judgeResponseHead(operation.contract, head, 'all') : { violations: [], body: undefined };
      for (const found of verdict.violations) violations.push(plainViolation(found));
      if (this.strict && responseErrors(violations).length) {
        upstream.destroy();
        return failed(this.#replacement(violations));
      }
      // A body under a label the status does not declare streams on unread (an event stream, a download): the proxy
      // does not hold it to see whether it is JSON after all, as the suite and --self-check, which have it whole, do.
      read =
        verdict.body && !verdict.body.mislabelled && operation ? await judgedBody(upstream, head, operation.contract, verdict.body, mock.maxBody, violations) : { head: [], size: 0, rest: upstream };
    } catch (error) {
      return failed(failure.rejection() ?? this.#failure(error));
    }
    if (read.rest === undefined) {
      failure.stop();
      req.socket.off('close', abandon);
    }
    const all = await judged();
    if (this.strict && responseErrors(all).length) {
      read.rest?.destroy();
      return failed(this.#replacement(all));
    }
    const headers = clientResponseHeaders(upstream);
    const remainingMs = this.timeoutMs - (performance.now() - started);
    if (read.rest) failure.stop(); // restarted for what is left once sending begins (a Prefer delay may come first)
    return {
      status: head.status,
      violations: all,
      requestBody: await sentBody(),
      ...base,
      send: async (res: ServerResponse, cors: Readonly<Record<string, string>>): Promise<SentAnswer> => {
        const out = withCors(headers, cors);
        out[VIOLATIONS_HEADER] = violationsHeader(all);
        let upstreamFailed: Error | undefined;
        read.rest?.once('error', (error) => (upstreamFailed ??= error));
        const timer = read.rest && setTimeout(() => read.rest?.destroy(new UpstreamFailure(this.#timeout())), Math.max(remainingMs, 0));
        const cut = await sendProxied(res, head.status, upstream.statusMessage, out, read);
        if (timer) clearTimeout(timer);
        req.socket.off('close', abandon);
        // Cut by the upstream (a timeout, a failure mid-body): the journal says why the client got less. Cut by the client: nothing to say.
        if (cut && upstreamFailed) all.push(violation('response', this.#failure(upstreamFailed)));
        return { headers: flatHeaders(out), body: read.head.length ? Buffer.concat(read.head as Buffer[], read.size) : undefined };
      },
    };
  }

  /** Preflights, `Prefer: code=` and unusable preferences: the mock's own answers. */
  #localAnswer(req: IncomingMessage, method: string, path: string, found: Route, preferred: boolean, mock: EngineContext): Promise<Answer> | Answer | undefined {
    // A CORS preflight names the method it asks for (Fetch); any other OPTIONS is the real service's to answer.
    const requested = method === 'OPTIONS' ? req.headers['access-control-request-method'] : undefined;
    if (typeof requested === 'string' && found.kind === 'method-not-allowed') return handleRequest(req, path, mock);
    if (typeof requested === 'string' && found.kind === 'not-found' && /^[A-Za-z]{1,20}$/.test(requested)) {
      return { status: 204, headers: preflightHeaders(`${requested.toUpperCase()}, OPTIONS`, mock.engine.cors) };
    }
    if (found.kind === 'operation' && preferred) return handleRequest(req, path, mock);
    // --proxy names this mock itself (or a chain that leads back to it): forwarding again would never end.
    if (req.headersDistinct.via?.some((value) => value.includes(this.via))) {
      return mock.engine.errors.answer(reject('PROXY_LOOP', { upstream: this.upstream.display }), found.kind === 'operation' ? { operation: found.operation.contract } : { path });
    }
    return undefined;
  }

  /** The 502 that replaces an answer breaking the spec under --proxy-strict. */
  #replacement(violations: readonly Violation[]): Rejection {
    const errors = responseErrors(violations);
    return reject('UPSTREAM_VIOLATION', { violation: (errors[0] as Violation).message, more: violations.length - 1 });
  }

  #timeout(): Rejection {
    return reject('UPSTREAM_TIMEOUT', { upstream: this.upstream.display, ms: this.timeoutMs });
  }

  #failure(error: unknown): Rejection {
    if (error instanceof UpstreamFailure) return error.rejection;
    return reject('UPSTREAM_FAILED', { upstream: this.upstream.display, detail: describeFailure(error as NodeJS.ErrnoException) });
  }

  /**
   * The bounds of one upstream request: the connect timeout on a new connection (TCP and TLS),
   * the whole-answer timeout from now. Either destroys the request; `rejection()` then says which.
   */
  #watch(outgoing: ClientRequest): { response: Promise<IncomingMessage>; rejection(): Rejection | undefined; stop(): void } {
    let rejection: Rejection | undefined;
    const fail = (why: Rejection): void => {
      rejection ??= why;
      outgoing.destroy(new UpstreamFailure(why));
    };
    const whole = setTimeout(() => fail(this.#timeout()), this.timeoutMs);
    let connecting: NodeJS.Timeout | undefined;
    outgoing.once('socket', (socket) => {
      if (outgoing.reusedSocket) return;
      connecting = setTimeout(() => fail(reject('UPSTREAM_CONNECT_TIMEOUT', { upstream: this.upstream.display, ms: this.connectTimeoutMs })), this.connectTimeoutMs);
      const connected = (): void => clearTimeout(connecting);
      socket.once(this.upstream.target.tls ? 'secureConnect' : 'connect', connected);
      socket.once('close', connected);
      if (this.upstream.target.tls) (socket as TLSSocket).once('error', connected);
    });
    const response = new Promise<IncomingMessage>((resolve, failWith) => {
      outgoing.once('response', (res: IncomingMessage) => {
        clearTimeout(connecting);
        // A failure after the head surfaces on the response's stream; this keeps it from being unhandled here.
        res.on('error', () => undefined);
        resolve(res);
      });
      outgoing.on('error', (error) => failWith(error));
    });
    return {
      response,
      rejection: () => rejection,
      stop: () => {
        clearTimeout(whole);
        clearTimeout(connecting);
      },
    };
  }
}

/**
 * Reads an answer's body to judge it, up to `limit` bytes (decoded): the bytes read and, when it was
 * larger, the rest still to stream (judged as not checked). Adds its verdict to `violations`.
 */
async function judgedBody(upstream: IncomingMessage, head: ResponseHead, operation: ContractOperation, check: BodyCheck, limit: number, violations: Violation[]): Promise<ProxiedBody> {
  const unchecked = (reason: string): void => {
    violations.push(violation('response', reject('NOT_VALIDATED', { what: 'response body', reason }), 'warning'));
  };
  const tooLarge = `it is larger than ${limit} bytes, the bound set by --max-body`;
  if ((head.contentLength ?? 0) > limit) {
    unchecked(tooLarge);
    return { head: [], size: 0, rest: upstream };
  }
  const bounded = await readUpTo(upstream, limit);
  if (!bounded.complete) {
    unchecked(tooLarge);
    return { head: bounded.chunks, size: bounded.size, rest: upstream };
  }
  const bytes = bounded.chunks.length === 1 ? (bounded.chunks[0] as Buffer) : Buffer.concat(bounded.chunks, bounded.size);
  const decoded = decodedForJudging(bytes, upstream.headers['content-encoding'], limit);
  if (typeof decoded === 'string') unchecked(decoded);
  else for (const found of judgeResponseBody(operation, head, check, decoded, 'all') ?? []) violations.push(plainViolation(found));
  return { head: bounded.chunks, size: bounded.size, rest: undefined };
}

/** The request target to append to the base path: origin-form as received (an absolute-form target reduced to it). */
function requestTarget(url: string | undefined, path: string): string {
  if (url === undefined) return path;
  if (url.startsWith('/')) return withoutDotSegments(url);
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return path;
  }
}

// A `.` or `..` segment, written plainly or percent-encoded, before the query.
const DOT_SEGMENT = /^[^?#]*(?:^|\/)(?:\.|%2e){1,2}(?:[/?#]|$)/i;

/**
 * The target with its dot segments resolved (RFC 3986 §5.2.4) as the WHATWG URL parser resolves
 * them: appended under `--proxy http://host/v1`, `/../../admin` would otherwise reach the upstream
 * as `/v1/../../admin`, outside the prefix, with the gateway's credentials attached. Other targets
 * pass byte for byte.
 */
export function withoutDotSegments(target: string): string {
  if (!DOT_SEGMENT.test(target)) return target;
  const resolved = new URL(target, 'http://upstream.invalid');
  return resolved.pathname + resolved.search;
}

/** A transport failure in words: what happened, and Node's code for it. */
export function describeFailure(error: NodeJS.ErrnoException): string {
  const code = error.code ?? '';
  const what =
    code === 'ECONNREFUSED'
      ? 'the connection was refused'
      : code === 'ECONNRESET' || error.message === 'socket hang up'
        ? 'the connection was closed without a complete answer'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'its host name could not be resolved'
          : code.startsWith('HPE_')
            ? 'its answer is not well-formed HTTP'
            : /^ERR_SSL|^ERR_TLS|CERT|^EPROTO$|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code) || /SSL|TLS|certificate/i.test(error.message)
              ? 'the TLS handshake failed'
              : 'the connection failed';
  return `${what} (${code ? `${code}: ` : ''}${error.message})`;
}
