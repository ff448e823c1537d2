/**
 * A spec whose servers put the API under a base path (`servers: [{url: /api/v3}]`, or a server
 * URL with variables): the mock, like Prism, serves the paths from its own root, and a client that
 * took the servers at their word gets a 404 that says so and names the path to send, instead of
 * only listing the operations. Over HTTP against the mock serving the spec written here.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Files, version: "1"}
servers:
  - url: /api/v3
  - url: 'https://{env}.example.test/base/{version}'
    variables:
      env: {default: prod}
      version: {default: v1}
paths:
  /files/{name}.{ext}:
    get:
      operationId: getFile
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
        - {name: ext, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {size: {type: integer}}}, example: {size: 3}}}}
`;

describe("a request under the spec's server base path", () => {
  const mock = useMockForSpec(SPEC);

  it('is served at the root', async () => {
    const answer = await sendGet(mock.current, '/files/report.txt');
    expect([answer.status, answer.json]).toEqual([200, { size: 3 }]);
  });

  it.each([
    ['/api/v3/files/report.txt', '/api/v3'],
    ['/base/v1/files/report.txt', '/base/v1'],
  ])('%s: a 404 naming the base path and the path to send', async (path, base) => {
    const answer = await sendGet(mock.current, path);
    expect(answer.status).toBe(404);
    expect(answer.json.message).toBe(
      `No route matches GET ${path}: the spec's servers put the API under ${base}, and the mock serves its paths from its own root, as Prism does. Send GET /files/report.txt (a client's base URL is the mock's address alone).`,
    );
  });

  it('a path under the base path that is no route either: the plain 404', async () => {
    const answer = await send(mock.current, '/api/v3/folders/x', undefined, { method: 'GET', contentType: null });
    expect(answer.status).toBe(404);
    expect(answer.json.message).toMatch(/^No route matches GET \/api\/v3\/folders\/x\. The Files API has GET \/files\/\{name\}\.\{ext\}/);
  });
});
