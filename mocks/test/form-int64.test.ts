/**
 * Form bodies (urlencoded) and form updates' query fields carrying int64 numbers: read exactly, as
 * JSON bodies are — stored and answered with every digit, and one past the range refused rather
 * than rounded into it.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.0.3
info: {title: Shelter, version: "1"}
paths:
  /pet:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: {$ref: '#/components/schemas/Pet'}
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
  /pet/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: integer, format: int64}}
    post:
      operationId: updatePetWithForm
      parameters:
        - {name: tag, in: query, schema: {type: integer, format: int64}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
    get:
      operationId: getPet
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, format: int64}
        name: {type: string}
        chips: {type: array, items: {type: integer, format: int64}}
        tag: {type: integer, format: int64}
`;

const FORM = 'application/x-www-form-urlencoded';

describe('int64 numbers in a form body', () => {
  const mock = useMockForSpec(SPEC);

  it('stores and answers them with every digit', async () => {
    const created = await send(mock.current, '/pet', 'id=9223372036854775807&name=Rex&chips=9007199254740993&chips=1', { contentType: FORM });
    const expected = '{"id":9223372036854775807,"name":"Rex","chips":[9007199254740993,1]}';
    expect([created.status, created.text]).toEqual([200, expected]);
    expect((await sendGet(mock.current, '/pet/9223372036854775807')).text).toBe(expected);
  });

  it('refuses one past the range instead of rounding it into it', async () => {
    const refused = await send(mock.current, '/pet', 'id=9223372036854775808&name=Max', { contentType: FORM });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain('id must be an integer from -9223372036854775808 to 9223372036854775807');
  });

  it('takes them exactly from the query of a form update (POST /pet/{petId}?tag=…)', async () => {
    await send(mock.current, '/pet', 'id=5&name=Ivy', { contentType: FORM });
    const updated = await send(mock.current, '/pet/5?tag=-9223372036854775807', undefined, { contentType: null });
    const expected = '{"id":5,"name":"Ivy","tag":-9223372036854775807}';
    expect([updated.status, updated.text]).toEqual([200, expected]);
    expect((await sendGet(mock.current, '/pet/5')).text).toBe(expected);
  });
});
