/**
 * A small, correct Plant Store provider for the suite's own tests, with switches for the legal
 * choices a real provider may make and for single, deliberate flaws. Every flaw breaks the
 * contract in exactly one way, so a test can assert which check catches it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createSpecAjv } from '../../../spec/ajv.js';
import { exactInteger, parseExactJson } from '../../../spec/exact-json.js';
import { componentSchema } from '../../../spec/index.js';

/** Choices the seed leaves open: each must pass the contract. */
export interface LegalChoices {
  /** Extra fields in the Plant (the id as exact digits, a creation time). */
  extraResponseFields?: boolean;
  /** The status for missing or bad credentials (default 401; 400 answers an Error). */
  unauthenticatedStatus?: 400 | 401 | 403;
  /** What a repeated id gets (default: 409). */
  duplicates?: 'reject' | 'accept';
  /** `application/json; charset=utf-8` on every answer. */
  charset?: boolean;
  /** Invalid bodies get 422 application/problem+json instead of a 400 Error. */
  unprocessableEntity?: boolean;
  /** Reads a JSON body whatever its Content-Type says. */
  anyContentType?: boolean;
}

/** One deliberate way to break the contract. */
export type Flaw =
  | 'plant-without-name'
  | 'plant-tag-as-number'
  | 'name-echoed-upper-case'
  | 'error-without-message'
  | 'error-code-beyond-int32'
  | 'server-error-on-non-ascii-name'
  | 'created-201'
  | 'plant-as-text-plain'
  | 'auth-ignored'
  | 'any-authorization-accepted'
  | 'bearer-token-not-checked'
  | 'field-types-not-checked'
  | 'int64-read-as-double'
  | 'ids-beyond-2-53-refused'
  | 'empty-name-refused'
  | 'hangs'
  | 'drops-connection';

export interface ProviderOptions extends LegalChoices {
  token: string;
  /** A path prefix the API lives under (`/v1`). */
  basePath?: string;
  /** A header a gateway in front of the API demands (answered 403 without it). */
  gatewayHeader?: [name: string, value: string];
  flaw?: Flaw;
}

export interface Provider {
  url: string;
  close(): Promise<void>;
}

const ajv = createSpecAjv();
const validateNewPlant = ajv.compile(componentSchema('NewPlant'));

export async function startProvider(options: ProviderOptions): Promise<Provider> {
  const ids = new Set<bigint | number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    handle(req, res, options, ids).catch(() => res.destroy());
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

async function handle(req: IncomingMessage, res: ServerResponse, options: ProviderOptions, ids: Set<bigint | number>): Promise<void> {
  const { flaw } = options;
  const body = await readAll(req);
  if (req.method !== 'POST' || req.url !== `${options.basePath ?? ''}/plants`) return answer(res, options, 404, error(404, 'No such route.'));
  if (options.gatewayHeader && req.headers[options.gatewayHeader[0]] !== options.gatewayHeader[1]) {
    return answer(res, options, 403, error(403, `The gateway wants ${options.gatewayHeader[0]}.`));
  }
  if (flaw === 'hangs') return; // never answers
  if (flaw === 'drops-connection') return void req.socket.destroy();

  if (!authorized(req.headers.authorization, options)) {
    const status = options.unauthenticatedStatus ?? 401;
    return answer(res, options, status, error(status, 'A valid bearer token is required.'), { 'www-authenticate': 'Bearer' });
  }
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && !options.anyContentType) return answer(res, options, 415, error(415, 'Send application/json.'));

  const invalid = (message: string): void =>
    options.unprocessableEntity
      ? answer(res, options, 422, JSON.stringify({ title: 'Unprocessable Entity', status: 422, detail: message }), { 'content-type': 'application/problem+json' })
      : answer(res, options, 400, flaw === 'error-without-message' ? JSON.stringify({ error: 400 }) : error(flaw === 'error-code-beyond-int32' ? 4_000_000_000 : 400, message));

  let value: unknown;
  try {
    value = flaw === 'int64-read-as-double' ? JSON.parse(body) : parseExactJson(body);
  } catch {
    return invalid('The body is not JSON.');
  }
  let id: bigint | number;
  if (flaw === 'field-types-not-checked') {
    // Only asks that the fields be there.
    const record = value as Record<string, unknown> | null;
    if (!record || typeof record !== 'object' || !('id' in record) || !('name' in record)) return invalid('id and name are required.');
    id = exactInteger(record, 'id') ?? -1n;
  } else if (flaw === 'int64-read-as-double') {
    // JSON.parse already rounded the id: 2^63 passes as 2^63 - 1.
    const record = value as Record<string, unknown> | null;
    const ok = record && typeof record === 'object' && typeof record.name === 'string' && (record.tag === undefined || typeof record.tag === 'string');
    if (!ok || !Number.isInteger(record.id) || (record.id as number) > 9223372036854775807 || (record.id as number) < -9223372036854775808) return invalid('Not a NewPlant.');
    id = record.id as number;
  } else {
    if (!validateNewPlant(value)) return invalid(`Not a NewPlant: ${ajv.errorsText(validateNewPlant.errors)}.`);
    id = exactInteger(value as object, 'id') as bigint;
  }
  const plant = value as { name: unknown; tag?: unknown };
  const name = String(plant.name);
  const tag = typeof plant.tag === 'string' ? plant.tag : undefined;
  if (flaw === 'ids-beyond-2-53-refused' && typeof id === 'bigint' && (id > BigInt(Number.MAX_SAFE_INTEGER) || id < BigInt(Number.MIN_SAFE_INTEGER))) {
    return invalid('id is too large.');
  }
  if (flaw === 'empty-name-refused' && name === '') return invalid('name must not be empty.');
  if (flaw === 'server-error-on-non-ascii-name' && /[^\x20-\x7e]/.test(name)) return answer(res, options, 500, error(500, 'Internal error.'));

  if (ids.has(id) && options.duplicates !== 'accept') return answer(res, options, 409, error(409, 'That id is taken.'));
  ids.add(id);

  const answered: Record<string, unknown> = { name: flaw === 'name-echoed-upper-case' ? name.toUpperCase() : name };
  if (tag !== undefined) answered.tag = flaw === 'plant-tag-as-number' ? tag.length : tag;
  if (flaw === 'plant-without-name') delete answered.name;
  let text = JSON.stringify(answered);
  if (options.extraResponseFields) text = `{"id":${id},"createdAt":"${new Date().toISOString()}",${text.slice(1)}`;
  const headers: Record<string, string> = flaw === 'plant-as-text-plain' ? { 'content-type': 'text/plain' } : {};
  return answer(res, options, flaw === 'created-201' ? 201 : 200, text, headers);
}

function authorized(header: string | undefined, options: ProviderOptions): boolean {
  switch (options.flaw) {
    case 'auth-ignored':
      return true;
    case 'any-authorization-accepted':
      return header !== undefined;
    case 'bearer-token-not-checked':
      return header !== undefined && /^bearer\b/i.test(header);
    default: {
      const match = /^bearer +(\S+)$/i.exec(header ?? '');
      return match?.[1] === options.token;
    }
  }
}

function error(status: number, message: string): string {
  return JSON.stringify({ error: status, message });
}

function answer(res: ServerResponse, options: LegalChoices, status: number, body: string, headers: Record<string, string> = {}): void {
  const contentType = headers['content-type'] ?? (options.charset ? 'application/json; charset=utf-8' : 'application/json');
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
