/**
 * A small, correct Plant Store provider for the suite's own tests, built as the steps a real
 * service takes (route, authenticate, media type, decode, parse, validate, store, answer). Each
 * step is a replaceable function: a flaw (flaws.ts) replaces exactly one step with a realistic
 * mistake, a legal variant (legal.ts) replaces one with a different but correct choice.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describeProblems, problemsText } from '../../../openapi/schema/problems.js';
import { exactInteger, parseExactJson } from '../../../openapi/schema/exact-json.js';
import { loadContract } from '../../../openapi/operations/compile.js';

const validateNewPlant = loadContract().componentValidator('NewPlant');

/** Thrown by a step to answer 500, as a service's unexpected failure would be. */
export class Crash extends Error {}

/** One request as the steps see it. */
export interface Incoming {
  req: IncomingMessage;
  res: ServerResponse;
  raw: Buffer;
}

export interface Answer {
  status: number;
  /** A value, serialised by `serialize`, or exact text. */
  body: unknown;
  headers?: Record<string, string>;
}

/** The steps of the reference provider; every one can be replaced. */
export interface Behaviour {
  /** Before anything else: take the exchange over (hang, drop, delay). True when it did. */
  intercept(incoming: Incoming): boolean | Promise<boolean>;
  /** Whether the request carries the valid credential. */
  authorize(req: IncomingMessage, token: string): boolean;
  /** The status for a request without it. */
  unauthenticatedStatus: number;
  /** The status for a body it cannot use (not UTF-8, not JSON, invalid, refused). */
  invalidStatus: number;
  /** Whether the Content-Type is one the service reads. */
  mediaTypeAccepted(contentType: string | undefined): boolean;
  /** The body's text, or undefined when its bytes are not UTF-8. */
  decode(raw: Buffer): string | undefined;
  /** The parsed body; throws on text that is not JSON. */
  parse(text: string): unknown;
  /** A problem that makes the body invalid, or undefined; `text` is the body as sent. */
  validate(value: unknown, text: string): string | undefined;
  /** The id to store, from a valid body. */
  identity(value: unknown): bigint | number | string;
  /** What a repeated id gets (undefined: stored again). */
  duplicateStatus: number | undefined;
  /** A problem with an otherwise valid body that this service refuses with 400 (a business rule). */
  refuse(value: Record<string, unknown>, text: string): string | undefined;
  /** A valid body the service fails on (answered 500), if any. */
  crash(value: Record<string, unknown>, text: string): boolean;
  /** The created plant, as answered. */
  plant(value: Record<string, unknown>): Record<string, unknown>;
  /** The success status. */
  successStatus: number;
  /** An error body. */
  error(status: number, message: string): { body: unknown; contentType: string };
  /** JSON text of a value. */
  serialize(value: unknown): string;
  /** The media type of a success answer. */
  contentType: string;
  /** Writes an answer. */
  send(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void;
}

export interface ProviderOptions {
  token: string;
  /** A path prefix the API lives under (`/v1`). */
  basePath?: string;
  /** A header a gateway in front of the API demands (answered 403 without it). */
  gatewayHeader?: [name: string, value: string];
  /** The steps replaced (a flaw or a legal variant). */
  behaviour?: Partial<Behaviour>;
}

export interface Provider {
  url: string;
  close(): Promise<void>;
}

const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export const REFERENCE: Behaviour = {
  intercept: () => false,
  authorize(req, token) {
    // Two Authorization headers are malformed; Node keeps only the first, so look at them all.
    const values = rawHeaderValues(req, 'authorization');
    return values.length === 1 && BEARER.exec(values[0] as string)?.[1] === token;
  },
  unauthenticatedStatus: 401,
  invalidStatus: 400,
  mediaTypeAccepted: (contentType) => (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json',
  decode(raw) {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
    } catch {
      return undefined;
    }
  },
  parse: (text) => parseExactJson(text),
  validate: (value) => (validateNewPlant(value) ? undefined : `Not a NewPlant: ${problemsText(describeProblems(validateNewPlant.errors, { root: value }))}.`),
  identity: (value) => exactInteger(value as object, 'id') as bigint,
  duplicateStatus: 409,
  refuse: () => undefined,
  crash: () => false,
  plant: (value) => (value.tag === undefined ? { name: value.name } : { name: value.name, tag: value.tag }),
  successStatus: 200,
  error: (status, message) => ({ body: { error: status, message }, contentType: 'application/json' }),
  serialize: (value) => JSON.stringify(value),
  contentType: 'application/json',
  send(res, status, text, headers) {
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  },
};

export async function startProvider(options: ProviderOptions): Promise<Provider> {
  const behaviour: Behaviour = { ...REFERENCE, ...options.behaviour };
  const ids = new Set<string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    handle(req, res, options, behaviour, ids).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, options: ProviderOptions, b: Behaviour, ids: Set<string>): Promise<void> {
  const raw = await readAll(req);
  if (await b.intercept({ req, res, raw })) return;
  const fail = (status: number, message: string, headers: Record<string, string> = {}): void => {
    const { body, contentType } = b.error(status, message);
    b.send(res, status, typeof body === 'string' ? body : b.serialize(body), { 'content-type': contentType, ...headers });
  };
  if (req.method !== 'POST' || req.url !== `${options.basePath ?? ''}/plants`) return fail(404, 'No such route.');
  if (options.gatewayHeader && req.headers[options.gatewayHeader[0]] !== options.gatewayHeader[1]) {
    return fail(403, `The gateway wants ${options.gatewayHeader[0]}.`);
  }
  if (!b.authorize(req, options.token)) return fail(b.unauthenticatedStatus, 'A valid bearer token is required.', { 'www-authenticate': 'Bearer' });
  if (!b.mediaTypeAccepted(req.headers['content-type'])) return fail(415, 'Send application/json.');
  const text = b.decode(raw);
  if (text === undefined) return fail(b.invalidStatus, 'The body is not UTF-8.');
  let value: unknown;
  try {
    value = b.parse(text);
  } catch (error) {
    if (error instanceof Crash) return fail(500, 'Internal error.');
    return fail(b.invalidStatus, `The body is not JSON, or nested deeper than this service reads (${(error as Error).message}).`);
  }
  let problem: string | undefined;
  try {
    problem = b.validate(value, text);
  } catch {
    return fail(500, 'Internal error.');
  }
  if (problem !== undefined) return fail(b.invalidStatus, problem);
  const record = value as Record<string, unknown>;
  const refusal = b.refuse(record, text);
  if (refusal !== undefined) return fail(b.invalidStatus, refusal);
  let id: string;
  try {
    if (b.crash(record, text)) return fail(500, 'Internal error.');
    id = String(b.identity(value));
  } catch {
    return fail(500, 'Internal error.');
  }
  if (ids.has(id) && b.duplicateStatus !== undefined) return fail(b.duplicateStatus, `The id ${id} is taken.`);
  ids.add(id);
  b.send(res, b.successStatus, b.serialize(b.plant(record)), { 'content-type': b.contentType });
}

/** Every value of a header as sent, in order (Node folds or drops repeats in req.headers). */
export function rawHeaderValues(req: IncomingMessage, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) if ((req.rawHeaders[i] as string).toLowerCase() === name) values.push(req.rawHeaders[i + 1] as string);
  return values;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
