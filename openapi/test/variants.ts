/**
 * Edited copies of the bundled spec, as a user would make them, for the spec-drift tests: each
 * variant is the bundled document with one change, written to a temporary file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as load, stringify as dump } from 'yaml';
import { SPEC_PATH } from '../plant-store.js';

type Document = Record<string, any>;

const createPlant = (d: Document) => d.paths['/plants'].post;
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } };
const json = (schema: object) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) });

/** Each variant: what changed, in the words of the issue, and the edit. */
export const SPEC_VARIANTS = {
  'name-max-length': {
    change: 'maxLength: 50 on name',
    edit: (d: Document) => void (d.components.schemas.Plant.properties.name.maxLength = 50),
  },
  'required-color': {
    change: 'a new required string color in Plant (so in NewPlant)',
    edit: (d: Document) => {
      d.components.schemas.Plant.properties.color = { type: 'string', description: 'The colour of its leaves' };
      d.components.schemas.Plant.required.push('color');
      for (const example of Object.values<any>(createPlant(d).requestBody.content['application/json'].examples)) example.value.color = 'green';
      for (const example of Object.values<any>(createPlant(d).responses['200'].content['application/json'].examples)) example.value.color = 'green';
    },
  },
  'tag-renamed-label': {
    change: 'tag renamed label',
    edit: (d: Document) => {
      const plant = d.components.schemas.Plant;
      plant.properties = { name: plant.properties.name, label: plant.properties.tag };
      for (const example of Object.values<any>(createPlant(d).requestBody.content['application/json'].examples)) renameTag(example.value);
      for (const example of Object.values<any>(createPlant(d).responses['200'].content['application/json'].examples)) renameTag(example.value);
    },
  },
  'api-key': {
    change: 'an apiKey scheme (header X-API-Key) instead of bearer',
    edit: (d: Document) => {
      d.components.securitySchemes = { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } };
      d.security = [{ apiKey: [] }];
    },
  },
  'no-security': {
    change: 'security: []',
    edit: (d: Document) => void (d.security = []),
  },
  'get-by-id': {
    change: 'an added GET /plants/{id} (and GET /plants)',
    edit: (d: Document) => {
      d.paths['/plants'].get = {
        operationId: 'listPlants',
        summary: 'List plants',
        responses: { '200': { description: 'Every plant', content: json({ type: 'array', items: { $ref: '#/components/schemas/NewPlant' } }) } },
      };
      d.paths['/plants/{id}'] = {
        get: {
          operationId: 'getPlant',
          summary: 'Read a plant',
          parameters: [idParameter],
          responses: { '200': { description: 'The plant', content: json({ $ref: '#/components/schemas/NewPlant' }) }, '404': errorResponse('No such plant') },
        },
      };
    },
  },
  'item-operations': {
    change: 'PUT, PATCH and DELETE on /plants/{id} (and GET)',
    edit: (d: Document) => {
      SPEC_VARIANTS['get-by-id'].edit(d);
      const item = d.paths['/plants/{id}'];
      const plant = { description: 'The plant', content: json({ $ref: '#/components/schemas/Plant' }) };
      item.put = {
        operationId: 'replacePlant',
        parameters: [idParameter],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Plant' }) },
        responses: { '200': plant, '404': errorResponse('No such plant') },
      };
      item.patch = {
        operationId: 'updatePlant',
        parameters: [idParameter],
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { type: 'object', properties: { name: { type: 'string' }, tag: { type: ['string', 'null'] } } } } } },
        responses: { '200': plant, '404': errorResponse('No such plant') },
      };
      item.delete = { operationId: 'deletePlant', parameters: [idParameter], responses: { '204': { description: 'Deleted' }, '404': errorResponse('No such plant') } };
    },
  },
  'created-201': {
    change: '201 instead of 200 as the success status',
    edit: (d: Document) => {
      const responses = createPlant(d).responses;
      d.paths['/plants'].post.responses = { '201': responses['200'], '400': responses['400'] };
    },
  },
  'json-with-charset': {
    change: 'every application/json content declared as application/json; charset=utf-8',
    edit: (d: Document) => {
      for (const item of Object.values<any>(d.paths)) {
        for (const operation of Object.values<any>(item)) {
          const contents = [operation.requestBody?.content, ...Object.values<any>(operation.responses ?? {}).map((response) => response.content)];
          for (const content of contents) {
            if (!content?.['application/json']) continue;
            content['application/json; charset=utf-8'] = content['application/json'];
            delete content['application/json'];
          }
        }
      }
    },
  },
} satisfies Record<string, { change: string; edit: (d: Document) => void }>;

export type SpecVariant = keyof typeof SPEC_VARIANTS;

function renameTag(value: Record<string, unknown>): void {
  if ('tag' in value) {
    value.label = value.tag;
    delete value.tag;
  }
}

/** The bundled spec with `variant`'s edit, written to a new temporary file; returns its path. */
export function writeSpecVariant(variant: SpecVariant, edit?: (d: Document) => void): string {
  const document = load(readFileSync(SPEC_PATH, 'utf8')) as Document;
  SPEC_VARIANTS[variant].edit(document);
  edit?.(document);
  const path = join(mkdtempSync(join(tmpdir(), `spec-${variant}-`)), 'plant-store.openapi.yaml');
  writeFileSync(path, dump(document));
  return path;
}
