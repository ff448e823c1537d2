/**
 * A Swagger 2.0 operation with a required formData parameter requires its form body (gotify's
 * `POST /auth/local/login`, `name` required): the upgrade left the body optional, so the mock answered
 * 200 to a login with no form at all, and the suite (rightly) failed it on negative_data_rejection.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../../mocks/server.js';
import { readContract } from '../../operations/compile.js';

const SWAGGER = {
  swagger: '2.0',
  info: { title: 'Login', version: '1' },
  consumes: ['application/json'],
  produces: ['application/json'],
  parameters: { remember: { name: 'remember', in: 'formData', type: 'boolean' } },
  paths: {
    '/auth/local/login': {
      post: {
        operationId: 'localLogin',
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [{ name: 'name', in: 'formData', type: 'string', required: true }, { $ref: '#/parameters/remember' }],
        responses: { '200': { description: 'ok', schema: { type: 'object', properties: { name: { type: 'string' } } } }, '400': { description: 'refused' } },
      },
    },
    '/auth/optional': {
      post: {
        operationId: 'optionalForm',
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [{ $ref: '#/parameters/remember' }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

describe('Swagger 2.0 form bodies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'swagger-forms-'));
  const path = join(dir, 'swagger.json');
  writeFileSync(path, JSON.stringify(SWAGGER));

  it('are required where a formData parameter is, and optional where none is', async () => {
    const contract = await readContract(path);
    expect(contract.operations.get('localLogin')?.requestBody?.required).toBe(true);
    expect(contract.operations.get('optionalForm')?.requestBody?.required).not.toBe(true);
  });

  it('an empty form is refused by the mock, a form with the field accepted', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: path });
    try {
      const post = (body: string) => fetch(`${mock.url}/auth/local/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      expect((await post('')).status).toBe(400);
      expect((await post('name=ada')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
