/**
 * Refusals where the declared error schema is a `oneOf` of error objects told apart only by
 * optional one-value enums (PayPal's error_default: error_400, error_401 … error_503), over real
 * HTTP: the body matches exactly one branch, the one the status names, and the reason its fixed
 * message cannot say is in the plant-store-reason header.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { useMockForSpec } from './mock-under-test.js';

const error = (title: string, name: string, message: string) => ({
  type: 'object',
  title,
  properties: {
    name: { type: 'string', enum: [name] },
    message: { type: 'string', enum: [message] },
    details: { type: 'array', items: { type: 'object', required: ['issue'], properties: { issue: { type: 'string' }, description: { type: 'string' } } } },
    debug_id: { type: 'string' },
  },
});
const spec = {
  openapi: '3.0.3',
  info: { title: 'Invoices', version: '2' },
  security: [{ bearer: [] }],
  paths: {
    '/invoices/{id}': {
      get: {
        operationId: 'getInvoice',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } },
          default: { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/error_default' } } } },
        },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      error_default: { oneOf: [{ $ref: '#/components/schemas/error_400' }, { $ref: '#/components/schemas/error_401' }, { $ref: '#/components/schemas/error_404' }] },
      error_400: error('Bad Request Error', 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.'),
      error_401: error('Unauthorized Error', 'AUTHENTICATION_FAILURE', 'Authentication failed.'),
      error_404: error('Not found Error', 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.'),
    },
  },
};

describe('a refusal whose declared schema is a oneOf of error objects', () => {
  const mock = useMockForSpec(spec);

  it('answers a body matching exactly one branch, the one for its status', async () => {
    const validate = loadContract(mock.specFile).operations.get('getInvoice')?.responses.get('default')?.content.get('application/json')?.validate;
    for (const [path, headers, status, name] of [
      ['/invoices/abc', { authorization: 'Bearer t' }, 400, 'INVALID_REQUEST'],
      ['/invoices/1', {}, 401, 'AUTHENTICATION_FAILURE'],
    ] as const) {
      const response = await fetch(mock.current.url + path, { headers });
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(validate?.(body), JSON.stringify([body, validate?.errors])).toBe(true);
      expect(body.name).toBe(name);
      // The schema's fixed message leaves ours no room: the reason is in the header.
      expect(response.headers.get('plant-store-reason')).toMatch(status === 400 ? /id/ : /Authorization/);
    }
  });
});
