/**
 * A provider made of the mock behind a proxy that changes one thing: `tamper` sees each request
 * and decides what goes back (the mock's own answer, a changed one, or its own without asking the
 * mock). A broken one breaks the one thing a check targets; a legal one changes what the spec leaves open.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createMockServer, type MockServer } from '../../../mocks/server.js';
import { loadFixtures, type FixtureCase } from '../../../fixtures/index.js';
import { readContract } from '../../../openapi/operations/compile.js';
import { runContractSuite, type ContractReport } from '../../index.js';
import { suiteSpecOf, type SuiteSpec } from '../../spec-contract.js';

export interface ProxiedRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The answer to send: `forward()` asks the mock (the request as sent, or `changed`). */
export type Tamper = (request: ProxiedRequest, forward: (changed?: Partial<ProxiedRequest>) => Promise<ProxiedAnswer>) => Promise<ProxiedAnswer>;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

export interface MockProxy {
  url: string;
  close(): Promise<void>;
}

export async function startMockProxy(target: string, tamper: Tamper): Promise<MockProxy> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const request: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers, body: Buffer.concat(chunks) };
      const forward = async (changed: Partial<ProxiedRequest> = {}): Promise<ProxiedAnswer> => {
        const sent = { ...request, ...changed };
        const answer = await fetch(new URL(sent.url, target), {
          method: sent.method,
          headers: sent.headers,
          ...(sent.method === 'GET' || sent.method === 'HEAD' ? {} : { body: new Uint8Array(sent.body) }),
        });
        const answerHeaders: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name)) answerHeaders[name] = value;
        });
        return { status: answer.status, headers: answerHeaders, body: Buffer.from(await answer.arrayBuffer()) };
      };
      tamper(request, forward).then(
        (answer) => {
          res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
          res.end(answer.body);
        },
        (error: unknown) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer's value, changed by `edit` (left alone when the body is not JSON). */
export function editJson(answer: ProxiedAnswer, edit: (value: unknown) => unknown): ProxiedAnswer {
  let value: unknown;
  try {
    value = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return answer;
  }
  return { ...answer, body: Buffer.from(JSON.stringify(edit(value))) };
}

/**
 * The mock on `spec` (accepting `token` only) for one describe block, and the suite run against it
 * directly (`run(url())`) or behind a proxy that changes one thing (`through(tamper)`); every
 * server is closed after the block. `failed` names the checks a report failed or could not judge.
 */
export function mockBehindProxies(options: { spec: string; token: string; seed: number; generated: { positive: number; negative: number } }): {
  url: () => string;
  run: (baseUrl: string) => Promise<ContractReport>;
  failed: (report: ContractReport) => string[];
  through: (tamper: Tamper) => Promise<ContractReport>;
} {
  let mock: MockServer | undefined;
  let contract: SuiteSpec | undefined;
  let fixtures: FixtureCase[] | undefined;
  const proxies: MockProxy[] = [];
  beforeAll(async () => {
    // Read and compiled once, for the mock and every run of the suite (each would compile it again),
    // as the bundled fixture cases are read once for every run.
    const compiled = await readContract(options.spec);
    contract = suiteSpecOf(compiled);
    fixtures = loadFixtures();
    mock = await createMockServer({ port: 0, logLevel: 'silent', contract: compiled, tokens: [options.token] });
  });
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await mock?.close();
  });
  const url = (): string => (mock as MockServer).url;
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: options.token, contract, fixtures, seed: options.seed, generated: options.generated });
  return {
    url,
    run,
    failed: (report) => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name),
    through: async (tamper) => {
      const proxy = await startMockProxy(url(), tamper);
      proxies.push(proxy);
      return run(proxy.url);
    },
  };
}
