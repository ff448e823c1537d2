/**
 * One judge, three tools (issue 36): the same exchanges — a correct answer, a schema break, a
 * writeOnly leak, a missing required header, an undeclared status, a wrong media type, repeated
 * member names — fed to the proxy (a real upstream on loopback, the verdict read from its
 * plant-store-violations header), to the contract suite's response checks (the answer as the
 * suite's own transport receives it from that upstream) and to the Prism edge's judging of an
 * answer; all three report the same violations. The Prism mock itself, over HTTP, says in
 * sl-violations what the proxy says of the same answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../openapi/operations/compile.js';
import type { ContractOperation } from '../../openapi/operations/model.js';
import type { Violation } from '../../openapi/judge/violation.js';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { judgeAnswer, wireAnswer } from '../../mocks/prism/answers.js';
import { startPrismMock, type PrismMock } from '../../mocks/prism/server.js';
import { startProvider, type Provider } from '../../mocks/proxy/test/providers.js';
import { ACCOUNTS_SPEC } from '../../mocks/test/judged-accounts.js';
import { CHECKS } from '../checks/index.js';
import type { CheckName, Exchange, ReceivedResponse, RunContext } from '../model.js';
import { suiteSpecOf } from '../spec-contract.js';
import { createTransport } from '../transport.js';

/** The upstream's answer to GET /accounts/{n}, and the codes every tool must report for it. */
const EXCHANGES: { name: string; status: number; headers: Record<string, string>; body: string; codes: string[] }[] = [
  { name: 'a correct answer', status: 200, headers: { 'content-type': 'application/json', 'x-rate-limit': '5' }, body: '{"id":1,"login":"ann"}', codes: [] },
  { name: 'a schema break', status: 200, headers: { 'content-type': 'application/json', 'x-rate-limit': '5' }, body: '{"id":"one","login":"ann"}', codes: ['UPSTREAM_INVALID_BODY'] },
  { name: 'a writeOnly leak', status: 200, headers: { 'content-type': 'application/json', 'x-rate-limit': '5' }, body: '{"id":1,"login":"ann","password":"hunter22"}', codes: ['UPSTREAM_WRITE_ONLY'] },
  { name: 'a missing required header', status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":1,"login":"ann"}', codes: ['UPSTREAM_MISSING_HEADER'] },
  { name: 'an undeclared status', status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":1,"login":"ann"}', codes: ['UPSTREAM_UNDECLARED_STATUS'] },
  { name: 'a wrong media type', status: 200, headers: { 'content-type': 'text/plain', 'x-rate-limit': '5' }, body: '{"id":1,"login":"ann"}', codes: ['UPSTREAM_MEDIA_TYPE'] },
  {
    name: 'repeated member names',
    status: 200,
    headers: { 'content-type': 'application/json', 'x-rate-limit': '5' },
    body: '{"id":1,"login":"ann","login":"bob"}',
    codes: ['UPSTREAM_DUPLICATE_MEMBER_NAME'],
  },
];

/** Which of the suite's checks words each code. */
const CHECK_OF: Record<string, CheckName> = {
  UPSTREAM_UNDECLARED_STATUS: 'status_code_conformance',
  UPSTREAM_MEDIA_TYPE: 'content_type_conformance',
  UPSTREAM_UNDECLARED_BODY: 'content_type_conformance',
  UPSTREAM_MISSING_HEADER: 'response_headers_conformance',
  UPSTREAM_INVALID_HEADER: 'response_headers_conformance',
  UPSTREAM_MALFORMED_BODY: 'response_schema_conformance',
  UPSTREAM_DUPLICATE_MEMBER_NAME: 'response_schema_conformance',
  UPSTREAM_INVALID_BODY: 'response_schema_conformance',
  UPSTREAM_WRITE_ONLY: 'response_schema_conformance',
};
const RESPONSE_CHECKS = new Set(Object.values(CHECK_OF));

const contract = compileContract(structuredClone(ACCOUNTS_SPEC), 'accounts.json');
const operation = contract.operations.get('getAccount') as ContractOperation;
const dir = mkdtempSync(join(tmpdir(), 'one-judge-'));
const specFile = join(dir, 'accounts.json');
writeFileSync(specFile, JSON.stringify(ACCOUNTS_SPEC));
let upstream: Provider;
let proxy: MockServer;

beforeAll(async () => {
  upstream = await startProvider((req, res: ServerResponse) => {
    const exchange = EXCHANGES[Number(/\/accounts\/(\d+)$/.exec(req.url ?? '')?.[1]) - 1];
    if (!exchange) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"none"}');
    res.writeHead(exchange.status, { ...exchange.headers, 'content-length': Buffer.byteLength(exchange.body) }).end(exchange.body);
  });
  proxy = await createMockServer({ port: 0, logLevel: 'silent', spec: specFile, proxy: { upstream: upstream.url } });
});
afterAll(async () => {
  await proxy?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The proxy's verdict on the exchange, from its header. */
async function proxied(n: number): Promise<Violation[]> {
  const answer = await fetch(`${proxy.url}/accounts/${n}`);
  await answer.arrayBuffer();
  return JSON.parse(answer.headers.get('plant-store-violations') ?? 'null') as Violation[];
}

/** The upstream's answer as the suite's transport receives it. */
async function received(n: number): Promise<{ url: string; response: ReceivedResponse }> {
  const transport = createTransport({ timeoutMs: 5000, concurrency: 1 });
  try {
    const url = new URL(`/accounts/${n}`, upstream.url);
    const outcome = await transport.send({ url, method: 'GET', headers: {}, body: undefined });
    if (outcome.outcome !== 'response') throw new Error(`the upstream did not answer: ${outcome.outcome}`);
    return { url: url.href, response: outcome.response };
  } finally {
    transport.close();
  }
}

/** Each response check's failures and warnings on the exchange. */
function suiteVerdict(url: string, response: ReceivedResponse): Map<CheckName, number> {
  const spec = suiteSpecOf(contract);
  const run: RunContext = { contract: spec.operations.find((o) => o.operationId === 'getAccount') as RunContext['contract'], judged: new WeakMap() };
  const exchange: Exchange = {
    case: {
      id: 'generated:read-1',
      operationId: 'getAccount',
      source: 'generated',
      description: 'a read',
      expect: 'provider-choice',
      request: { method: 'GET', path: '/accounts/1', headers: {} },
    } as Exchange['case'],
    request: { method: 'GET', url, headers: {}, body: undefined },
    startedAt: new Date().toISOString(),
    elapsedMs: 1,
    outcome: 'response',
    response,
  };
  const found = new Map<CheckName, number>();
  for (const check of CHECKS.filter((c) => RESPONSE_CHECKS.has(c.name))) {
    const problems = check.judge(exchange, run)?.filter((p) => p.severity !== 'info') ?? [];
    if (problems.length) found.set(check.name, problems.length);
  }
  return found;
}

describe.each(EXCHANGES.map((exchange, i) => ({ ...exchange, n: i + 1 })))('$name', ({ n, codes }) => {
  it('the proxy, the suite and the Prism edge report the same violations', async () => {
    const byProxy = (await proxied(n)).filter((v) => v.in === 'response');
    expect(byProxy.map((v) => v.code)).toEqual(codes);

    const { url, response } = await received(n);
    const expected = new Map<CheckName, number>();
    for (const code of codes) expected.set(CHECK_OF[code] as CheckName, (expected.get(CHECK_OF[code] as CheckName) ?? 0) + 1);
    expect(suiteVerdict(url, response)).toEqual(expected);

    // The Prism edge judges its answers as they go on the wire: here, the upstream's answer as Prism's output.
    const byPrism = judgeAnswer(operation, 'GET', wireAnswer({ statusCode: response.status, headers: response.headers, body: response.body }));
    expect(byPrism.violations.map((v) => v.code)).toEqual(codes);
    // Word for word, but for who answered.
    expect(byPrism.violations.map((v) => v.message.replace("The Prism mock's", "The upstream's").replace('The Prism mock answered', 'The upstream answered'))).toEqual(byProxy.map((v) => v.message));
  });
});

describe('the Prism mock over HTTP', () => {
  let prism: PrismMock;
  beforeAll(async () => {
    prism = await startPrismMock({ port: 0, contract: compileContract(structuredClone(ACCOUNTS_SPEC), 'accounts.json') });
  });
  afterAll(async () => {
    await prism?.close();
  });

  const violationsFor = async (example: string): Promise<string[]> => {
    const answer = await fetch(`${prism.url}/accounts/1`, { headers: { prefer: `example=${example}` } });
    await answer.arrayBuffer();
    return JSON.parse(answer.headers.get('sl-violations') ?? '[]') as string[];
  };

  it('says in sl-violations what the proxy says of the same answer', async () => {
    expect(await violationsFor('good')).toEqual([]);
    const [broken] = (await proxied(2)).filter((v) => v.in === 'response');
    // The header carries the message; the problems are what follows the schema's name.
    expect(broken?.message).toMatch(/is not a valid Account: /);
    expect(await violationsFor('broken')).toEqual([`Response body ${broken?.message.split('is not a valid Account: ')[1]?.replace(/[.]$/, '')}`]);
    const [leak] = (await proxied(3)).filter((v) => v.in === 'response');
    expect(await violationsFor('leaky')).toEqual([leak?.message.replace("The upstream's", "The Prism mock's")]);
  });
});
