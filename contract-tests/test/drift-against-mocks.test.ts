/**
 * Spec drift, the contract suite against our own mock (issue 10, section 4): for each variant of
 * the bundled spec, the suite run with the variant passes against the mock started on that same
 * variant, and fails, with the check that names the change, against a mock still on the original
 * spec. (spec-driven.test.ts does the same against the reference providers.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { SPEC_VARIANTS, writeSpecVariant, type SpecVariant } from '../../openapi/test/variants.js';
import { formatReport, runContractSuite, type CheckName, type ContractReport } from '../index.js';

const TOKEN = 'drift-suite-token';
const SEED = 4242;

/** What the suite must say when run with the variant against a mock on the original spec. */
const DRIFT: Record<SpecVariant, { check: CheckName; says: RegExp } | { passes: string }> = {
  'name-max-length': { check: 'negative_data_rejection', says: /maxLength \(50\)/ },
  'required-color': { check: 'negative_data_rejection', says: /color is missing/ },
  'tag-renamed-label': { check: 'response_echoes_request', says: /label/ },
  'api-key': { check: 'positive_data_acceptance', says: /401/ },
  'no-security': { check: 'positive_data_acceptance', says: /401/ },
  'created-201': { check: 'status_code_conformance', says: /201/ },
  // The suite tests every operation: reads added beside createPlant are drift for a mock that does not serve them.
  'get-by-id': { check: 'ensure_resource_availability', says: /answered 404 right after the record was created/ },
  'item-operations': { check: 'ensure_resource_availability', says: /answered 404 right after the record was created/ },
  // Media types match by essence: application/json answers and requests honour a declared charset parameter.
  'json-with-charset': { passes: 'the same media type by essence' },
};

let original: MockServer;
beforeAll(async () => {
  original = await createMockServer({ port: 0, logLevel: 'silent', tokens: [TOKEN] });
});
afterAll(() => original?.close());

const run = (baseUrl: string, spec: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: TOKEN, spec, seed: SEED, generated: { positive: 8, negative: 8 } });

const failed = (report: ContractReport): CheckName[] => report.checks.filter((c) => c.status === 'failed').map((c) => c.name);

describe.each(Object.keys(SPEC_VARIANTS) as SpecVariant[])('the suite with the spec variant %s', (variant) => {
  let spec: string;
  let onVariant: MockServer;
  beforeAll(async () => {
    spec = writeSpecVariant(variant);
    onVariant = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
  });
  afterAll(() => onVariant?.close());

  it('passes against the mock started on the same variant', async () => {
    const report = await run(onVariant.url, spec);
    expect(failed(report), formatReport(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('against a mock on the original spec: fails where the contract changed, or passes where it did not', async () => {
    const report = await run(original.url, spec);
    const expected = DRIFT[variant];
    if ('passes' in expected) {
      expect(report.ok, formatReport(report)).toBe(true);
      return;
    }
    expect(failed(report), formatReport(report)).toContain(expected.check);
    const messages = report.findings.filter((f) => f.check === expected.check && f.severity === 'failure').map((f) => f.message);
    expect(
      messages.some((message) => expected.says.test(message)),
      messages.join('\n'),
    ).toBe(true);
  });
});
