/**
 * Patterns in RE2's own syntax, which the spec's validator reads (openapi/schema/patterns.ts) and V8's
 * RegExp does not: PayPal's invoicing document writes `(?i)^(pay|details)$`. The suite drew its valid
 * strings with `new RegExp(pattern)` and crashed on that document (exit 2: "the suite could not run").
 * Now it generates every operation's cases there, draws strings the spec's validator takes, and
 * judges a provider that honours the pattern as passing and one that refuses valid values as failing.
 */
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { ecmaSubsetOf, linearRegExp } from '../../openapi/schema/patterns.js';
import { generateCases } from '../generated.js';
import { drawableRegExp, validLiterals } from '../generators/schema-values.js';
import { compileSuiteSpec, loadSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const PAYPAL = fileURLToPath(new URL('../../fixtures/real-world/paypal-invoicing/invoicing_v2.json', import.meta.url));

const ACTION = { type: 'string', pattern: '(?i)^(pay|details)$' };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Actions', version: '1' },
  paths: {
    '/actions': {
      post: {
        operationId: 'act',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['action'], properties: { action: ACTION }, additionalProperties: false } } },
        },
        responses: {
          '200': { description: 'done', content: { 'application/json': { schema: { type: 'object', properties: { done: { type: 'boolean' } } } } } },
          '400': { description: 'refused', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
        },
      },
    },
  },
};

describe('a pattern in RE2 syntax', () => {
  it('is drawn from: every string matches the pattern as the spec validator reads it (case-insensitively)', () => {
    expect(drawableRegExp('(?i)^(pay|details)$')).toBeDefined();
    const re2 = linearRegExp(ACTION.pattern, 'u');
    const drawn = fc.sample(validLiterals(ACTION), { seed: 5, numRuns: 50 }).map((l) => JSON.parse(l) as string);
    expect(drawn.every((s) => re2.test(s))).toBe(true);
  });

  it('is read one way by the suite and the mock: what either makes from it, the validator accepts', () => {
    const re2 = linearRegExp(ACTION.pattern, 'u');
    expect(ecmaSubsetOf(ACTION.pattern)?.source).toBe('^(pay|details)$');
    expect(re2.test('PAY')).toBe(true); // the validator reads the flag: case-insensitive
    // The mock's sampler (its answers without an example) made no string of it: randexp refused `(?i)`.
    const made = new PatternStrings().stringFor({ pattern: ACTION.pattern });
    expect(made).toBeDefined();
    expect(re2.test(made as string)).toBe(true);
    expect(new PatternStrings().stringFor({ pattern: '(?s)^a.b$' })).toMatch(/^a[^]b$/);
  });

  it('lets the suite generate every operation of the PayPal invoicing document', () => {
    const spec = loadSuiteSpec(PAYPAL);
    expect(spec.operations.length).toBeGreaterThan(10);
    for (const contract of spec.operations) {
      expect(() => generateCases({ contract, seed: 1225651592, positive: 1, negative: 1, ids: createIdSource(), token: 'tok', invalidToken: 'never' })).not.toThrow();
    }
  }, 120_000);

  it('passes a provider that takes the pattern as RE2 reads it, and fails one that refuses a valid action', async () => {
    const contract = compileSuiteSpec(SPEC, 'actions.json');
    const provider = (only: RegExp) => (request: { json(): unknown }, answer: (status: number, body?: unknown) => void) => {
      const body = request.json() as { action?: unknown } | undefined;
      const ok = body !== null && typeof body === 'object' && Object.keys(body).every((k) => k === 'action') && typeof body.action === 'string' && only.test(body.action);
      if (ok) answer(200, { done: true });
      else answer(400, { message: 'no' });
    };
    const good = await runSuiteAgainst(provider(/^(pay|details)$/i), { token: '', contract, seed: 4, generated: { positive: 10, negative: 10 } });
    expect(good.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    const broken = await runSuiteAgainst(provider(/^$/), { token: '', contract, seed: 4, generated: { positive: 10, negative: 10 } });
    expect(broken.findings.filter((f) => f.severity === 'failure').map((f) => f.check)).toContain('positive_data_acceptance');
  });
});
