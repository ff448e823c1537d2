/**
 * The JSON a client may send (issue 13, item 9): exact reading costs only what the spec needs
 * (the integer fields), and parser limits are the client's problem, worded as such — never an
 * internal message such as "Maximum call stack size exceeded".
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../openapi/schema/exact-json.js';
import { createPlant, expectError, freshId, listedPlantsText, send, useMock } from './mock-under-test.js';

const nested = (depth: number, inner = '0') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('JSON bodies at the parser limits', () => {
  const mock = useMock({ maxBody: 2 * 1024 * 1024 });

  it.each([
    ['an int64 id (the exact path)', '9223372036854775807'],
    ['a small id', '7'],
  ])('answers deep nesting inside an unknown field with a 400 naming the limit, with %s', async (_name, id) => {
    const message = expectError(await createPlant(mock.current, `{"id":${id},"name":"x","extra":${nested(200_000)}}`), 400);
    expect(message).toContain(String(MAX_JSON_DEPTH));
    expect(message).toMatch(/nest/i);
    expect(message).not.toMatch(/call stack|internal|bug/i);
  });

  it('answers deep nesting in the admin seed the same way', async () => {
    const message = expectError(await send(mock.current, '/__mock/plants', `[${nested(200_000)}]`), 400);
    expect(message).toContain(String(MAX_JSON_DEPTH));
  });

  it('accepts nesting up to the limit in an unknown field, and ignores it', async () => {
    const id = 9223372036854775806n;
    const response = await createPlant(mock.current, `{"id":${id},"name":"Deep","extra":${nested(MAX_JSON_DEPTH - 1, '1e0')}}`);
    expect(response.status, response.text).toBe(200);
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${id},"name":"Deep"}`);
  });

  it('accepts a megabyte of 1e0 in an unknown field next to an exact int64 id', async () => {
    const id = 9223372036854775805n;
    const junk = `[${Array.from({ length: 200_000 }, () => '1e0').join(',')}]`;
    const response = await createPlant(mock.current, `{"extra":${junk},"id":${id},"name":"Big"}`);
    expect(response.status, response.text).toBe(200);
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${id},"name":"Big"}`);
  });

  it('still decides the id on its literal where the exact path is taken', async () => {
    const response = await createPlant(mock.current, `{"id":9223372036854775808,"name":"x","extra":[1e0]}`);
    expect(expectError(response, 400)).toContain('id must be an integer from -9223372036854775808 to 9223372036854775807');
    const fraction = await createPlant(mock.current, `{"id":1.0000000000000001,"name":"x","extra":[1e0]}`);
    expect(expectError(fraction, 400)).toContain('id must be an integer, got the number 1.0000000000000001');
    expect((await createPlant(mock.current, `{"id":${freshId()}.0,"name":"x"}`)).status).toBe(200);
  });
});
