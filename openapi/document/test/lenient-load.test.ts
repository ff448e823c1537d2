/**
 * Loading what real documents contain (issue 37 §3): names the upgrader must not read as keywords,
 * flaws that leave the API servable loaded with one warning naming the pointer, YAML 1.2 as real
 * projects publish it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileContract, readContract } from '../../operations/compile.js';
import { ContractError } from '../load.js';

const realWorld = (file: string): string => fileURLToPath(new URL(`../../../fixtures/real-world/${file}`, import.meta.url));

describe('a name in a map of names survives the 3.0 → 3.1 upgrade', () => {
  it('properties called example, nullable, exclusiveMinimum and x-webhooks stay properties of that name, in their order', () => {
    const contract = compileContract(
      {
        openapi: '3.0.3',
        info: { title: 'feedback', version: '1' },
        paths: {
          '/feedback': {
            post: {
              requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Feedback' } } } },
              responses: { '204': { description: 'stored' } },
            },
          },
        },
        components: {
          schemas: {
            Feedback: {
              type: 'object',
              required: ['example', 'score'],
              properties: {
                example: { type: 'string', example: 'a text' },
                score: { type: 'number', minimum: 0, exclusiveMinimum: true },
                nullable: { type: 'boolean' },
                exclusiveMinimum: { type: 'integer' },
                'x-webhooks': { type: 'string' },
              },
            },
            example: { type: 'string', nullable: true },
          },
        },
      },
      'feedback.yaml',
    );
    const schemas = (contract.document.components as { schemas: Record<string, { properties?: Record<string, unknown>; type?: unknown }> }).schemas;
    expect(Object.keys(schemas.Feedback?.properties ?? {})).toEqual(['example', 'score', 'nullable', 'exclusiveMinimum', 'x-webhooks']);
    // The keywords beside them are still upgraded.
    expect(schemas.Feedback?.properties?.example).toEqual({ type: 'string', examples: ['a text'] });
    expect(schemas.Feedback?.properties?.score).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(schemas.example?.type).toEqual(['string', 'null']);
    const validate = contract.operations.get('post_feedback')?.requestBody?.content.get('application/json')?.validate;
    expect(validate?.({ example: 'it works', score: 1, nullable: true, exclusiveMinimum: 3 })).toBe(true);
    expect(validate?.({ examples: ['it works'], score: 1 })).toBe(false);
    expect(validate?.({ example: 'x', score: 0 })).toBe(false);
  });

  it("qdrant's document (FeedbackItem has a property called example) loads", async () => {
    const contract = await readContract(realWorld('qdrant/openapi.json'));
    expect(contract.operations.size).toBe(69);
    const feedback = (contract.document.components as { schemas: Record<string, { properties: object }> }).schemas.FeedbackItem;
    expect(Object.keys(feedback?.properties ?? {})).toContain('example');
  });
});

describe('YAML 1.2 as real projects publish it', () => {
  const file = (name: string, text: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'yaml-1.2-'));
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it("reads multi-line flow collections closed at their key's indentation (Apache Iceberg's REST catalog, libre-graph-api examples)", async () => {
    // The construct js-yaml refused with "deficient indentation": a JSON-style example written as a
    // flow mapping, its closing brace (and a flow sequence's bracket) under the key, as YAML 1.2 allows.
    const spec = file(
      'catalog.yaml',
      [
        'openapi: 3.1.1',
        'info: {title: catalog, version: "1"}',
        'paths:',
        '  /namespaces:',
        '    post:',
        '      operationId: createNamespace',
        '      requestBody:',
        '        content:',
        '          application/json:',
        '            schema:',
        '              type: object',
        '              required: [namespace]',
        '              properties:',
        '                namespace: {type: array, items: {type: string}}',
        '                properties: {type: object, additionalProperties: {type: string}}',
        '              example: {',
        '                "namespace": ["accounting", "tax"],',
        '                "properties": { "owner": "Hank Bendickson" }',
        '              }',
        '      responses:',
        "        '200':",
        '          description: created',
        '          content:',
        '            application/json:',
        '              schema:',
        '                type: object',
        '                properties:',
        '                  namespace:',
        '                    type: array',
        '                    items: {type: string}',
        '                    enum: [',
        '                      ["accounting", "tax"]',
        '                    ]',
      ].join('\n'),
    );
    const contract = await readContract(spec);
    const body = contract.operations.get('createNamespace')?.requestBody?.content.get('application/json');
    expect(body?.validate?.({ namespace: ['accounting', 'tax'] })).toBe(true);
    const schema = (contract.document.paths as Record<string, { post: { requestBody: { content: Record<string, { schema: { examples: unknown } }> } } }>)['/namespaces']?.post.requestBody.content[
      'application/json'
    ]?.schema;
    expect(schema?.examples).toBeUndefined();
    expect(JSON.stringify(contract.document)).toContain('"Hank Bendickson"');
  });

  it('names the line and column of what breaks, without printing the text', async () => {
    const spec = file('broken.yaml', 'openapi: 3.1.0\ninfo:\n  title: x\n  version: [1\npaths: {}\n');
    const refusal = await readContract(spec).catch((error: unknown) => error as Error);
    expect(refusal).toBeInstanceOf(ContractError);
    expect((refusal as Error).message).toMatch(/broken\.yaml: is not valid YAML or JSON: .*at line \d+, column \d+$/);
  });

  it('reads a JSON document with a byte-order mark, and refuses one with a syntax error naming the line', async () => {
    expect((await readContract(file('bom.json', '\ufeff{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {}}'))).title).toBe('x');
    const refusal = await readContract(file('bad.json', '{"openapi": "3.1.0",\n "info": {"title": "x" "version": "1"}, "paths": {}}')).catch((error: unknown) => error as Error);
    expect((refusal as Error).message).toMatch(/bad\.json: is not valid YAML or JSON: .*at line 2, column \d+$/);
  });
});

describe('a schema keyword the dialect refuses is dropped where it stands, with one warning naming it', () => {
  const document = {
    openapi: '3.0.3',
    info: { title: 'flawed', version: '1' },
    paths: {
      '/pets': {
        post: {
          operationId: 'addPet',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  properties: {
                    name: { type: 'string', required: true },
                    photo: { type: 'file' },
                  },
                },
              },
            },
          },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Pet: {
          id: 'urn:pet',
          type: 'object',
          properties: { name: { type: 'string', minLength: '1' } },
          examples: { rex: { value: { name: 'Rex' } } },
        },
      },
    },
  };

  it('loads, judges by what is left, and says what it dropped', () => {
    const contract = compileContract(structuredClone(document), 'flawed.yaml');
    expect(contract.warnings).toEqual([
      expect.stringMatching(/^flawed\.yaml#\/paths\/~1pets\/post\/requestBody\/content\/application~1json\/schema\/properties\/name\/required: required true .*dropped$/),
      expect.stringMatching(/^flawed\.yaml#\/paths\/~1pets\/post\/requestBody\/content\/application~1json\/schema\/properties\/photo\/type: type "file" .*dropped$/),
      expect.stringMatching(/^flawed\.yaml#\/components\/schemas\/Pet\/id: id "urn:pet" is draft-04's \$id.*dropped$/),
      expect.stringMatching(/^flawed\.yaml#\/components\/schemas\/Pet\/properties\/name\/minLength: minLength "1" is not JSON Schema 2020-12 \(must be integer\); dropped$/),
      expect.stringMatching(/^flawed\.yaml#\/components\/schemas\/Pet\/examples: examples \{"rex".* \(must be array\); dropped$/),
    ]);
    const body = contract.operations.get('addPet')?.requestBody?.content.get('application/json');
    expect(body?.validate?.({ name: 'Rex', photo: 'anything' })).toBe(true);
    expect(body?.validate?.({ photo: 'anything' })).toBe(false);
    expect(body?.validate?.({ name: 7 })).toBe(false);
  });

  it('still refuses what cannot be served: an empty enum (no value is valid, and no drop restores what was meant)', () => {
    const broken = structuredClone(document);
    (broken.components.schemas.Pet.properties.name as Record<string, unknown>).enum = [];
    expect(() => compileContract(broken, 'flawed.yaml')).toThrow(/flawed\.yaml#\/components\/schemas\/Pet\/properties\/name: the schema cannot be compiled: enum must have non-empty array/);
  });
});

describe("Swagger 2.0's produces per operation overrides the document's", () => {
  it("each operation answers in its own produces, the others and the shared responses in the document's", () => {
    const contract = compileContract(
      {
        swagger: '2.0',
        info: { title: 'produces', version: '1' },
        produces: ['application/json'],
        consumes: ['application/json'],
        paths: {
          '/render': {
            post: {
              operationId: 'render',
              consumes: ['text/plain'],
              produces: ['text/plain', 'text/html'],
              parameters: [{ in: 'body', name: 'source', schema: { type: 'string' } }],
              responses: { '200': { description: 'rendered', schema: { type: 'string' } }, '400': { $ref: '#/responses/Bad' } },
            },
          },
          '/status': { get: { operationId: 'status', responses: { '200': { description: 'ok', schema: { type: 'object' } }, '400': { $ref: '#/responses/Bad' } } } },
        },
        responses: { Bad: { description: 'bad', schema: { type: 'object', properties: { message: { type: 'string' } } } } },
      },
      'produces.yaml',
    );
    expect([...(contract.operations.get('render')?.responses.get(200)?.content.keys() ?? [])]).toEqual(['text/plain', 'text/html']);
    expect([...(contract.operations.get('render')?.requestBody?.content.keys() ?? [])]).toEqual(['text/plain']);
    expect([...(contract.operations.get('status')?.responses.get(200)?.content.keys() ?? [])]).toEqual(['application/json']);
    expect([...(contract.operations.get('status')?.responses.get(400)?.content.keys() ?? [])]).toEqual(['application/json']);
  });
});
