/**
 * A response schema no value can match (pi-hole's set_blocking 400: `allOf [oneOf [no_payload,
 * item_missing], took]`, whose two branches are one object written twice with other descriptions):
 * no provider can answer it validly, so the suite says the spec is at fault (a warning naming the
 * keyword) and never fails a correct provider on it, while a provider breaking a satisfiable schema
 * beside it still fails; the mock answers the closest body it can make, never a 500.
 */
import { describe, expect, it } from 'vitest';
import { whyNoValue } from '../../openapi/schema/no-value.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst } from './providers/small-provider.js';
import { createMockServer } from '../../mocks/server.js';
import { runContractSuite } from '../index.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const error = (example: string) => ({
  type: 'object',
  description: `an error (${example})`,
  properties: { error: { type: 'object', properties: { key: { type: 'string', example }, message: { type: 'string' }, hint: { type: ['string', 'null'] } } } },
});
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Blocking', version: '1' },
  components: { schemas: { no_payload: error('bad_request'), item_missing: error('body_error'), took: { type: 'object', properties: { took: { type: 'number' } } } } },
  paths: {
    // A read whose answer's schema is the same two twins: no body can be valid, none could be generated.
    '/status': {
      get: {
        operationId: 'get_status',
        responses: {
          '200': {
            description: 'the last error',
            content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/no_payload' }, { $ref: '#/components/schemas/item_missing' }] } } },
          },
        },
      },
    },
    '/blocking': {
      post: {
        operationId: 'set_blocking',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['blocking'], properties: { blocking: { type: 'boolean' } }, additionalProperties: false } } },
        },
        responses: {
          '200': { description: 'set', content: { 'application/json': { schema: { type: 'object', required: ['blocking'], properties: { blocking: { type: 'boolean' } } } } } },
          '400': {
            description: 'refused',
            content: {
              'application/json': {
                schema: { allOf: [{ oneOf: [{ $ref: '#/components/schemas/no_payload' }, { $ref: '#/components/schemas/item_missing' }] }, { $ref: '#/components/schemas/took' }] },
              },
            },
          },
        },
      },
    },
  },
};

describe('a schema no value matches', () => {
  it('is told from its keywords, and one that some value matches is not', () => {
    const { schema } = SPEC.paths['/blocking'].post.responses['400'].content['application/json'];
    expect(whyNoValue(schema, SPEC)).toMatch(/\/allOf\/0\/oneOf\/0 and \/allOf\/0\/oneOf\/1 are the same schema/);
    expect(whyNoValue(false, SPEC)).toBeDefined();
    expect(whyNoValue({ enum: [] }, SPEC)).toBeDefined();
    expect(whyNoValue({ anyOf: [{ not: {} }, false] }, SPEC)).toBeDefined();
    // Alike but for a keyword that takes values, for a property named like an annotation, for an enum's data, or told apart by a discriminator: satisfiable.
    expect(whyNoValue({ oneOf: [error('a'), { ...error('b'), required: ['error'] }] }, SPEC)).toBeUndefined();
    expect(whyNoValue({ oneOf: [{ properties: { description: { type: 'string' } } }, { properties: { title: { type: 'string' } } }] }, SPEC)).toBeUndefined();
    expect(whyNoValue({ oneOf: [{ enum: [{ description: 'a' }] }, { enum: [{ description: 'b' }] }] }, SPEC)).toBeUndefined();
    expect(whyNoValue({ oneOf: [error('a'), error('b')], discriminator: { propertyName: 'kind' } }, SPEC)).toBeUndefined();
    // Twins beside a third branch: a value matching the third alone matches exactly one.
    expect(whyNoValue({ oneOf: [error('a'), error('b'), { type: 'string' }] }, SPEC)).toBeUndefined();
  });

  it('is the spec’s fault in the report: a correct provider passes, a provider breaking the 200 still fails', async () => {
    const contract = compileSuiteSpec(SPEC, 'blocking.json');
    const provider = (answer200: (blocking: boolean) => unknown) => (request: { url: URL; json(): unknown }, answer: (status: number, body?: unknown) => void) => {
      if (request.url.pathname === '/status') return answer(200, { error: { key: 'none', message: 'no error' } });
      const body = request.json() as { blocking?: unknown } | undefined;
      const ok = body !== null && typeof body === 'object' && Object.keys(body).every((k) => k === 'blocking') && typeof body.blocking === 'boolean';
      if (ok) answer(200, answer200(body.blocking as boolean));
      else answer(400, { error: { key: 'bad_request', message: 'no', hint: null }, took: 0.001 });
    };
    const good = await runSuiteAgainst(
      provider((blocking) => ({ blocking })),
      { token: '', contract, seed: 4, generated: { positive: 2, negative: 4 } },
    );
    expect(good.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    const warned = good.findings.filter((f) => f.check === 'response_schema_conformance' && f.severity === 'warning');
    expect(warned.length).toBeGreaterThan(0);
    expect(warned[0]?.message).toMatch(/accepts no value .*oneOf.* Fix the spec/);
    const broken = await runSuiteAgainst(
      provider(() => ({ blocking: 'yes' })),
      { token: '', contract, seed: 4, generated: { positive: 2, negative: 4 } },
    );
    expect(broken.findings.filter((f) => f.severity === 'failure').map((f) => f.check)).toContain('response_schema_conformance');
  }, 120_000);

  it('is answered by the mock with the closest body it can make, and the suite against it passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-value-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(SPEC));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: file });
    try {
      const refused = await fetch(`${mock.url}/blocking`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"blocking": "yes"}' });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error?: { message?: unknown } };
      expect(typeof body.error?.message).toBe('string');
      // No body generated from the schema can be valid: the closest one is answered, not 500 "could not generate a body".
      const status = await fetch(`${mock.url}/status`);
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ error: {} });
      const report = await runContractSuite({ baseUrl: mock.url, spec: file, seed: 37, generated: { positive: 1, negative: 2 } });
      expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message.slice(0, 200)}`)).toEqual([]);
    } finally {
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
