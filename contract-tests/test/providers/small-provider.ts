/**
 * The node:http skeleton of the small providers several suite tests write for their own specs:
 * each test keeps its provider's logic in a handler; this reads the body, answers JSON, listens on
 * a free port and closes.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runContractSuite, type ContractOptions, type ContractReport } from '../../index.js';
import type { Provider } from './provider.js';

/** One request, its body read whole. */
export interface SmallRequest {
  method: string | undefined;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, or undefined when it is not strict UTF-8 JSON. */
  json(): unknown;
}

/** Answers with a status and, when given, a JSON body (a Buffer: those bytes as they are, under the headers given). */
export type Answer = (status: number, body?: unknown, headers?: Record<string, string>) => void;

export type SmallHandler = (request: SmallRequest, answer: Answer) => void;

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as unknown;
  } catch {
    return undefined;
  }
}

export async function startSmallProvider(handler: SmallHandler): Promise<Provider> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const answer: Answer = (status, value, headers = {}) => {
        if (value === undefined) response.writeHead(status, headers).end();
        else if (Buffer.isBuffer(value)) response.writeHead(status, headers).end(value);
        else response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      };
      handler({ method: request.method, url: new URL(request.url ?? '/', 'http://provider'), headers: request.headers, body, json: () => parseJson(body) }, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Runs the suite against a small provider, closing it however the run ends. */
export async function runSuiteAgainst(handler: SmallHandler, options: Omit<ContractOptions, 'baseUrl'>): Promise<ContractReport> {
  const provider = await startSmallProvider(handler);
  try {
    return await runContractSuite({ ...options, baseUrl: provider.url });
  } finally {
    await provider.close();
  }
}
