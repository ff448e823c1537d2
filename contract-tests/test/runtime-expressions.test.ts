/** OpenAPI runtime expressions (contract-tests/runtime-expressions.ts), as a link's parameters use them. */
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import { evaluateExpression, evaluateLinkValue, type Exchange } from '../runtime-expressions.js';

const exchange: Exchange = {
  url: 'http://127.0.0.1:8080/pets?kind=cat',
  method: 'post',
  statusCode: 201,
  request: { body: { name: 'Fern', tags: ['a', 'b'] }, path: { shopId: '7' }, query: { kind: 'cat' }, header: { 'X-Request-Id': 'r-1' } },
  response: { body: parseExactJson('{"id":9007199254740993,"a/b":{"~c":"deep"},"list":[{"id":"x"}],"small":5}'), header: { location: '/pets/5' } },
};

describe('runtime expressions', () => {
  it('reads the response body by JSON pointer, escapes and array indices included, an int64 on its exact digits', () => {
    expect(evaluateExpression('$response.body#/small', exchange)).toEqual({ ok: true, value: 5 });
    expect(evaluateExpression('$response.body#/a~1b/~0c', exchange)).toEqual({ ok: true, value: 'deep' });
    expect(evaluateExpression('$response.body#/list/0/id', exchange)).toEqual({ ok: true, value: 'x' });
    expect(evaluateExpression('$response.body#/id', exchange)).toEqual({ ok: true, value: 9007199254740993n });
    expect(evaluateExpression('$request.body#/tags/1', exchange)).toEqual({ ok: true, value: 'b' });
    expect(evaluateExpression('$request.body', exchange)).toEqual({ ok: true, value: exchange.request?.body });
  });

  it('reads headers in any case, path and query parameters, $url, $method and $statusCode', () => {
    expect(evaluateExpression('$response.header.Location', exchange)).toEqual({ ok: true, value: '/pets/5' });
    expect(evaluateExpression('$request.header.x-request-id', exchange)).toEqual({ ok: true, value: 'r-1' });
    expect(evaluateExpression('$request.path.shopId', exchange)).toEqual({ ok: true, value: '7' });
    expect(evaluateExpression('$request.query.kind', exchange)).toEqual({ ok: true, value: 'cat' });
    expect(evaluateExpression('$url', exchange)).toEqual({ ok: true, value: exchange.url });
    expect(evaluateExpression('$method', exchange)).toEqual({ ok: true, value: 'POST' });
    expect(evaluateExpression('$statusCode', exchange)).toEqual({ ok: true, value: 201 });
  });

  it('says why an expression names nothing or is not one', () => {
    expect(evaluateExpression('$response.body#/missing', exchange)).toMatchObject({ ok: false, problem: expect.stringMatching(/names nothing/) });
    expect(evaluateExpression('$request.path.nope', exchange)).toMatchObject({ ok: false });
    expect(evaluateExpression('$response.query.kind', exchange)).toMatchObject({ ok: false, problem: expect.stringMatching(/no query/) });
    expect(evaluateExpression('$response.body.id', exchange)).toMatchObject({ ok: false, problem: expect.stringMatching(/#\/pointer/) });
    expect(evaluateExpression('$response.body#id', exchange)).toMatchObject({ ok: false });
    expect(evaluateExpression('$cookie.x', exchange)).toMatchObject({ ok: false, problem: expect.stringMatching(/not a runtime expression/) });
    expect(evaluateExpression('$request.body#/__proto__', exchange)).toMatchObject({ ok: false });
  });

  it('takes constants as written and fills expressions embedded in braces', () => {
    expect(evaluateLinkValue(42, exchange)).toEqual({ ok: true, value: 42 });
    expect(evaluateLinkValue('plain', exchange)).toEqual({ ok: true, value: 'plain' });
    expect(evaluateLinkValue({ name: 'x' }, exchange)).toEqual({ ok: true, value: { name: 'x' } });
    expect(evaluateLinkValue('$response.body#/small', exchange)).toEqual({ ok: true, value: 5 });
    expect(evaluateLinkValue('/pets/{$response.body#/small}?via={$method}', exchange)).toEqual({ ok: true, value: '/pets/5?via=POST' });
    expect(evaluateLinkValue('/pets/{$response.body#/small', exchange)).toMatchObject({ ok: false, problem: expect.stringMatching(/never closes/) });
    expect(evaluateLinkValue('{$response.body#/nope}', exchange)).toMatchObject({ ok: false });
    expect(evaluateLinkValue('{$url}'.repeat(40), exchange)).toMatchObject({ ok: false, problem: expect.stringMatching(/more than 32/) });
  });
});
