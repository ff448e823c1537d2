/** GET /__mock/plants in pages: limit, after, the Link to the next page, the total, and the 400s. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTING_LIMIT, MAX_LISTING_LIMIT } from '../admin/listing.js';
import { expectError, send, useMock } from './mock-under-test.js';

describe('the listing of a collection, paged', () => {
  const mock = useMock();
  const total = DEFAULT_LISTING_LIMIT + 250;

  it('answers the first page by default, with the total and a Link to the next', async () => {
    await send(mock.current, '/__mock/plants', undefined, { method: 'DELETE', contentType: null });
    const seed = Array.from({ length: total }, (_, i) => `{"id":${9223372036854775807n - BigInt(i)},"name":"p${i}"}`);
    expect((await send(mock.current, '/__mock/plants', `[${seed.join(',')}]`)).status).toBe(200);
    const response = await fetch(`${mock.current.url}/__mock/plants`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-total-count')).toBe(String(total));
    const text = await response.text();
    // Ids stay exact: the text is the stored JSON, never re-serialised.
    expect(text).toBe(`[${seed.slice(0, DEFAULT_LISTING_LIMIT).join(',')}]`);
    const next = /^<(\/__mock\/plants\?limit=1000&after=[^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const second = await fetch(mock.current.url + next);
    expect(await second.text()).toBe(`[${seed.slice(DEFAULT_LISTING_LIMIT).join(',')}]`);
    expect(second.headers.get('link')).toBeNull();
  });

  it('walks every record once, in creation order, with any page size', async () => {
    const ids: string[] = [];
    let next: string | undefined = '/__mock/plants?limit=97';
    for (let pages = 0; next && pages < 100; pages++) {
      const response: Response = await fetch(mock.current.url + next);
      ids.push(...[...(await response.text()).matchAll(/"id":(\d+)/g)].map((m) => m[1] as string));
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    expect(next).toBeUndefined();
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(ids[0]).toBe('9223372036854775807');
    expect(ids.at(-1)).toBe(String(9223372036854775807n - BigInt(total - 1)));
  });

  it('follows a cursor taken before a reset to every record created after it, none skipped', async () => {
    const wipe = () => send(mock.current, '/__mock/plants', undefined, { method: 'DELETE', contentType: null });
    const seed = (names: string[]) => send(mock.current, '/__mock/plants', JSON.stringify(names.map((name, i) => ({ id: i + 1, name }))));
    await wipe();
    await seed(['a', 'b', 'c']);
    const first = await fetch(`${mock.current.url}/__mock/plants?limit=2`);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] as string;
    await wipe();
    await seed(['x', 'y', 'z']);
    const after = await (await fetch(mock.current.url + next)).json();
    expect(after.map((plant: { name: string }) => plant.name)).toEqual(['x', 'y']); // the cursor's page size, from the first new record
  });

  it('answers an empty collection with [] and no Link', async () => {
    await send(mock.current, '/__mock/plants', undefined, { method: 'DELETE', contentType: null });
    const response = await fetch(`${mock.current.url}/__mock/plants?limit=5`);
    expect(await response.text()).toBe('[]');
    expect(response.headers.get('link')).toBeNull();
    expect(response.headers.get('x-total-count')).toBe('0');
  });

  it.each([
    ['limit=0', `limit must be a whole number from 1 to ${MAX_LISTING_LIMIT}, got "0"`],
    [`limit=${MAX_LISTING_LIMIT + 1}`, 'limit must be a whole number'],
    ['limit=-5', 'limit must be a whole number'],
    ['limit=1.5', 'limit must be a whole number'],
    ['limit=', 'limit must be a whole number'],
    ['after=', "after must be the cursor of a previous page's Link header"],
    ['after=abc', 'after must be the cursor of a previous page\'s Link header, got "abc"'],
    ['after=-1', "after must be the cursor of a previous page's Link header"],
    [`after=${'9'.repeat(300)}`, "after must be the cursor of a previous page's Link header"],
    ['offset=10', '"offset" is not a parameter of this route (it takes limit and after)'],
    ['limit=1&limit=2', 'limit is given more than once'],
  ])('answers ?%s with a 400 in the Error shape', async (query, expected) => {
    const response = await send(mock.current, `/__mock/plants?${query}`, undefined, { method: 'GET', contentType: null, noAuth: true });
    expect(expectError(response, 400)).toContain(expected);
  });

  it('names at most ten problems of a query and counts the rest', async () => {
    const query = Array.from({ length: 1000 }, (_, i) => `unknown${i}=1`).join('&');
    const response = await send(mock.current, `/__mock/plants?${query}`, undefined, { method: 'GET', contentType: null, noAuth: true });
    const message = expectError(response, 400);
    expect(message.match(/is not a parameter of this route/g)).toHaveLength(10);
    expect(message).toContain('"unknown9"');
    expect(message).not.toContain('"unknown10"');
    expect(message).toContain('(and 990 more)');
  });
});
