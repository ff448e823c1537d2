/**
 * Local providers for the proxy's tests: real node:http servers on loopback that record what
 * reached them (bytes included) and answer as each test says — correctly, outside the spec, or
 * not at all. And a raw HTTP client, so a test sees exactly the bytes and fields on the wire
 * (fetch would decompress bodies and fold repeated fields).
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: Buffer;
}

export type Answerer = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export interface Provider {
  url: string;
  /** Every request that reached the provider, oldest first. */
  received: Received[];
  /** What the provider answers from now on. */
  answer(with_: Answerer): void;
  close(): Promise<void>;
}

// Closed by vitest.cleanup.ts after every file: a hook registered here would belong to the first
// file that imported this module when files share modules (vitest's isolate: false).
const open: { close(): Promise<void> }[] = [];

/** Closes every server started since the last call (the file's, when its tests are over). */
export async function closeProviders(): Promise<void> {
  await Promise.all(open.splice(0).map((server) => server.close()));
}

/** A provider answering 200 with a Plant until told otherwise; closed after the file's tests. */
export async function startProvider(answerer: Answerer = answerJson(200, '{"name":"Monstera","tag":"tropical"}')): Promise<Provider> {
  const received: Received[] = [];
  let current = answerer;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body });
      current(req, res, body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const provider: Provider = {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  open.push(provider);
  return provider;
}

/** An answer with a JSON-ish body (text as given, exact bytes) and a Content-Length. */
export function answerJson(status: number, text: string | Buffer, headers: Record<string, string | string[]> = {}): Answerer {
  return (_req, res) => {
    const body = typeof text === 'string' ? Buffer.from(text) : text;
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
    res.end(body);
  };
}

/** A TCP server that accepts connections and never says a word (a stuck TLS handshake). */
export async function startSilentServer(): Promise<{ port: number }> {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  return { port: (server.address() as AddressInfo).port };
}

/** A port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RawAnswer {
  status: number;
  statusMessage: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: Buffer;
  /** False when the connection closed before the body's end. */
  complete: boolean;
}

/** One request over a fresh connection; resolves with the answer's exact bytes. */
export function exchange(url: string, { method = 'POST', headers = {}, body }: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer } = {}): Promise<RawAnswer> {
  return new Promise((resolve, fail) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = (): void =>
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
          complete: res.complete,
        });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** The bearer token and JSON type a valid create carries. */
export const JSON_AUTH = { authorization: 'Bearer test-token', 'content-type': 'application/json' };
