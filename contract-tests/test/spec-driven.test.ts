/**
 * The suite follows the spec it is given (issue 10, section 3): for each variant of the bundled
 * spec, a provider built on that variant passes, a provider on the original spec fails where the
 * contract changed (drift is caught), generated cases cover the variant's properties and
 * constraints on both sides, and fixture cases that no longer fit are skipped with the reason.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { SPEC_PATH } from '../../openapi/plant-store.js';
import { generateCases } from '../generated.js';
import { resolveOptions } from '../options.js';
import { compileSuiteContract, formatReport, runContractSuite, type CheckName, type ContractReport, type SuiteContract } from '../index.js';
import { runContract } from './contract-command.js';
import { rawHeaderValues, REFERENCE, startProvider, type Behaviour, type Provider } from './providers/provider.js';

const TOKEN = 'spec-token';
const SEED = 777;

type Doc = Record<string, any>;
const bundled = (): Doc => parseYaml(readFileSync(SPEC_PATH, 'utf8')) as Doc;

interface Variant {
  name: string;
  edit(doc: Doc): void;
  /** What the suite must say against a provider still on the original spec. */
  drift?: { check: CheckName; message: RegExp };
  /** Generated case labels the variant must bring (family-label). */
  generates?: string[];
  /** Fixture cases that must be skipped as no longer fitting, and why. */
  unfit?: Array<[caseId: string, reason: RegExp]>;
  /** --header values the run needs (a key the spec requires alongside the token). */
  headers?: Record<string, string>;
}

const VARIANTS: Variant[] = [
  {
    name: 'maxLength 50 on name',
    edit: (doc) => void (doc.components.schemas.Plant.properties.name.maxLength = 50),
    drift: { check: 'negative_data_rejection', message: /name is one character past maxLength \(50\)/ },
    generates: ['value-name-max-length', 'value-name-above-max-length', 'value-name-max-length-astral'],
  },
  {
    name: 'a new required string color',
    edit: (doc) => {
      const plant = doc.components.schemas.Plant;
      plant.properties.color = { type: 'string', enum: ['green', 'variegated'] };
      plant.required.push('color');
    },
    drift: { check: 'negative_data_rejection', message: /color is missing, and the spec requires it/ },
    generates: ['value-color-enum-0', 'value-color-enum-outside', 'required-color-absent'],
    unfit: [['fixture:tagged-plant', /its body is not a valid NewPlant by the spec/]],
  },
  {
    name: 'tag renamed label',
    edit: (doc) => {
      const plant = doc.components.schemas.Plant;
      plant.properties.label = plant.properties.tag;
      delete plant.properties.tag;
    },
    drift: { check: 'response_echoes_request', message: /The answer has no label, but the request sent label/ },
    generates: ['string-label-astral-10000'],
  },
  {
    name: 'an integer with bounds (stock 0 to 500)',
    edit: (doc) => void (doc.components.schemas.Plant.properties.stock = { type: 'integer', format: 'int32', minimum: 0, maximum: 500 }),
    drift: { check: 'negative_data_rejection', message: /stock is one past the maximum \(501\)/ },
    generates: ['value-stock-minimum', 'value-stock-below-minimum', 'value-stock-maximum', 'value-stock-above-maximum', 'value-stock-type-string'],
  },
  {
    name: 'a pattern and a format',
    edit: (doc) => {
      doc.components.schemas.Plant.properties.sku = { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' };
      doc.components.schemas.Plant.properties.planted = { type: 'string', format: 'date' };
    },
    drift: { check: 'negative_data_rejection', message: /sku is a string the pattern/ },
    generates: ['value-sku-pattern-match', 'value-sku-pattern-miss', 'value-planted-format-date', 'value-planted-not-format-date'],
  },
  {
    name: 'media types with parameters (application/json; charset=utf-8)',
    edit: (doc) => {
      const withCharset = (content: Record<string, unknown>) => ({ 'application/json; charset=utf-8': content['application/json'] });
      const post = doc.paths['/plants'].post;
      post.requestBody.content = withCharset(post.requestBody.content);
      for (const response of Object.values(post.responses) as Doc[]) if (response.content?.['application/json']) response.content = withCharset(response.content);
    },
    generates: ['value-name-type-number'],
  },
  {
    name: 'apiKey security',
    edit: (doc) => {
      doc.components.securitySchemes = { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } };
      doc.security = [{ apiKey: [] }];
    },
    drift: { check: 'positive_data_acceptance', message: /refused with 401/ },
    generates: ['auth-header-name-upper-case', 'auth-empty-key', 'auth-key-as-bearer', 'auth-token-with-suffix'],
    unfit: [['fixture:basic-scheme', /exact Authorization value, which only means something under a bearer scheme; the spec's scheme apiKey is an API key in x-api-key/]],
  },
  {
    name: 'a bearer token and an API key required together (one requirement object)',
    edit: (doc) => {
      doc.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
      doc.security = [{ bearerAuth: [], apiKey: [] }];
    },
    headers: { 'X-Api-Key': 'partner-key-17' },
    drift: {
      check: 'ignored_auth',
      message: /Answered 200 to a request with Authorization: Bearer <token> and no x-api-key header; createPlant requires a valid bearer token and a valid API key in x-api-key/,
    },
    generates: ['auth-without-x-api-key', 'auth-wrong-x-api-key', 'auth-token-other-case'],
  },
  {
    name: 'no security',
    edit: (doc) => void (doc.security = []),
    drift: { check: 'positive_data_acceptance', message: /refused with 401/ },
    unfit: [['fixture:invalid-token', /the spec declares no security for createPlant/]],
  },
  {
    name: '201 as the success status',
    edit: (doc) => {
      const responses = doc.paths['/plants'].post.responses;
      responses['201'] = responses['200'];
      delete responses['200'];
    },
    drift: { check: 'status_code_conformance', message: /Accepted a valid body with 200; the spec's success status is 201 exactly/ },
  },
  {
    name: 'an added GET /plants/{id}',
    edit: (doc) =>
      void (doc.paths['/plants/{id}'] = {
        get: {
          operationId: 'getPlant',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
          responses: { '200': { description: 'A plant', content: { 'application/json': { schema: { $ref: '#/components/schemas/Plant' } } } } },
        },
      }),
  },
];

/** The keys a provider on a variant issued for the schemes required alongside the token. */
const ALONGSIDE_KEYS: Record<string, string> = { 'x-api-key': 'partner-key-17' };

/** A provider built on `contract`: its validator, its declared answer, its success status and its security. */
function onSpec(contract: SuiteContract): Partial<Behaviour> {
  const declared = contract.responses.get(contract.successStatus ?? 200)?.properties ?? [];
  const { security } = contract;
  return {
    validate: (value) => (contract.requestBody?.validate(value) ? undefined : 'Not a valid body.'),
    plant: (value) => Object.fromEntries(declared.filter((name) => name in value).map((name) => [name, value[name]])),
    successStatus: contract.successStatus ?? 200,
    authorize: (req, token) =>
      security.kind === 'none'
        ? true
        : (security.kind === 'api-key' ? rawHeaderValues(req, security.header).length === 1 && req.headers[security.header] === token : REFERENCE.authorize(req, token)) &&
          security.alongside.every((key) => rawHeaderValues(req, key.header).length === 1 && req.headers[key.header] === ALONGSIDE_KEYS[key.header]),
  };
}

function variantDoc(variant: Variant): Doc {
  const doc = bundled();
  variant.edit(doc);
  return doc;
}

describe.each(VARIANTS)('the spec with $name', (variant) => {
  const contract = compileSuiteContract(variantDoc(variant), `variant: ${variant.name}`);
  let onVariant: Provider;
  let onOriginal: Provider;
  const passing: ContractReport[] = [];
  let drifted: ContractReport;
  beforeAll(async () => {
    onVariant = await startProvider({ token: TOKEN, behaviour: onSpec(contract) });
    onOriginal = await startProvider({ token: TOKEN });
    const headers = variant.headers ?? {};
    for (let run = 0; run < 2; run++) passing.push(await runContractSuite({ baseUrl: onVariant.url, token: TOKEN, headers, contract, seed: SEED, generated: { positive: 10, negative: 10 } }));
    drifted = await runContractSuite({ baseUrl: onOriginal.url, token: TOKEN, headers, contract, seed: SEED, generated: { positive: 10, negative: 10 } });
  });
  afterAll(async () => {
    await onVariant?.close();
    await onOriginal?.close();
  });

  it('generates only cases the variant agrees with, and covers its properties and constraints', () => {
    const generation = generateCases({ contract, seed: SEED, positive: 20, negative: 20, ids: createIdSource(), token: TOKEN, invalidToken: 'never-issued' });
    // Domain samples a constraint rules out are the constraint cases' to cover; nothing else is left out.
    expect(generation.excluded.filter((e) => !e.reason.includes('domain walk')).map((e) => `${e.case.family}-${e.case.label}: ${e.reason}`)).toEqual([]);
    const labels = generation.cases.map((c) => `${c.family}-${c.label}`);
    expect(labels).toEqual(expect.arrayContaining(variant.generates ?? []));
    for (const property of contract.requestBody?.properties ?? []) expect(labels.some((l) => l.startsWith(`value-${property.name}-`) || l.startsWith(`required-${property.name}-`))).toBe(true);
  });

  it('passes, twice in a row, against a provider on the same spec', () => {
    for (const report of passing) {
      expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
      expect(report.ok).toBe(true);
    }
  });

  if (variant.drift) {
    const { check, message } = variant.drift;
    it(`fails ${check} against a provider still on the original spec`, () => {
      expect(drifted.ok).toBe(false);
      const failures = drifted.findings.filter((f) => f.check === check && f.severity === 'failure').map((f) => f.message);
      expect(failures.join('\n')).toMatch(message);
    });
  }

  it('skips the fixture cases that no longer fit, with the reason, and runs the rest', () => {
    const text = formatReport(passing[0] as ContractReport);
    for (const [caseId, reason] of variant.unfit ?? []) {
      const skipped = passing[0]?.exchanges.find((x) => x.case.id === caseId);
      expect(skipped?.outcome).toBe('not-sent');
      expect(skipped?.outcome === 'not-sent' && skipped.reason).toMatch(/^the case no longer fits the spec: /);
      expect(skipped?.outcome === 'not-sent' && skipped.reason).toMatch(reason);
      expect(text).toContain(caseId);
    }
    expect(passing[0]?.exchanges.filter((x) => x.case.source === 'fixture' && x.outcome === 'response').length).toBeGreaterThan(0);
  });
});

describe('a requirement object naming two schemes (AND)', () => {
  const together = (schemes: Doc, requirement: Doc): Doc => {
    const doc = bundled();
    Object.assign(doc.components.securitySchemes, schemes);
    doc.security = [requirement];
    return doc;
  };

  it('asks for the key sent alongside the token before anything is sent', () => {
    const contract = compileSuiteContract(together({ apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } }, { bearerAuth: [], apiKey: [] }), 'variant: and');
    expect(contract.security).toMatchObject({ kind: 'bearer', alongside: [{ name: 'apiKey', header: 'x-api-key' }] });
    expect(() => resolveOptions({ baseUrl: 'http://127.0.0.1:1', token: TOKEN, contract })).toThrow(
      /requires the API key apiKey \(in x-api-key\) together with bearerAuth: pass it with --header 'x-api-key: <key>'/,
    );
    expect(resolveOptions({ baseUrl: 'http://127.0.0.1:1', token: TOKEN, contract, headers: { 'X-Api-Key': 'k' } }).headers).toEqual({ 'x-api-key': 'k' });
  });

  it('refuses two bearer schemes together: one Authorization header carries one token', () => {
    expect(() => compileSuiteContract(together({ otherBearer: { type: 'http', scheme: 'bearer' } }, { bearerAuth: [], otherBearer: [] }), 'variant: two bearers')).toThrow(
      /requires bearerAuth and otherBearer together/,
    );
  });
});

describe('a schema combining constraints the generators do not model (stock 0 to 500, but not 500)', () => {
  const doc = bundled();
  doc.components.schemas.Plant.properties.stock = { type: 'integer', minimum: 0, maximum: 500, not: { const: 500 } };
  const contract = compileSuiteContract(doc, 'variant: not 500');

  it('moves the contradicted cases to excluded with the reason, reports them as not sent, and runs the rest', async () => {
    const generation = generateCases({ contract, seed: SEED, positive: 10, negative: 10, ids: createIdSource(), token: TOKEN, invalidToken: 'never-issued' });
    const maximum = generation.excluded.find((e) => e.case.label === 'stock-maximum');
    expect(maximum?.reason).toMatch(/^excluded: meant as a valid NewPlant, but the spec's validator rejects it/);
    expect(generation.cases.some((c) => c.label === 'stock-maximum')).toBe(false);
    const provider = await startProvider({ token: TOKEN, behaviour: onSpec(contract) });
    try {
      const report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, contract, seed: SEED, generated: { positive: 10, negative: 10 } });
      const excluded = report.exchanges.find((x) => x.case.id === 'generated:value-stock-maximum');
      expect(excluded?.outcome).toBe('not-sent');
      expect(excluded?.outcome === 'not-sent' && excluded.reason).toMatch(/^excluded: meant as a valid NewPlant/);
      expect(formatReport(report)).toMatch(/every check, \d+ case\(s\): .*generated:value-stock-maximum.*: excluded: meant as a valid NewPlant, but the spec's validator rejects it/);
      expect(report.exchanges.filter((x) => x.outcome === 'response').length).toBeGreaterThan(200);
      expect(report.ok).toBe(true);
    } finally {
      await provider.close();
    }
  });
});

describe('--spec on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spec-variants-'));
  // The command line in this process (contract-command.ts), the exported settings given as the shell would.
  const run = runContract;

  it('reports fixture cases the edited spec no longer fits as skipped, never a FixtureError (PLANT_STORE_SPEC works too)', async () => {
    const variant = VARIANTS[1] as Variant;
    const path = join(dir, 'color.yaml');
    writeFileSync(path, JSON.stringify(variantDoc(variant)));
    const provider = await startProvider({ token: TOKEN, behaviour: onSpec(compileSuiteContract(variantDoc(variant), path)) });
    try {
      const { code, output } = await run(['--base-url', provider.url, '--token', TOKEN, '--generated', '3'], { PLANT_STORE_SPEC: path });
      expect(output).toContain(`Spec: ${path}`);
      expect(output).toMatch(/every check, 10 case\(s\): fixture:tagged-plant, .*: the case no longer fits the spec: its body is not a valid NewPlant/);
      expect(output).not.toMatch(/FixtureError|at .*\.js:\d+/);
      expect(output).toMatch(/^PASSED: /m);
      expect(code).toBe(0);
    } finally {
      await provider.close();
    }
  });

  it.each([
    ['a missing file', 'nope.yaml', '', /Cannot read the OpenAPI document .*nope\.yaml/],
    ['not YAML', 'broken.yaml', 'openapi: [3.1', /is not valid YAML or JSON/],
    [
      'no operation it can test',
      'other.yaml',
      JSON.stringify({ openapi: '3.1.0', paths: { '/x': { get: { operationId: 'other', responses: { '404': { description: 'none' } } } } } }),
      /No operation of .*other\.yaml is left to test \(other: .*declares no 2xx response/,
    ],
    [
      'basic auth without --basic',
      'basic.yaml',
      JSON.stringify({ ...bundled(), components: { ...bundled().components, securitySchemes: { bearerAuth: { type: 'http', scheme: 'basic' } } } }),
      /createPlant is secured by HTTP Basic \(bearerAuth\): pass --basic user:password/,
    ],
    [
      'only mutual TLS',
      'mtls.yaml',
      JSON.stringify({ ...bundled(), components: { ...bundled().components, securitySchemes: { bearerAuth: { type: 'mutualTLS' } } } }),
      /bearerAuth \(mutualTLS\) of createPlant is not one the suite can send/,
    ],
  ])('exits 2 naming the problem for %s', async (_what, file, content, message) => {
    const path = join(dir, file);
    if (content) writeFileSync(path, content);
    const { code, output } = await run(['--base-url', 'http://127.0.0.1:9', '--token', TOKEN, '--spec', path]);
    expect(output).toMatch(message);
    expect(output).not.toMatch(/\n\s+at /);
    expect(code).toBe(2);
  });
});
