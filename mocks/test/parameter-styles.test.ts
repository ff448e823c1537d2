/**
 * Parameters read by their style and explode over real HTTP (fixtures/specs/parameter-styles,
 * petstore-expanded-3.0): a request is valid only when each parameter was deserialized and coerced
 * as the spec says, and an invalid one is refused naming the parameter.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useMock } from './mock-under-test.js';

const corpus = (name: string): string => fileURLToPath(new URL(`../../fixtures/specs/${name}`, import.meta.url));

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers });
  return { status: response.status, text: await response.text() };
}

describe('parameter styles over HTTP', () => {
  const mock = useMock({ spec: corpus('parameter-styles/openapi.yaml') });

  it.each([
    ['form, exploded array', '?tags=a&tags=b'],
    ['form array not exploded, integers coerced', '?ids=1,2,3'],
    ['spaceDelimited', '?sizes=10%2020'],
    ['pipeDelimited', '?colours=red|blue'],
    ['deepObject, coerced per property', '?filter[min]=1&filter[max]=9&filter[organic]=true'],
    ['form object not exploded', '?point=x,1.5,y,2'],
    ['integer and boolean', '?limit=10&fresh=false'],
    ['a JSON content parameter', `?json=${encodeURIComponent('{"a":1}')}`],
    ['everything at once', '?tags=a&ids=4,5&sizes=1&colours=green&filter[min]=0&point=x,0,y,0&limit=1&fresh=true&q=x'],
  ])('accepts %s', async (_what, query) => {
    const answer = await get(`${mock.current.url}/search${query}`);
    expect(answer.status, answer.text).toBe(200);
  });

  it.each([
    ['four tags where three are allowed', '?tags=a&tags=b&tags=c&tags=d', /tags/],
    ['a non-integer among ids', '?ids=1,x', /ids/],
    ['a size past the maximum', '?sizes=1%20200', /sizes/],
    ['a colour outside the enum', '?colours=red|pink', /colours/],
    ['a deepObject property not declared', '?filter[colour]=red', /filter/],
    ['a deepObject integer that is not one', '?filter[min]=low', /filter/],
    ['an object missing a property', '?point=x,1', /point/],
    ['a JSON parameter of the wrong shape', `?json=${encodeURIComponent('{"b":1}')}`, /json/],
    ['a limit past its maximum', '?limit=51', /limit/],
    ['an integer sent twice, though each value fits', '?limit=1&limit=2', /query parameter limit was sent more than once but takes one value/],
    ['a string sent twice', '?q=a&q=b', /query parameter q was sent more than once but takes one value/],
  ])('refuses %s', async (_what, query, names) => {
    const answer = await get(`${mock.current.url}/search${query}`);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.text).toMatch(names);
  });

  it('reads path parameters in simple, label and matrix style', async () => {
    expect((await get(`${mock.current.url}/rows/1,2/.a,b/;r=3;c=4`)).status).toBe(200);
    const short = await get(`${mock.current.url}/rows/1/.a/;r=3;c=4`);
    expect(short.status, short.text).toBe(400);
    expect(short.text).toMatch(/ids/);
    const matrix = await get(`${mock.current.url}/rows/1,2/.a/;r=x;c=4`);
    expect(matrix.status, matrix.text).toBe(400);
    expect(matrix.text).toMatch(/matrix/);
  });

  it('reads header and cookie parameters', async () => {
    const ok = await get(`${mock.current.url}/headers`, { 'x-ids': '1, 2', 'x-point': 'x=1,y=2', 'x-count': '3', cookie: 'session=5; flavours=mint,lime' });
    expect(ok.status, ok.text).toBe(200);
    const bad = await get(`${mock.current.url}/headers`, { 'x-ids': '1,two', cookie: 'flavours=mint' });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.text).toMatch(/x-ids/);
    expect(bad.text).toMatch(/flavours/);
  });
});

describe('the petstore-expanded list parameters', () => {
  const mock = useMock({ spec: corpus('petstore-expanded-3.0/openapi.yaml') });

  it('takes ?tags=a&tags=b and a limit, and refuses a limit that is no integer', async () => {
    const answer = await get(`${mock.current.url}/pets?tags=dog&tags=cat&limit=5`);
    expect(answer.status, answer.text).toBe(200);
    const bad = await get(`${mock.current.url}/pets?limit=five`);
    expect(bad.status, bad.text).toBe(400);
    expect(bad.text).toMatch(/limit/);
  });
});
