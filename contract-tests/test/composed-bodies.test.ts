/**
 * Bodies the generators must compose (QA item 6): a `oneOf` of two objects told apart by a
 * `discriminator`, a 3.1 `const`, a tuple (`prefixItems`, `items: false`) and a type list. Valid
 * bodies are generated for each, so the auth and acceptance cases are sent; a provider that skips
 * auth on the operation fails, the mock passes. Where no valid body can be made (a schema no value
 * satisfies), positive_data_acceptance is not judged — which fails the run — and the credential
 * cases still go out with the best body there is: a success to them fails.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { createIdSource } from '../../fixtures/index.js';
import { generateCases } from '../generated.js';
import { compileSuiteContract, formatReport, runContractSuite, type ContractReport } from '../index.js';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import { parse as parseYaml } from 'yaml';
import { runSuiteAgainst } from './providers/small-provider.js';

const TOKEN = 'till-token';
const SEED = 4_711;

/** A till taking card or bank payments (one oneOf, told apart by `method`), bearer required. */
function tillSpec(security: 'bearer' | 'none', payment: Record<string, unknown> = DISCRIMINATED): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Till', version: '1' },
    paths: {
      '/charges': {
        post: {
          operationId: 'charge',
          security: security === 'bearer' ? [{ bearer: [] }] : [],
          requestBody: { required: true, content: { 'application/json': { schema: payment } } },
          responses: {
            '202': { description: 'accepted', content: { 'application/json': { schema: { type: 'object', required: ['chargeId'], properties: { chargeId: { type: 'string' } } } } } },
            default: { description: 'problem', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
          },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Card: { type: 'object', required: ['method', 'pan'], properties: { method: { type: 'string', enum: ['card'] }, pan: { type: 'string', pattern: '^[0-9]{12}$' } } },
        Bank: { type: 'object', required: ['method', 'account'], properties: { method: { type: 'string' }, account: { type: 'string', minLength: 4 } } },
      },
    },
  });
}

const DISCRIMINATED = {
  oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Bank' }],
  discriminator: { propertyName: 'method', mapping: { card: '#/components/schemas/Card', transfer: '#/components/schemas/Bank' } },
};

/** 3.1: a const, a tuple, a type list; records at /clicks read back at /clicks/{id}. */
const CLICKS = `
openapi: 3.1.0
info: {title: Clicks, version: '1'}
paths:
  /clicks:
    post:
      operationId: createClick
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Click'}}}}
      responses: {'201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Click'}}}}}
  /clicks/{id}:
    get:
      operationId: getClick
      parameters: [{name: id, in: path, required: true, schema: {type: integer, format: int64}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Click'}}}}
        '404': {description: missing}
components:
  schemas:
    Click:
      type: object
      required: [id, kind, at]
      unevaluatedProperties: false
      properties:
        id: {type: integer, format: int64}
        kind: {const: click}
        at: {type: string, format: date-time}
        point: {type: array, prefixItems: [{type: number}, {type: number}], items: false}
        label: {type: [string, 'null'], maxLength: 5}
`;

/**
 * A home whose resident is a discriminated union inside the body (3.0: no mapping, so each
 * component's name selects it; Cat and Dog overlap, so a plain oneOf of them refuses a body that is
 * both), and whose pet is an anyOf with a mapping to one branch and the other branch's own enum.
 */
const HOMES = `
openapi: 3.0.3
info: {title: Homes, version: '1'}
paths:
  /homes:
    post:
      operationId: addHome
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [resident, pet]
              properties:
                resident:
                  oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
                  discriminator: {propertyName: kind}
                pet:
                  anyOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Fish'}]
                  discriminator: {propertyName: kind, mapping: {moggy: Cat}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {type: object}}}}
components:
  schemas:
    Cat:
      type: object
      required: [kind]
      properties: {kind: {type: string}, lives: {type: integer, minimum: 1, maximum: 9}}
    Dog:
      type: object
      required: [kind]
      properties: {kind: {type: string}, bones: {type: integer, minimum: 0}}
    Fish:
      type: object
      required: [kind, water]
      properties: {kind: {type: string, enum: [trout, carp]}, water: {type: string, enum: [fresh, salt]}}
`;

/** A charge paid by the discriminated card or bank (a oneOf) and delivered by pickup or to an address (another oneOf): both unions inside one allOf. */
const PAID_AND_DELIVERED = {
  type: 'object',
  required: ['item'],
  properties: { item: { type: 'string', minLength: 1 } },
  allOf: [
    DISCRIMINATED,
    {
      oneOf: [
        { type: 'object', required: ['pickup'], properties: { pickup: { type: 'boolean' } } },
        { type: 'object', required: ['address'], properties: { address: { type: 'string', minLength: 3 } } },
      ],
    },
  ],
};

/** A charge whose required list of address lines, each a text or a code (a oneOf), sits five objects deep. */
const nested = (inner: unknown, ...names: string[]): unknown => names.reduceRight<unknown>((schema, name) => ({ type: 'object', required: [name], properties: { [name]: schema } }), inner);
const DEEP_LINES = nested(
  {
    type: 'array',
    minItems: 1,
    items: {
      oneOf: [
        { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } }, additionalProperties: false },
        { type: 'object', required: ['code'], properties: { code: { type: 'integer', minimum: 1 } }, additionalProperties: false },
      ],
    },
  },
  'order',
  'delivery',
  'customer',
  'address',
  'lines',
);

/** The address lines of a DEEP_LINES charge, or undefined where there are none. */
function deepLines(body: unknown): unknown[] | undefined {
  let at: unknown = body;
  for (const name of ['order', 'delivery', 'customer', 'address', 'lines']) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined;
  return Array.isArray(at) && at.length > 0 ? at : undefined;
}

/** What a provider of PAID_AND_DELIVERED finds in a charge: how it is paid and how delivered, or undefined for a body that is no valid charge. */
function paidAndDelivered(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const charge = body as Record<string, unknown>;
  const paid =
    charge.method === 'card' && typeof charge.pan === 'string' && /^[0-9]{12}$/.test(charge.pan)
      ? 'card'
      : charge.method === 'transfer' && typeof charge.account === 'string' && charge.account.length >= 4
        ? 'transfer'
        : undefined;
  const pickup = typeof charge.pickup === 'boolean';
  const address = typeof charge.address === 'string' && charge.address.length >= 3;
  if (typeof charge.item !== 'string' || charge.item === '' || paid === undefined || pickup === address) return undefined;
  return `${paid} ${pickup ? 'pickup' : 'address'}`;
}

describe('generated bodies for composed schemas', () => {
  it('a discriminated union inside the body: valid bodies of every branch, each with a value that selects it (implicit names, a mapping, a branch enum)', () => {
    const contract = compileSuiteContract(parseYaml(HOMES), 'homes.yaml', 'addHome');
    const generation = generateCases({ contract, seed: SEED, positive: 40, negative: 10, ids: createIdSource(), token: '', invalidToken: 'nope' });
    const valid = generation.cases.filter((c) => c.family === 'random-valid').map((c) => JSON.parse(c.body as string) as { resident: { kind: string }; pet: { kind: string } });
    expect(valid).toHaveLength(40);
    for (const body of valid) expect(contract.requestBody?.validate(body), JSON.stringify(body)).toBe(true);
    expect(new Set(valid.map((body) => body.resident.kind))).toEqual(new Set(['Cat', 'Dog']));
    expect(new Set(valid.map((body) => body.pet.kind))).toEqual(new Set(['moggy', 'trout', 'carp']));
    expect(generation.excluded.filter((x) => /validator rejects/.test(x.reason)).map((x) => x.case.label)).toEqual([]);
  });

  it('a oneOf with a discriminator: valid bodies of both branches, each with its mapping value, the auth cases not excluded', () => {
    const contract = compileSuiteContract(JSON.parse(tillSpec('bearer')), 'till.json', 'charge');
    const generation = generateCases({ contract, seed: SEED, positive: 30, negative: 10, ids: createIdSource(), token: TOKEN, invalidToken: 'nope' });
    const accepted = generation.cases.filter((c) => c.expect === 'accepted' && typeof c.body === 'string' && c.contentType === undefined);
    expect(accepted.length).toBeGreaterThan(10);
    for (const kase of accepted) expect(contract.requestBody?.validate(parseExactJson(kase.body as string)), `${kase.label}: ${String(kase.body)}`).toBe(true);
    const methods = new Set(generation.cases.filter((c) => c.family === 'random-valid').map((c) => (JSON.parse(c.body as string) as { method: string }).method));
    expect([...methods].sort()).toEqual(['card', 'transfer']);
    const auth = generation.cases.filter((c) => c.family === 'auth' && c.expect === 'unauthenticated');
    expect(auth.map((c) => c.label)).toContain('no-credential');
    expect(auth.every((c) => c.bodyNotValid === undefined)).toBe(true);
    expect(generation.excluded.filter((x) => x.case.family === 'auth')).toEqual([]);
  });

  it('a const, a tuple and a type list: valid bodies, and both sides of the const', () => {
    const contract = compileSuiteContract(parseYaml(CLICKS), 'clicks.yaml', 'createClick');
    const generation = generateCases({ contract, seed: SEED, positive: 20, negative: 5, ids: createIdSource(), token: '', invalidToken: 'nope' });
    const labels = generation.cases.map((c) => `${c.family}-${c.label}`);
    expect(labels).toEqual(expect.arrayContaining(['value-kind-const', 'value-kind-const-other', 'probe-first', 'required-point-absent']));
    expect(generation.cases.filter((c) => c.family === 'random-valid')).toHaveLength(20);
    expect(generation.excluded.filter((x) => /validator rejects/.test(x.reason)).map((x) => x.case.label)).toEqual([]);
  });
});

describe('composed bodies against providers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'composed-bodies-'));
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const SECURED = write('till.json', tillSpec('bearer'));
  const mocks: MockServer[] = [];
  const start = async (spec: string, tokens?: string[]): Promise<MockServer> => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, ...(tokens ? { tokens } : {}) });
    mocks.push(mock);
    return mock;
  };
  const check = (report: ContractReport, name: string) => report.checks.find((c) => c.name === name);
  afterAll(async () => {
    for (const mock of mocks) await mock.close();
  });

  let honest: ContractReport;
  let careless: ContractReport;
  beforeAll(async () => {
    const run = async (served: string): Promise<ContractReport> => {
      const mock = await start(served, [TOKEN]);
      return runContractSuite({ baseUrl: mock.url, token: TOKEN, spec: SECURED, seed: SEED, generated: { positive: 10, negative: 10 } });
    };
    honest = await run(SECURED);
    careless = await run(write('till-noauth.json', tillSpec('none')));
  });

  it('the mock on the spec passes, every credential case and valid body judged', () => {
    expect(honest.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(check(honest, 'ignored_auth')?.status).toBe('passed');
    expect(check(honest, 'ignored_auth')?.judged).toBeGreaterThan(5);
    expect(check(honest, 'positive_data_acceptance')?.judged).toBeGreaterThan(10);
    expect(honest.ok).toBe(true);
  });

  it('a provider that ignores auth on the oneOf operation fails ignored_auth', () => {
    const failed = careless.findings.filter((f) => f.check === 'ignored_auth' && f.severity === 'failure').map((f) => f.exchange.case.id);
    expect(failed).toContain('generated:auth-no-credential');
    expect(careless.ok).toBe(false);
  });

  it('discriminated unions inside the body: the mock passes, every valid body accepted', async () => {
    const mock = await start(write('homes.yaml', HOMES));
    const report = await runContractSuite({ baseUrl: mock.url, token: '', spec: join(dir, 'homes.yaml'), seed: SEED, generated: { positive: 10, negative: 10 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(check(report, 'positive_data_acceptance')?.judged).toBeGreaterThan(5);
    expect(report.ok).toBe(true);
  });

  it('a 3.1 const: the stateful sequence runs against the mock', async () => {
    const mock = await start(write('clicks.yaml', CLICKS));
    const report = await runContractSuite({ baseUrl: mock.url, token: '', spec: join(dir, 'clicks.yaml'), seed: SEED, generated: { positive: 5, negative: 5 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(check(report, 'ensure_resource_availability')?.judged).toBeGreaterThan(0);
    expect(check(report, 'resource_consistency')?.judged).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it('two unions inside one allOf: valid bodies of every pairing are sent, a provider refusing one pairing fails, one taking all passes', async () => {
    // Before, the allOf's second union replaced the first when the parts were merged: no valid body was made, positive_data_acceptance was not judged.
    const spec = write('till-delivered.json', tillSpec('none', PAID_AND_DELIVERED));
    const seen = new Set<string>();
    const options = { token: TOKEN, spec, seed: SEED, generated: { positive: 30, negative: 5 } };
    const honestProvider = await runSuiteAgainst((request, answer) => {
      const kind = paidAndDelivered(request.json());
      if (kind) seen.add(kind);
      answer(kind ? 202 : 400, kind ? { chargeId: 'c1' } : { message: 'no' });
    }, options);
    expect(honestProvider.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(check(honestProvider, 'positive_data_acceptance')?.judged).toBeGreaterThan(10);
    expect([...seen].sort()).toEqual(['card address', 'card pickup', 'transfer address', 'transfer pickup']);
    const noTransfersToAddresses = await runSuiteAgainst((request, answer) => {
      const kind = paidAndDelivered(request.json());
      answer(kind && kind !== 'transfer address' ? 202 : 400, { message: 'no' });
    }, options);
    expect(noTransfersToAddresses.findings.some((f) => f.check === 'positive_data_acceptance' && f.severity === 'failure')).toBe(true);
    expect(noTransfersToAddresses.ok).toBe(false);
    const mock = await start(spec);
    const report = await runContractSuite({ ...options, baseUrl: mock.url, token: '' });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(check(report, 'positive_data_acceptance')?.judged).toBeGreaterThan(10);
  });

  it('a required list five objects deep, its items a union: valid bodies are sent, a provider refusing every body fails', async () => {
    // Before, past three levels an array's items were written as null (and a union not expanded): no valid body, positive_data_acceptance not judged.
    const spec = write('till-deep.json', tillSpec('none', DEEP_LINES as Record<string, unknown>));
    const options = { token: TOKEN, spec, seed: SEED, generated: { positive: 20, negative: 5 } };
    let lines = 0;
    const honestProvider = await runSuiteAgainst((request, answer) => {
      const found = deepLines(request.json());
      lines += found?.length ?? 0;
      answer(found ? 202 : 400, found ? { chargeId: 'c1' } : { message: 'no' });
    }, options);
    expect(honestProvider.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(check(honestProvider, 'positive_data_acceptance')?.judged).toBeGreaterThan(10);
    expect(lines).toBeGreaterThan(10);
    const refusing = await runSuiteAgainst((_request, answer) => answer(400, { message: 'no' }), options);
    expect(refusing.findings.some((f) => f.check === 'positive_data_acceptance' && f.severity === 'failure')).toBe(true);
  });

  it('no valid body to be had: positive_data_acceptance is not judged (the run fails), and a success without a credential still fails', async () => {
    // `not` of the object's own required property: no body satisfies it.
    const impossible = { type: 'object', required: ['note'], properties: { note: { type: 'string' } }, not: { required: ['note'] } };
    const spec = write('till-impossible.json', tillSpec('bearer', impossible));
    const refusing = await start(spec, [TOKEN]);
    const report = await runContractSuite({ baseUrl: refusing.url, token: TOKEN, spec, seed: SEED, generated: { positive: 5, negative: 5 } });
    expect(check(report, 'positive_data_acceptance')?.status).toBe('not-judged');
    expect(report.ok).toBe(false);
    expect(formatReport(report)).toMatch(/not judged: no answer gave them anything to judge \(positive_data_acceptance\)/);
    // The mock refuses a missing credential with 401 before it reads the body: judged, and passed.
    expect(check(report, 'ignored_auth')?.failed).toBe(0);
    expect(check(report, 'ignored_auth')?.judged).toBeGreaterThan(0);

    const open = await start(write('till-impossible-noauth.json', tillSpec('none', impossible)), [TOKEN]);
    const against = await runContractSuite({ baseUrl: open.url, token: TOKEN, spec, seed: SEED, generated: { positive: 5, negative: 5 } });
    // The mock without auth refuses the invalid body with 400: only info, since validation may come first.
    expect(check(against, 'ignored_auth')?.failed).toBe(0);
    expect(against.findings.some((f) => f.check === 'ignored_auth' && f.severity === 'info' && /may be the body's/.test(f.message))).toBe(true);

    // A provider that accepts every request, credential or not: the credential cases fail, invalid body or not.
    const accepting = await runSuiteAgainst((_request, answer) => answer(202, { chargeId: 'c1' }), { token: TOKEN, spec, seed: SEED, generated: { positive: 5, negative: 5 } });
    const failed = accepting.findings.filter((f) => f.check === 'ignored_auth' && f.severity === 'failure').map((f) => f.exchange.case.id);
    expect(failed).toContain('generated:auth-no-credential');
  });
});
