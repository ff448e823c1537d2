/**
 * The frontends' real requests, verified against providers (issue 12 §4), and the real service's
 * behaviour turned into contract cases (issue 14 §2, --record), end to end over real HTTP:
 *
 * 1. a frontend drives the mock; the journal is exported as a case file by the real route; the
 *    contract suite runs that file (as a function and through its command line, in-process: the
 *    process itself is cli.test.ts's) against the
 *    reference provider — passes, twice, fresh ids — and against one that refuses a shape the
 *    frontend sends — fails, naming the frontend's case and where it came from;
 * 2. the mock's CLI runs in front of a provider with --proxy and --record; the recorded file loads
 *    with the suite's loader and passes against that provider; a provider that departs from the
 *    contract on a recorded request gets a case that fails against it, and says why.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures, type FixtureCase } from '../../fixtures/index.js';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { startMockProcess } from '../../mocks/test/processes.js';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { runContract } from './contract-command.js';
import { startProvider, type Behaviour, type Provider } from './providers/provider.js';

const FRONTEND_TOKEN = 'frontend-dev-token-5f1c2a';
const PROVIDER_TOKEN = 'provider-ci-token-77e0b3';

/** A realistic flaw: a VARCHAR(10) name column, refused with a 400 the spec does not allow. */
const SHORT_NAMES_ONLY: Partial<Behaviour> = {
  refuse: (value) => ([...String(value.name)].length > 10 ? 'name is longer than 10 characters.' : undefined),
};

/** The suite against `url` with the case files `cases` (few random cases: the file is what is under test). */
const suite = (url: string, cases: string[]): Promise<ContractReport> => runContractSuite({ baseUrl: url, token: PROVIDER_TOKEN, cases, generated: { positive: 3, negative: 3 } });

/** The exchanges of the cases that came from files, by case name. */
function fileExchanges(report: ContractReport): Map<string, ContractReport['exchanges'][number]> {
  return new Map(report.exchanges.filter((e) => e.case.source === 'cases').map((e) => [e.case.id.replace(/^cases:/, ''), e]));
}

/** Asserts every case of `cases` was sent and answered, and no check found fault with it. */
function expectAllPassed(report: ContractReport, cases: readonly FixtureCase[]): void {
  const sent = fileExchanges(report);
  for (const c of cases) {
    const exchange = sent.get(c.name);
    expect(exchange?.outcome, `${c.name} was not answered`).toBe('response');
  }
  expect(report.findings.filter((f) => f.severity === 'failure' && f.exchange.case.source === 'cases').map((f) => `${f.check}: ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
  expect(report.ok, formatReport(report)).toBe(true);
}

async function withProvider<T>(behaviour: Partial<Behaviour> | undefined, use: (provider: Provider) => Promise<T>): Promise<T> {
  const provider = await startProvider({ token: PROVIDER_TOKEN, behaviour });
  try {
    return await use(provider);
  } finally {
    await provider.close();
  }
}

describe("a frontend's requests, exported from the mock's journal, run against providers", () => {
  let mock: MockServer;
  const dir = mkdtempSync(join(tmpdir(), 'frontend-cases-'));
  const file = join(dir, 'frontend.cases.json');
  let cases: FixtureCase[] = [];
  /** The case the frontend sent with a name longer than 10 characters. */
  let longName: FixtureCase;

  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', tokens: [FRONTEND_TOKEN] });
    const origin = 'http://127.0.0.1:5173'; // the frontend's dev server
    const request = (body: string, init: { token?: string | null; contentType?: string; prefer?: string } = {}) => {
      const headers: Record<string, string> = { origin, 'content-type': init.contentType ?? 'application/json' };
      if (init.token !== null) headers.authorization = `Bearer ${init.token ?? FRONTEND_TOKEN}`;
      if (init.prefer) headers.prefer = init.prefer;
      return fetch(`${mock.url}/plants`, { method: 'POST', headers, body }).then(async (r) => (await r.arrayBuffer(), r.status));
    };
    // The browser's preflight, then what the app sends: int64 ids, its bugs, its auth mistakes.
    const preflight = await fetch(`${mock.url}/plants`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(await request('{"id":9223372036854775000,"name":"Monstera deliciosa","tag":"tropical"}')).toBe(200);
    expect(await request('{"id":9007199254740993,"name":"Ficus","tag":"indoor"}')).toBe(200);
    expect(await request('{"id":42,"name":"Pilea"}')).toBe(200);
    expect(await request('{"id":43,"name":"Pilea"}')).toBe(200); // the same shape again
    expect(await request('{"id":"44","name":"Cactus"}')).toBe(400);
    expect(await request('{"id":45,"name":"Aloe","tag":7}')).toBe(400);
    expect(await request('{"id":46,"name":')).toBe(400);
    expect(await request('{"id":47,"name":"Basil"}', { token: null })).toBe(401);
    expect(await request('{"id":48,"name":"Sage"}', { token: 'expired-token-of-yesterday' })).toBe(401);
    expect(await request('{"id":49,"name":"Mint"}', { contentType: 'text/plain' })).toBe(415);
    expect(await request('{"id":50,"name":"Forced"}', { prefer: 'code=500' })).toBe(500); // an error state rehearsed: not a case
    expect(await request('{"id":42,"name":"Pilea again"}')).toBe(409); // a repeated id: not a case

    // Exported by the route the inspector's button calls, and written where the provider team runs the suite.
    const exported = await fetch(`${mock.url}/__mock/requests?format=cases`);
    expect(exported.status).toBe(200);
    const text = await exported.text();
    expect(text).not.toContain(FRONTEND_TOKEN);
    expect(text).not.toContain('expired-token');
    writeFileSync(file, text);
    cases = loadFixtures(file);
    longName = cases.find((c) => JSON.stringify(c.request.body).includes('Monstera deliciosa')) as FixtureCase;
  });

  afterAll(() => mock?.close());

  it('exports each distinct request with the expectation the mock gave it', () => {
    expect(cases.map((c) => [c.expect, c.request.id ?? null, c.request.auth])).toEqual([
      ['accepted', 'near-int64-max', 'bearer'],
      ['accepted', 'beyond-2^53', 'bearer'],
      ['accepted', 'safe-positive', 'bearer'],
      ['rejected-body', null, 'bearer'],
      ['rejected-body', 'safe-positive', 'bearer'],
      ['rejected-body', null, 'bearer'],
      ['unauthenticated', 'safe-positive', 'none'],
      ['unauthenticated', 'safe-positive', 'invalid-token'],
      ['unsupported-media-type', 'safe-positive', 'bearer'],
    ]);
    expect(longName).toMatchObject({ expect: 'accepted', request: { body: { json: { name: 'Monstera deliciosa', tag: 'tropical' } } } });
  });

  it('passes against a correct provider, twice in a row (fresh ids), in-process', async () => {
    await withProvider(undefined, async (provider) => {
      const first = await suite(provider.url, [file]);
      expectAllPassed(first, cases);
      const second = await suite(provider.url, [file]);
      expectAllPassed(second, cases);
      // Accepted cases drew new ids, so the provider (which refuses a repeated id) took both runs.
      const ids = (report: ContractReport) => cases.filter((c) => c.expect === 'accepted').map((c) => fileExchanges(report).get(c.name)?.case.request.id);
      for (const [a, b] of ids(first).map((id, i) => [id, ids(second)[i]])) {
        expect(a).toBeTypeOf('bigint');
        expect(a).not.toBe(b);
      }
      expect((fileExchanges(second).get(longName.name) as { response: { status: number } }).response.status).toBe(200);
    });
  });

  it('fails a provider that refuses a shape the frontend sends, naming the case the frontend sent', async () => {
    await withProvider(SHORT_NAMES_ONLY, async (provider) => {
      const report = await suite(provider.url, [file]);
      expect(report.ok).toBe(false);
      // Of the frontend's cases exactly the one with the long name fails, by the check that says a valid body was refused.
      const failed = report.findings.filter((f) => f.severity === 'failure' && f.exchange.case.source === 'cases');
      expect([...new Set(failed.map((f) => `${f.check}: ${f.exchange.case.id}`))]).toEqual([`positive_data_acceptance: cases:${longName.name}`]);
      const finding = failed[0]!;
      expect(finding.message).toMatch(/refused with 400; .*name is longer than 10 characters/);
      expect(finding.exchange.case.description).toMatch(/^POST \/plants as a frontend sent it \(mock journal #\d+, \S+\); the mock answered 200\.$/);
      expect(finding.exchange.case.origin).toMatch(/^frontend\.cases\.json, mock journal #\d+, /);
      const printed = formatReport(report);
      expect(printed).toContain(`positive_data_acceptance: cases:${longName.name}\n   Case:     ${longName.description}\n   From:     ${finding.exchange.case.origin}`);
    });
  });

  it('does the same through the CLI: exit 0 twice against the correct provider, exit 1 naming the case against the flawed one', async () => {
    await withProvider(undefined, async (provider) => {
      for (const run of [1, 2]) {
        const { code, output } = await runContract(['--base-url', provider.url, '--token', PROVIDER_TOKEN, '--generated', '3', '--cases', file]);
        expect(output, `run ${run}`).toMatch(/^PASSED: all 8 checks run passed/m);
        expect(code).toBe(0);
      }
    });
    await withProvider(SHORT_NAMES_ONLY, async (provider) => {
      const { code, output } = await runContract(['--base-url', provider.url, '--token', PROVIDER_TOKEN, '--generated', '3', '--cases', file]);
      expect(output).toMatch(
        new RegExp(
          `\\d+\\) positive_data_acceptance: cases:${longName.name}\\n {3}Case: {5}POST /plants as a frontend sent it \\(mock journal #\\d+, [^)]+\\); the mock answered 200\\.\\n {3}From: {5}frontend\\.cases\\.json, mock journal #\\d+`,
        ),
      );
      expect(output).toContain('Monstera deliciosa');
      expect(output).not.toContain(PROVIDER_TOKEN);
      expect(code).toBe(1);
    });
  });
});

describe("the real service's behaviour, recorded through the proxy (--proxy URL --record DIR)", () => {
  /** The mock's CLI in front of `provider`, recording into a new directory; `send` goes through it. */
  async function recordThrough(
    provider: Provider,
    traffic: (send: (body: string, headers?: Record<string, string>) => Promise<number>) => Promise<void>,
  ): Promise<{ dir: string; text: string; cases: FixtureCase[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'recorded-cases-'));
    const mock = await startMockProcess(['--proxy', provider.url, '--record', dir, '--log-level', 'warn'], { MOCK_STATE_FILE: '' });
    const send = async (body: string, headers: Record<string, string> = {}) => {
      const all: Record<string, string> = { authorization: `Bearer ${PROVIDER_TOKEN}`, 'content-type': 'application/json', ...headers };
      if (all.authorization === '') delete all.authorization; // '' stands for none
      const answer = await fetch(`${mock.url}/plants`, { method: 'POST', headers: all, body });
      await answer.arrayBuffer();
      return answer.status;
    };
    await traffic(send);
    mock.child.kill('SIGTERM'); // the last write happens as it stops
    expect(await mock.exit).toBe(0);
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^recorded-.*\.json$/)]);
    return { dir, text: readFileSync(join(dir, files[0] as string), 'utf8'), cases: loadFixtures(dir) };
  }

  it("records a correct provider's exchanges as cases that load with the suite's loader and pass against it, twice", async () => {
    await withProvider(undefined, async (provider) => {
      const { dir, text, cases } = await recordThrough(provider, async (send) => {
        expect(await send('{"id":9223372036854775807,"name":"Monstera","tag":"tropical"}')).toBe(200);
        expect(await send('{"id":9007199254740993,"name":"Ficus"}')).toBe(200);
        expect(await send('{"id":9007199254740995,"name":"Ficus"}')).toBe(200); // the same shape
        expect(await send('{"id":7,"name":["not","a","string"]}')).toBe(400);
        expect(await send('{"id":8,"name":"No token"}', { authorization: '' })).toBe(401);
        expect(await send('{"id":9,"name":"Revoked"}', { authorization: 'Bearer revoked-token-123456' })).toBe(401); // well-formed: the provider says no
        expect(await send('{"id":10,"name":"Text"}', { 'content-type': 'text/plain' })).toBe(415);
        expect(await send('{"id":9223372036854775807,"name":"Again"}')).toBe(409); // a repeat the spec leaves unsaid: not a case
      });
      expect(text).not.toContain(PROVIDER_TOKEN);
      expect(text).not.toContain('revoked-token');
      expect(cases.map((c) => [c.expect, c.request.id ?? null, c.request.auth])).toEqual([
        ['accepted', 'near-int64-max', 'bearer'],
        ['accepted', 'beyond-2^53', 'bearer'],
        ['rejected-body', 'safe-positive', 'bearer'],
        ['unauthenticated', 'safe-positive', 'none'],
        ['unauthenticated', 'safe-positive', 'invalid-token'],
        ['unsupported-media-type', 'safe-positive', 'bearer'],
      ]);
      for (const c of cases) expect(c.description).toMatch(/^POST \/plants as a frontend sent it \(recording recorded-\S+\.json, exchange #\d+, [^)]+\); /);
      const { description } = JSON.parse(text) as { description: string };
      expect(description).toContain(`Exchanges through the Plant Store mock in front of ${provider.url}`);
      expect(description).toContain('1 valid requests the upstream answered with a status the spec leaves unsaid (409)');
      expectAllPassed(await suite(provider.url, [dir]), cases);
      expectAllPassed(await suite(provider.url, [dir]), cases);
    });
  });

  it('records a departure from the contract as a case that fails against that provider, and says so', async () => {
    await withProvider(SHORT_NAMES_ONLY, async (flawed) => {
      const { dir, cases } = await recordThrough(flawed, async (send) => {
        expect(await send('{"id":1,"name":"Monstera deliciosa"}')).toBe(400); // valid by the spec, refused by the provider
        expect(await send('{"id":2,"name":"Ficus"}')).toBe(200);
      });
      expect(cases.map((c) => c.expect)).toEqual(['accepted', 'accepted']);
      const departure = cases[0]!;
      expect(departure.description).toMatch(
        /the upstream answered 400\. It departs from the contract \(the request is valid by the spec, yet the upstream answered 400\): this case fails against that upstream until it changes\.$/,
      );
      const report = await suite(flawed.url, [dir]);
      const failed = report.findings.filter((f) => f.severity === 'failure' && f.exchange.case.source === 'cases');
      expect([...new Set(failed.map((f) => `${f.check}: ${f.exchange.case.id}`))]).toEqual([`positive_data_acceptance: cases:${departure.name}`]);
      // Against a provider that keeps the contract, the same file passes.
      await withProvider(undefined, async (correct) => expectAllPassed(await suite(correct.url, [dir]), cases));
    });
  });
});
