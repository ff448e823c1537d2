/** Parameters by style and explode (openapi/operations/parameters.ts): one table, every style of OpenAPI 3.1 4.8.12.4. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../schema/exact-json.js';
import { parameterReader, queryValues, type ParameterSpec, type ParameterStyle } from '../parameters.js';
import type { Schema } from '../../schema/resolve.js';

const strings: Schema = { type: 'array', items: { type: 'string' } };
const integers: Schema = { type: 'array', items: { type: 'integer' } };
const point: Schema = { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'number' }, on: { type: 'boolean' } } };
const document = { components: { schemas: { Ids: integers } } };

type Where = ParameterSpec['in'];
const cases: [string, Where, ParameterStyle, boolean, Schema, string, unknown][] = [
  // [what, in, style, explode, schema, what travels (query string / segment / header / cookie header), value]
  ['form exploded array (?tags=a&tags=b)', 'query', 'form', true, strings, 'tags=a&tags=b', ['a', 'b']],
  ['form exploded array, one value', 'query', 'form', true, strings, 'tags=a', ['a']],
  ['form array not exploded (?ids=1,2,3)', 'query', 'form', false, integers, 'ids=1,2,3', [1, 2, 3]],
  ['form array through a $ref', 'query', 'form', false, { $ref: '#/components/schemas/Ids' }, 'ids=4,5', [4, 5]],
  ['spaceDelimited', 'query', 'spaceDelimited', false, integers, 'ids=1%202+3', [1, 2, 3]],
  ['pipeDelimited', 'query', 'pipeDelimited', false, strings, 'ids=a|b', ['a', 'b']],
  ['deepObject', 'query', 'deepObject', true, point, 'p[x]=1&p[y]=2.5&p[on]=true', { x: 1, y: 2.5, on: true }],
  ['form exploded object (its properties as keys)', 'query', 'form', true, point, 'x=1&y=2&limit=3', { x: 1, y: 2 }],
  ['form object not exploded', 'query', 'form', false, point, 'p=x,1,y,2', { x: 1, y: 2 }],
  ['form integer, exact past 2^53', 'query', 'form', true, { type: 'integer' }, 'n=9007199254740993', 9007199254740992],
  ['form boolean', 'query', 'form', true, { type: 'boolean' }, 'b=false', false],
  ['a type list with null', 'query', 'form', true, { type: ['integer', 'null'] }, 'n=null', null],
  ['text that fits no type stays text (the validator explains)', 'query', 'form', true, { type: 'integer' }, 'n=ten', 'ten'],
  ['a JSON content parameter', 'query', 'content', false, point, 'j=%7B%22x%22%3A1%7D', { x: 1 }],
  ['path simple array', 'path', 'simple', false, integers, '3,4,5', [3, 4, 5]],
  ['path simple object', 'path', 'simple', false, point, 'x,1,y,2', { x: 1, y: 2 }],
  ['path simple object exploded', 'path', 'simple', true, point, 'x=1,y=2', { x: 1, y: 2 }],
  ['path label primitive', 'path', 'label', false, { type: 'integer' }, '.5', 5],
  ['path label array', 'path', 'label', false, strings, '.a,b', ['a', 'b']],
  ['path label array exploded', 'path', 'label', true, strings, '.a.b', ['a', 'b']],
  ['path label object exploded', 'path', 'label', true, point, '.x=1.y=2', { x: 1, y: 2 }],
  ['path matrix primitive', 'path', 'matrix', false, { type: 'integer' }, ';p=7', 7],
  ['path matrix array', 'path', 'matrix', false, integers, ';p=1,2', [1, 2]],
  ['path matrix array exploded', 'path', 'matrix', true, integers, ';p=1;p=2', [1, 2]],
  ['path matrix object', 'path', 'matrix', false, point, ';p=x,1,y,2', { x: 1, y: 2 }],
  ['path matrix object exploded', 'path', 'matrix', true, point, ';x=1;y=2', { x: 1, y: 2 }],
  ['header array', 'header', 'simple', false, integers, '1, 2,3', [1, 2, 3]],
  ['header object exploded', 'header', 'simple', true, point, 'x=1,y=2', { x: 1, y: 2 }],
  ['header integer', 'header', 'simple', false, { type: 'integer' }, '42', 42],
  ['cookie integer', 'cookie', 'form', true, { type: 'integer' }, 'a=1; p=42', 42],
  ['cookie array not exploded', 'cookie', 'form', false, strings, 'p=a,b', ['a', 'b']],
  ['cookie object not exploded', 'cookie', 'form', false, point, 'p=x,1,y,2', { x: 1, y: 2 }],
];

function read(where: Where, style: ParameterStyle, explode: boolean, schema: Schema, travels: string): unknown {
  const name = where === 'query' ? (travels.match(/^[a-z]+/)?.[0] ?? 'p') : 'p';
  const parameter: ParameterSpec = { name, in: where, style, explode, schema };
  const reader = parameterReader(parameter, document, new Set([name, 'limit']));
  return reader({
    path: where === 'path' ? { p: travels } : {},
    query: where === 'query' ? queryValues(travels) : new Map(),
    headers: where === 'header' ? { p: travels } : where === 'cookie' ? { cookie: travels } : {},
  });
}

describe('parameterReader', () => {
  it.each(cases)('%s', (_what, where, style, explode, schema, travels, expected) => {
    expect(read(where, style, explode, schema, travels)).toEqual(expected);
  });

  it('is undefined for a parameter the request does not send, wherever it travels', () => {
    const source = { path: {}, query: queryValues('other=1&p=2'), headers: {} };
    expect(parameterReader({ name: 'tags', in: 'query', style: 'form', explode: true, schema: strings }, document)(source)).toBeUndefined();
    expect(parameterReader({ name: 'p', in: 'query', style: 'deepObject', explode: true, schema: point }, document)(source)).toBeUndefined();
    expect(read('header', 'simple', false, integers, '')).toEqual([]);
    expect(parameterReader({ name: 'p', in: 'cookie', style: 'form', explode: true, schema: { type: 'string' } }, document)({ path: {}, query: new Map(), headers: {} })).toBeUndefined();
  });
});

// Short integers are read with Number, longer or other numbers exactly: both must give what parseExactJson gives.
describe('numeric parameters read as parseExactJson reads them', () => {
  const numberText = fc.oneof(
    fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map(String),
    fc.stringMatching(/^-?(0|[1-9][0-9]{0,20})(\.[0-9]{1,4})?([eE][+-]?[0-9]{1,2})?$/),
    fc.constantFrom('0', '-0', '007', '1.0', '999999999999999', '1000000000000000', '9007199254740993', '+1', ''),
  );
  it.each(['integer', 'number'])('%s: a query value and a path segment', (type) => {
    const query = parameterReader({ name: 'n', in: 'query', style: 'form', explode: true, schema: { type } }, document);
    const path = parameterReader({ name: 'n', in: 'path', style: 'simple', explode: false, schema: { type } }, document);
    const expected = (text: string): unknown => (/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text) ? parseExactJson(text) : text);
    fc.assert(
      fc.property(numberText, (text) => {
        expect(query({ path: {}, query: new Map([['n', [text]]]), headers: {} })).toStrictEqual(expected(text));
        expect(path({ path: { n: text }, query: new Map(), headers: {} })).toStrictEqual(expected(text));
      }),
    );
  });
});
