/**
 * Loading what users have (openapi/document/load.ts, openapi/operations/compile.ts's readContract): 3.1 as it is,
 * 3.0 and Swagger 2.0 upgraded, sibling files bundled, refs in `x-` extensions never a crash,
 * operationIds generated; every failure names the document, the JSON pointer and the reason.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileContract, loadContract, readContract } from '../../operations/compile.js';
import { ContractError } from '../load.js';
import { generatedOperationId } from '../load.js';

const corpus = (name: string): string => fileURLToPath(new URL(`../../../fixtures/specs/${name}`, import.meta.url));

describe('readContract over the corpus', () => {
  it('upgrades an OpenAPI 3.0 document to 3.1: nullable becomes a type list, and validators judge by it', async () => {
    const contract = await readContract(corpus('petstore-expanded-3.0/openapi.yaml'));
    expect(contract.declaredVersion).toBe('3.0.3');
    expect(contract.document.openapi).toMatch(/^3\.1\./);
    expect(contract.notes.join(' ')).toMatch(/OpenAPI 3\.0\.3 upgraded to OpenAPI 3\.1/);
    expect([...contract.operations.keys()]).toEqual(['findPets', 'addPet', 'findPetById', 'deletePet']);
    const create = contract.operations.get('addPet')?.requestBody?.content.get('application/json');
    expect(create?.validate?.({ name: 'Biscuit', tag: null })).toBe(true);
    expect(create?.validate?.({ tag: 'dog' })).toBe(false);
    const tags = contract.operations.get('findPets')?.parameters.find((p) => p.name === 'tags');
    expect(tags).toMatchObject({ in: 'query', style: 'form', explode: true });
  });

  it('upgrades a Swagger 2.0 document: body parameters become the request body, definitions components', async () => {
    const contract = await readContract(corpus('swagger-2.0/swagger.yaml'));
    expect(contract.declaredVersion).toBe('2.0');
    const add = contract.operations.get('addSeed');
    expect(add?.requestBody?.content.get('application/json')?.validate?.({ id: 1, kind: 'bean' })).toBe(true);
    expect(add?.requestBody?.content.get('application/json')?.validate?.({ id: 'one', kind: 'bean' })).toBe(false);
    expect(contract.operations.get('listSeeds')?.parameters[0]).toMatchObject({ name: 'kinds', style: 'form', explode: false });
  });

  it('bundles schemas, parameters and responses from a sibling file, and leaves a Markdown ref in an extension alone', async () => {
    const contract = await readContract(corpus('external-ref/openapi.yaml'));
    const entry = contract.operations.get('createEntry');
    const body = entry?.requestBody?.content.get('application/json');
    expect(body?.validate?.({ plant: 'tomato', note: 'flowers' })).toBe(true);
    expect(body?.validate?.({ plant: '', note: 'flowers' })).toBe(false);
    // The response schema refers (through the bundle) to the request's: allOf with a readOnly uuid id.
    const created = entry?.responses.get(201)?.content.get('application/json');
    expect(created?.properties).toEqual(['plant', 'note', 'weight', 'id']);
    expect(created?.validate?.({ plant: 'tomato', note: 'x', id: '6f1c2d4e-8a9b-4c3d-9e2f-1a2b3c4d5e6f' })).toBe(true);
    expect(created?.validate?.({ plant: 'tomato', note: 'x', id: 'seven' })).toBe(false);
    expect(contract.operations.get('getEntry')?.parameters[0]).toMatchObject({ name: 'entryId', in: 'path' });
    expect(entry?.responses.get(400)?.content.get('application/json')?.properties).toEqual(['message']);
    // The YAML file an extension refers to is bundled; the Markdown guide is left as written.
    expect(contract.document['x-tag-groups']).toEqual([{ name: 'Journal', tags: ['entries'] }]);
    expect(contract.document['x-guides']).toEqual({ 'getting-started': { 'x-ref-not-followed': './getting-started.md' } });
    expect(contract.notes.join(' ')).toMatch(/\/x-guides\/getting-started refers to \.\/getting-started\.md.*not followed/);
    // What the root document referred to in the sibling file sits under components, by name.
    expect(Object.keys((contract.document.components as { schemas: object }).schemas)).toEqual(['Entry', 'NewEntry']);
    expect(JSON.stringify(contract.document)).not.toMatch(/"\$ref":"(?!#\/components\/)/);
  });

  it('names operations without operationId by method and path words, never taking an explicit id', async () => {
    const contract = await readContract(corpus('no-operation-ids/openapi.yaml'));
    expect([...contract.operations.keys()]).toEqual(['get_notes', 'post_notes', 'get_notes_noteId', 'delete_notes_noteId', 'post_notes_note_id_pin', 'post_notes_note_id_pin_2', 'get_ping']);
    expect(contract.operations.get('post_notes_note_id_pin')?.method).toBe('put');
    expect(contract.operations.get('post_notes_note_id_pin_2')?.path).toBe('/notes/{note-id}/pin');
    expect(contract.operations.get('get_ping')?.responses.size).toBe(0);
    expect(generatedOperationId('GET', '/')).toBe('get');
  });
});

describe("what the upgrade leaves of 3.0's nullable becomes a null alternative (openapi/document/nullable.ts)", () => {
  const widget = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string' },
      parent: { allOf: [{ $ref: '#/components/schemas/Ref' }], nullable: true, description: 'the parent', readOnly: true },
      owner: { $ref: '#/components/schemas/Ref', nullable: true },
      either: { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
      plain: { nullable: false, type: 'string' },
      // A property may be called anything, and an example is data: neither is a schema to rewrite.
      nullable: { type: 'boolean' },
      anything: { nullable: true, description: 'any value, null included' },
    },
    example: { name: 'w', nullable: true },
  };
  const document = (openapi: string) => ({
    openapi,
    info: { title: 'nullable', version: '1' },
    paths: {
      '/widgets': {
        post: { operationId: 'create', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } }, responses: { '201': { description: 'made' } } },
      },
    },
    components: { schemas: { Widget: structuredClone(widget), Ref: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } } },
  });

  it.each(['3.0.3', '3.1.0'])('in OpenAPI %s: the schema loads, compiles, and takes null where it said nullable', (openapi) => {
    const contract = compileContract(document(openapi), 'nullable.yaml');
    const schemas = (contract.document.components as { schemas: Record<string, { properties: Record<string, unknown>; examples?: unknown; example?: unknown }> }).schemas;
    const properties = schemas.Widget?.properties ?? {};
    expect(properties.parent).toEqual({ description: 'the parent', readOnly: true, anyOf: [{ $ref: '#/components/schemas/Ref' }, { type: 'null' }] });
    expect(properties.owner).toEqual({ anyOf: [{ $ref: '#/components/schemas/Ref' }, { type: 'null' }] });
    expect(properties.either).toEqual({ anyOf: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] });
    expect(properties.plain).toEqual({ type: 'string' });
    expect(properties.nullable).toEqual({ type: 'boolean' });
    expect(properties.anything).toEqual({ description: 'any value, null included' });
    expect(JSON.stringify(schemas.Widget?.examples ?? schemas.Widget?.example)).toContain('"nullable":true');
    expect(contract.notes.join(' ')).toContain("`nullable: true` without a `type` read as `anyOf: [<the schema>, {type: 'null'}]` at /components/schemas/Widget/properties/parent and 2 more.");
    const validate = contract.operations.get('create')?.requestBody?.content.get('application/json')?.validate;
    expect(validate?.({ name: 'w', parent: null, owner: null, either: null })).toBe(true);
    expect(validate?.({ name: 'w', parent: { id: 'p' }, owner: { id: 'o' }, either: 3 })).toBe(true);
    expect(validate?.({ name: 'w', parent: {} })).toBe(false);
    expect(validate?.({ name: 'w', plain: null })).toBe(false);
  });
});

describe('load failures name the document, the JSON pointer and the reason', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spec-load-'));
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const paths = { '/x': { get: { responses: { '200': { description: 'ok' } } } } };

  it.each([
    ['an unknown version', 'v4.yaml', JSON.stringify({ openapi: '4.0.0', paths }), /v4\.yaml#\/openapi: .*4\.0\.0.*OpenAPI 3\.1 and 3\.0 and Swagger 2\.0/],
    ['no version at all', 'none.yaml', JSON.stringify({ paths }), /none\.yaml#\/swagger: says no version/],
    [
      'a remote ref',
      'remote.yaml',
      JSON.stringify({ openapi: '3.1.0', paths: { '/x': { get: { responses: { '200': { $ref: 'https://example.com/r.yaml' } } } } } }),
      /remote\.yaml#\/paths\/~1x\/get\/responses\/200: refers to https:\/\/example\.com\/r\.yaml; remote references are not fetched/,
    ],
    [
      'a missing sibling file',
      'missing.yaml',
      JSON.stringify({ openapi: '3.1.0', paths: { '/x': { get: { responses: { '200': { $ref: './nope.yaml#/R' } } } } } }),
      /missing\.yaml#\/paths\/~1x\/get\/responses\/200: cannot bundle \.\/nope\.yaml/,
    ],
    [
      'a dangling local ref',
      'dangling.yaml',
      JSON.stringify({ openapi: '3.1.0', paths: { '/x': { get: { responses: { '200': { $ref: '#/components/responses/Nope' } } } } } }),
      /dangling\.yaml#\/paths\/~1x\/get\/responses\/200: it refers to #\/components\/responses\/Nope, which the document does not have/,
    ],
    [
      'a duplicate operationId',
      'dup.yaml',
      JSON.stringify({ openapi: '3.1.0', paths: { '/x': { get: { operationId: 'a' }, post: { operationId: 'a' } } } }),
      /dup\.yaml#\/paths\/~1x\/post\/operationId: a is used by another operation too/,
    ],
    [
      'a schema Ajv cannot compile',
      'bad-schema.yaml',
      // An empty enum: no value is valid, and dropping it would not serve what was meant (a flaw that can be dropped loads: lenient-load.test.ts).
      JSON.stringify({ openapi: '3.1.0', paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', enum: [] } } } } } } } }),
      /bad-schema\.yaml#\/paths\/~1x\/post\/requestBody\/content\/application~1json\/schema: the schema cannot be compiled/,
    ],
    // Components are checked once, at load, whether or not an operation refers to them (issue 26).
    [
      'a component schema no operation uses, broken',
      'bad-component.yaml',
      JSON.stringify({ openapi: '3.1.0', paths, components: { schemas: { Fine: { type: 'string' }, 'Bro/ken': { type: 'object', enum: [] } } } }),
      /bad-component\.yaml#\/components\/schemas\/Bro~1ken: the schema cannot be compiled: enum must have non-empty array/,
    ],
    ['no paths', 'nopaths.yaml', JSON.stringify({ openapi: '3.1.0' }), /nopaths\.yaml#\/paths: is missing/],
    ['not YAML', 'broken.yaml', 'openapi: [3.1', /broken\.yaml: is not valid YAML or JSON/],
  ])('%s', async (_what, name, text, message) => {
    const path = write(name, text);
    const error = await readContract(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toMatch(message);
  });

  it('a missing file', async () => {
    await expect(readContract(join(dir, 'absent.yaml'))).rejects.toThrow(/Cannot read the OpenAPI document .*absent\.yaml/);
  });

  it('the synchronous loader refuses a document that refers to other files, saying which ref and what to use', () => {
    expect(() => loadContract(corpus('external-ref/openapi.yaml'))).toThrow(
      /external-ref\/openapi\.yaml#\/x-tag-groups: refers to \.\/tag-groups\.yaml, another file; this tool reads single-file documents/,
    );
  });
});
