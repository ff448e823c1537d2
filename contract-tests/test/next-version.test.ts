/**
 * The suite on a multi-operation spec: the Plant Store's next version (fixtures/specs/plant-store-next),
 * every operation tested, stateful sequences run. Its correct provider passes twice in a row (a
 * long-lived provider: the suite deletes what it created), each legal variant passes twice, and
 * each single-flaw provider fails exactly the check named for its flaw, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSuiteSpec, formatReport, runContractSuite, type ContractReport } from '../index.js';
import { loadContract } from '../../openapi/operations/compile.js';
import { suiteSpecOf } from '../spec-contract.js';
import { NEXT_FLAWS, NEXT_LEGAL, NEXT_REFERENCE, NEXT_SPEC, startNextProvider, type NextBehaviour } from './providers/next-provider.js';
import type { Provider } from './providers/provider.js';

const TOKEN = 'next-token';
const SEED = 20_250_101;
const spec = suiteSpecOf(loadContract(NEXT_SPEC));
const run = (url: string): Promise<ContractReport> => runContractSuite({ baseUrl: url, token: TOKEN, seed: SEED, contract: spec, generated: { positive: 5, negative: 5 } });

const failedChecks = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);

describe('the Plant Store next version, every operation', () => {
  let provider: Provider;
  const reports: ContractReport[] = [];
  beforeAll(async () => {
    provider = await startNextProvider({ token: TOKEN });
    reports.push(await run(provider.url), await run(provider.url));
  });
  afterAll(() => provider?.close());

  it('passes twice in a row against the correct provider, every check judged', () => {
    for (const report of reports) {
      expect(failedChecks(report), formatReport(report)).toEqual([]);
      // Every check the spec gives something to judge: the next version declares no response header.
      expect(report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.name} ${c.status}`)).toEqual(['response_headers_conformance skipped']);
    }
  });

  it('reports per operation what it sent, and deletes what it created', () => {
    const [report] = reports as [ContractReport];
    expect(report.operations.map((o) => o.operationId)).toEqual(['listPlants', 'createPlant', 'findPlantById', 'deletePlant']);
    for (const operation of report.operations) expect(operation.sent, operation.operationId).toBeGreaterThan(5);
    expect(report.cleanedUp?.deleted).toBe(report.cleanedUp?.of);
    const text = formatReport(report);
    expect(text, text).toMatch(/^✓ findPlantById +\d+ +\d+ +0 +0 +GET \/plants\/\{id\}$/m);
    expect(text).toMatch(/^✓ use_after_free /m);
  });

  it('--include-operation and --exclude-operation pick operations by operationId, method and path', async () => {
    const only = await runContractSuite({
      baseUrl: provider.url,
      token: TOKEN,
      seed: SEED,
      contract: spec,
      generated: { positive: 0, negative: 0 },
      includeOperations: ['GET /plants/{id}', 'deletePlant'],
    });
    expect(only.operations.map((o) => o.operationId)).toEqual(['findPlantById', 'deletePlant']);
    expect(only.leftOut.map((o) => `${o.operationId}: ${o.reason}`)).toEqual(['listPlants: not selected with --include-operation', 'createPlant: not selected with --include-operation']);
    const without = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, contract: spec, generated: { positive: 0, negative: 0 }, excludeOperations: ['GET', '/plants'] });
    expect(without.operations.map((o) => o.operationId)).toEqual(['deletePlant']);
    await expect(runContractSuite({ baseUrl: provider.url, token: TOKEN, contract: spec, includeOperations: ['getPet'] })).rejects.toThrow(/No operation of .* matches 'getPet'/);
  });
});

describe.each(Object.entries(NEXT_LEGAL).map(([name, legal]) => ({ name, ...legal })))('a correct provider that $choice ($name)', ({ behaviour }) => {
  it('passes, twice in a row', async () => {
    const provider = await startNextProvider({ token: TOKEN, behaviour: behaviour() });
    try {
      for (let i = 0; i < 2; i++) {
        const report = await run(provider.url);
        expect(failedChecks(report), formatReport(report)).toEqual([]);
      }
    } finally {
      await provider.close();
    }
  });
});

describe.each(Object.entries(NEXT_FLAWS).map(([name, flaw]) => ({ name, ...flaw })))('a provider that $flaw ($name)', ({ caughtBy, says, behaviour }) => {
  let provider: Provider;
  let report: ContractReport;
  beforeAll(async () => {
    provider = await startNextProvider({ token: TOKEN, behaviour: behaviour() as Partial<NextBehaviour> });
    report = await run(provider.url);
  });
  afterAll(() => provider?.close());

  it(`fails ${caughtBy}, and no other check, saying why`, () => {
    expect(report.ok).toBe(false);
    expect(failedChecks(report), formatReport(report)).toEqual([caughtBy]);
    expect(
      report.findings
        .filter((f) => f.check === caughtBy && f.severity === 'failure')
        .map((f) => f.message)
        .join('\n'),
    ).toMatch(says);
  });
});

it('compiles the next spec with every operation', () => {
  expect(compileSuiteSpec(loadContract(NEXT_SPEC).document, 'next').operations.map((o) => o.operationId)).toEqual(['listPlants', 'createPlant', 'findPlantById', 'deletePlant']);
});

describe('every scheme an operation can send', () => {
  const withScheme = (scheme: Record<string, unknown>) => {
    const document = structuredClone(loadContract(NEXT_SPEC).document) as Record<string, any>;
    document.components.securitySchemes = { secured: scheme };
    document.security = [{ secured: [] }];
    // One operation opts out: it gets no auth cases.
    document.paths['/plants/{id}'].delete.security = [];
    return compileSuiteSpec(document, `next with ${JSON.stringify(scheme)}`);
  };
  const basic = Buffer.from('ann:s3cret-pass').toString('base64');
  const schemes: Array<[string, Record<string, unknown>, (req: import('node:http').IncomingMessage) => boolean]> = [
    ['HTTP Basic (--basic)', { type: 'http', scheme: 'basic' }, (req) => /^basic +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] === basic],
    ['an API key in the query', { type: 'apiKey', in: 'query', name: 'api_key' }, (req) => new URL(req.url ?? '/', 'http://x').searchParams.getAll('api_key').join() === TOKEN],
    ['an API key in a cookie', { type: 'apiKey', in: 'cookie', name: 'session' }, (req) => /(?:^|;\s*)session=([^;]*)/.exec(req.headers.cookie ?? '')?.[1] === TOKEN],
    [
      'oauth2, as a bearer token',
      { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: {} } } },
      (req) => /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] === TOKEN,
    ],
  ];
  it.each(schemes)(
    '%s: sent as the scheme says (accepted), and a provider that ignores it fails ignored_auth',
    async (_name, scheme, check) => {
      const spec = withScheme(scheme);
      expect(spec.operations.find((o) => o.operationId === 'deletePlant')?.security.kind).toBe('none');
      // The reads and the delete: the body walk of createPlant is the other tests' business.
      const options = { token: TOKEN, basic: 'ann:s3cret-pass', seed: SEED, contract: spec, generated: { positive: 0, negative: 0 }, excludeOperations: ['createPlant'] };
      const honest = await startNextProvider({ token: TOKEN, behaviour: { authorize: (req, _token, operation) => operation === 'delete' || check(req) } });
      const careless = await startNextProvider({ token: TOKEN, behaviour: { authorize: () => true } });
      try {
        const good = await runContractSuite({ ...options, baseUrl: honest.url });
        expect(failedChecks(good), formatReport(good)).toEqual([]);
        expect(good.exchanges.filter((x) => x.case.operationId === 'deletePlant' && x.case.id.includes('/auth-'))).toEqual([]);
        expect(good.exchanges.filter((x) => x.case.operationId === 'listPlants' && x.case.id.includes('/auth-')).length).toBeGreaterThan(3);
        const text = formatReport(good);
        expect(text).not.toContain('s3cret-pass');
        expect(text).not.toContain(basic);
        const bad = await runContractSuite({ ...options, baseUrl: careless.url });
        expect(failedChecks(bad)).toEqual(['ignored_auth']);
      } finally {
        await honest.close();
        await careless.close();
      }
    },
    60_000,
  );
});

describe('a run that judges nothing or is refused everything', () => {
  it('says first "every valid request was refused — check --token" when every valid request got 401', async () => {
    const provider = await startNextProvider({ token: 'the-real-token' });
    try {
      const report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, contract: spec, generated: { positive: 0, negative: 0 } });
      const text = formatReport(report);
      expect(text.split('\n')[0]).toMatch(/^!!! every valid request was refused — check --token/);
      expect(report.ok).toBe(false);
    } finally {
      await provider.close();
    }
  });

  it('fails a check it was asked for that judged nothing, saying so', async () => {
    // Refuses every body as invalid: nothing is created, so nothing can be echoed.
    const provider = await startNextProvider({ token: TOKEN, behaviour: { authorize: (req, token, operation) => operation !== 'create' && NEXT_REFERENCE.authorize(req, token, operation) } });
    try {
      const report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, contract: spec, checks: ['response_echoes_request'], generated: { positive: 0, negative: 0 } });
      expect(report.checks.find((c) => c.name === 'response_echoes_request')?.status).toBe('not-judged');
      expect(report.ok).toBe(false);
      expect(formatReport(report)).toMatch(/^FAILED: .*1 check\(s\) not judged: no answer gave them anything to judge \(response_echoes_request\), which fails the run/m);
    } finally {
      await provider.close();
    }
  });
});
