/**
 * Refusals where the operation declares its errors only as YAML or only as multipart (gotify's
 * getPluginConfig produces only application/x-yaml; PayPal's generate-qr-code declares its 400 as
 * multipart/mixed), over real HTTP: the answer is of the declared media type, and what it carries,
 * read back by a YAML parser or a multipart parser, is valid against the declared schema.
 */
import busboy from 'busboy';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createSpecAjv } from '../../openapi/schema/ajv.js';
import { useMockForSpec } from './mock-under-test.js';

const ErrorSchema = {
  type: 'object',
  required: ['error', 'errorCode', 'errorDescription'],
  properties: { error: { type: 'string' }, errorCode: { type: 'integer' }, errorDescription: { type: 'string' } },
};
// PayPal's multipart errors are an allOf of two objects, with no type of their own.
const errors = (mediaType: string, schema: object = { $ref: '#/components/schemas/Error' }) =>
  Object.fromEntries(['400', '401', '404'].map((status) => [status, { description: 'error', content: { [mediaType]: { schema } } }]));
const spec = {
  openapi: '3.1.0',
  info: { title: 'Plugins', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/plugin/{id}/config': {
      get: {
        operationId: 'getPluginConfig',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok', content: { 'application/x-yaml': { schema: { type: 'object' } } } }, ...errors('application/x-yaml') },
      },
    },
    '/plugin/{id}/qr': {
      post: {
        operationId: 'generateQr',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'ok' },
          ...errors('multipart/mixed', { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { debug_id: { type: 'string' } } }] }),
        },
      },
    },
  },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas: { Error: ErrorSchema } },
};

const mock = useMockForSpec(spec);
const validate = createSpecAjv().compile(ErrorSchema);

/** The parts of a multipart body, by name, each read as its Content-Type says. */
function parts(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const read: Record<string, unknown> = {};
    const parser = busboy({ headers: { 'content-type': contentType.replace(/^multipart\/mixed/, 'multipart/form-data') } });
    parser.on('field', (name, value, info) => {
      read[name] = info.mimeType === 'application/json' ? JSON.parse(value) : value;
    });
    parser.on('close', () => resolve(read));
    parser.on('error', reject);
    parser.end(body);
  });
}

describe('refusals in a declared media type that is not JSON', () => {
  it('answers YAML where the operation declares only YAML', async () => {
    for (const [path, init, status] of [
      ['/plugin/abc/config', { headers: { authorization: 'Bearer t' } }, 400],
      ['/plugin/1/config', {}, 401],
    ] as const) {
      const response = await fetch(mock.current.url + path, init);
      const text = await response.text();
      expect(response.status, text).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/x-yaml');
      const value = parseYaml(text) as Record<string, unknown>;
      expect(validate(value), JSON.stringify([value, validate.errors])).toBe(true);
      expect(value.errorCode).toBe(status);
    }
  });

  it('answers multipart parts, one per member, where the operation declares only multipart/mixed', async () => {
    const response = await fetch(`${mock.current.url}/plugin/abc/qr`, { method: 'POST', headers: { authorization: 'Bearer t' } });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status, body.toString()).toBe(400);
    const contentType = response.headers.get('content-type') ?? '';
    expect(contentType).toMatch(/^multipart\/mixed; boundary=\S+$/);
    const value = await parts(body, contentType);
    expect(validate(value), JSON.stringify([value, validate.errors])).toBe(true);
    expect(value.errorCode).toBe(400);
    expect(String(value.errorDescription)).toContain('id');
  });
});
