/**
 * What the compiled model carries so that no consumer reads the document again: each response's
 * links with their target operation, and each media type's shapes (the object it is, its items',
 * its variants, a form read by it), on small documents.
 */
import { describe, expect, it } from 'vitest';
import { compileContract } from '../compile.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

function compile(paths: Record<string, unknown>, components: Record<string, unknown> = {}) {
  return compileContract({ openapi: '3.1.0', info: { title: 't', version: '1', description: 'About t.' }, servers: [{ url: 'https://api.example.com/v2/' }], paths, components }, 'test.yaml');
}

const widget = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };

describe('the compiled model', () => {
  it("carries each response's links: the target by operationId, by an operationRef to a later path, none for a broken one", () => {
    const contract = compile(
      {
        '/widgets': {
          post: {
            operationId: 'createWidget',
            requestBody: json(widget),
            responses: {
              '201': {
                description: 'made',
                ...json(widget),
                links: {
                  ReadIt: { operationId: 'readWidget', parameters: { 'path.id': '$response.body#/id' } },
                  DeleteIt: { operationRef: '#/paths/~1widgets~1{id}/delete', parameters: { id: '$response.body#/id' } },
                  Nowhere: { operationRef: '#/paths/~1gadgets/get' },
                  Shared: { $ref: '#/components/links/Shared' },
                },
              },
            },
          },
        },
        '/widgets/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          get: { operationId: 'readWidget', responses: { '200': { description: 'it', ...json(widget) } } },
          delete: { operationId: 'deleteWidget', responses: { '204': { description: 'gone' } } },
        },
      },
      { links: { Shared: { operationId: 'deleteWidget' } } },
    );
    const links = contract.operations.get('createWidget')?.responses.get(201)?.links ?? [];
    expect(links.map((link) => [link.name, link.operationId, Object.fromEntries(link.parameters)])).toEqual([
      ['ReadIt', 'readWidget', { 'path.id': '$response.body#/id' }],
      ['DeleteIt', 'deleteWidget', { id: '$response.body#/id' }],
      ['Nowhere', undefined, {}],
      ['Shared', 'deleteWidget', {}],
    ]);
    expect(contract.operations.get('readWidget')?.responses.get(200)?.links).toEqual([]);
    expect(contract.description).toBe('About t.');
    expect(contract.basePaths).toEqual(['/v2']);
  });

  it("carries a body's shapes: its object (allOf merged), a wrapped list's items, its variants, a form read by its types", () => {
    const contract = compile(
      {
        '/widgets': {
          get: {
            operationId: 'listWidgets',
            responses: {
              '200': {
                description: 'page',
                ...json({
                  allOf: [
                    { type: 'object', required: ['items'], properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Widget' } } } },
                    { properties: { total: { type: 'integer' } } },
                  ],
                }),
              },
            },
          },
          post: {
            operationId: 'createWidget',
            requestBody: {
              content: {
                'application/x-www-form-urlencoded': {
                  schema: {
                    oneOf: [{ $ref: '#/components/schemas/Widget' }, { type: 'object', properties: { size: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } } }],
                  },
                },
                'multipart/form-data': { schema: { $ref: '#/components/schemas/Upload' } },
              },
            },
            responses: { '201': { description: 'made' } },
          },
        },
      },
      { schemas: { Widget: widget, Upload: { type: 'object', properties: { size: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } } } } },
    );
    const page = contract.operations.get('listWidgets')?.responses.get(200)?.content.get('application/json');
    expect([...(page?.object.properties.keys() ?? [])]).toEqual(['items', 'total']);
    expect([...(page?.object.required ?? [])]).toEqual(['items']);
    expect([...(page?.itemObject('items')?.properties.keys() ?? [])]).toEqual(['id', 'name']);
    expect(page?.itemObject()).toBeUndefined();
    const form = contract.operations.get('createWidget')?.requestBody?.content.get('application/x-www-form-urlencoded');
    expect(form?.variants.map((variant) => [variant.name, variant.properties.map((p) => p.name)])).toEqual([
      ['Widget', ['id', 'name']],
      ['branch 2', ['size', 'tags']],
    ]);
    expect(form?.inlined.oneOf).toEqual([widget, { type: 'object', properties: { size: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } } }]);
    const upload = contract.operations.get('createWidget')?.requestBody?.content.get('multipart/form-data');
    expect(
      upload?.readForm([
        ['tags', 'a'],
        ['size', '2.5'],
        ['tags', 'b'],
      ]),
    ).toEqual({ tags: ['a', 'b'], size: 2.5 });
  });
});
