/**
 * Error answers where the spec declares only XML for that status, over real HTTP: the mock's own
 * 400, 401 and 404 come back as well-formed XML of the declared media type (root element from the
 * schema's `xml.name` or its component's name, an `xml.attribute` member as an attribute), text
 * escaped and characters XML cannot carry replaced; the members valid against the declared schema.
 */
import { createSpecAjv } from '../../openapi/schema/ajv.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from './mock-under-test.js';

const xmlError = (status: string, mediaType: string, ref: string) => ({ [status]: { description: 'error', content: { [mediaType]: { schema: { $ref: `#/components/schemas/${ref}` } } } } });
const thing = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string', minLength: 1 } } };
const spec = {
  openapi: '3.1.0',
  info: { title: 'Xml Things', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: { required: true, content: { 'application/json': { schema: thing } } },
        responses: { '201': { description: 'ok', content: { 'application/json': { schema: thing } } }, ...xmlError('400', 'application/xml', 'Fault'), ...xmlError('401', 'application/xml', 'Fault') },
      },
    },
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: thing } } }, ...xmlError('4XX', 'application/problem+xml', 'Plain') },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      // A named root and an attribute, as OpenAPI's XML Object describes them.
      Fault: {
        type: 'object',
        xml: { name: 'fault' },
        required: ['code', 'message'],
        properties: { code: { type: 'integer', xml: { attribute: true } }, message: { type: 'string', xml: { name: 'text' } } },
      },
      Plain: { type: 'object', required: ['status', 'detail'], properties: { status: { type: 'integer' }, detail: { type: 'string' } } },
    },
  },
};

const mock = useMockForSpec(spec);

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: true, parseAttributeValue: true });
const ajv = createSpecAjv();

async function xmlAnswer(path: string, init: RequestInit, status: number, mediaType: string): Promise<{ text: string; parsed: Record<string, Record<string, unknown>> }> {
  const response = await fetch(mock.current.url + path, init);
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe(mediaType);
  expect(XMLValidator.validate(text), text).toBe(true);
  return { text, parsed: parser.parse(text) as Record<string, Record<string, unknown>> };
}

describe('errors where the spec declares only XML', () => {
  it('answers a missing token 401 as <fault code="401"><text>…</text></fault>', async () => {
    const { parsed } = await xmlAnswer('/things', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, 401, 'application/xml');
    const fault = parsed.fault as Record<string, unknown>;
    expect(fault.code).toBe(401);
    expect(fault.text).toMatch(/Authorization/);
    expect(ajv.validate(spec.components.schemas.Fault, { code: fault.code, message: fault.text }), JSON.stringify(fault)).toBe(true);
  });

  it('answers an invalid body 400 in XML, the problems named', async () => {
    const { parsed } = await xmlAnswer('/things', { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id":1,"name":""}' }, 400, 'application/xml');
    expect(parsed.fault?.code).toBe(400);
    expect(String(parsed.fault?.text)).toMatch(/name/);
  });

  it("answers a missing record 404 in the range's +xml type, its component's name the root, markup in the path escaped", async () => {
    expect((await fetch(`${mock.current.url}/things`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id":1,"name":"a"}' })).status).toBe(201);
    const { parsed } = await xmlAnswer('/things/2', { headers: { authorization: 'Bearer t' } }, 404, 'application/problem+xml');
    expect(parsed.Plain?.status).toBe(404);
    expect(ajv.validate(spec.components.schemas.Plain, parsed.Plain)).toBe(true);
    // A path the schema refuses, with markup and a NUL in it: still well-formed XML.
    const hostile = await xmlAnswer('/things/%3C%2Fdetail%3E%26%00x', { headers: { authorization: 'Bearer t' } }, 400, 'application/problem+xml');
    expect(hostile.text).toContain('&lt;/detail&gt;&amp;');
    expect(hostile.parsed.Plain?.status).toBe(400);
  });
});
