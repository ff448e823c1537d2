/** Ids are exact over the whole int64 range: parsed losslessly, stored and listed exactly. */
import { describe, expect, it } from 'vitest';
import { createPlant, expectError, listedPlantsText, send, useMock } from './mock-under-test.js';
import { exactJson } from '../http/answer.js';

const mock = useMock();

describe('int64 ids', () => {
  it.each(['9223372036854775807', '-9223372036854775808', '0', '-1', '9007199254740993'])('accepts %s and lists it exactly', async (id) => {
    const response = await createPlant(mock.current, `{"id":${id},"name":"edge ${id}"}`);
    expect(response.status, response.text).toBe(200);
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${id},"name":"edge ${id}"}`);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '1e19', '123456789012345678901234567890'])('rejects %s, just outside int64, with a 400', async (id) => {
    expect(expectError(await createPlant(mock.current, `{"id":${id},"name":"x"}`), 400)).toContain('id must be an integer from');
  });

  it.each([
    ['1.5', 'the number 1.5'],
    ['"7"', 'the string "7"'],
    ['1.0000000000000001', 'the number 1.0000000000000001'],
    ['9223372036854775806.5', 'the number 9223372036854775806.5'],
  ])('rejects the non-integer id %s, quoting it as sent', async (id, quoted) => {
    const message = expectError(await createPlant(mock.current, `{"id":${id},"name":"x"}`), 400);
    expect(message).toContain(`id must be an integer, got ${quoted}`);
  });

  it('quotes a stand-in number as sent in a seed array too', async () => {
    const response = await send(mock.current, '/__mock/plants', '[{"id":1,"name":"a"},{"id":2.0000000000000001,"name":"b"}]');
    expect(response.status).toBe(400);
    expect(response.text).toContain('[1] id must be an integer, got the number 2.0000000000000001');
  });

  it('stores two ids that round to the same double as two plants', async () => {
    // 2^53 + 1 and 2^53 + 2 both become 9007199254740992 under JSON.parse... and 2^53 itself.
    for (const id of ['9007199254740992', '9007199254740994', '9007199254740995']) {
      expect((await createPlant(mock.current, `{"id":${id},"name":"twin ${id}"}`)).status).toBe(200);
    }
    expect((await createPlant(mock.current, '{"id":9007199254740995,"name":"again"}')).status).toBe(409);
    const listed = await listedPlantsText(mock.current);
    for (const id of ['9007199254740992', '9007199254740994', '9007199254740995']) expect(listed).toContain(`"id":${id},`);
  });

  it('reads integral forms such as 1.0 and 1e3 as the integers they denote', async () => {
    expect((await createPlant(mock.current, '{"id":4.0,"name":"four"}')).status).toBe(200);
    expect((await createPlant(mock.current, '{"id":4,"name":"four again"}')).status).toBe(409);
    expect((await createPlant(mock.current, '{"id":2e3,"name":"two thousand"}')).status).toBe(200);
    expect(await listedPlantsText(mock.current)).toContain('{"id":2000,"name":"two thousand"}');
  });
});

describe('exactJson (answers written from values: the admin routes, the Prism mock)', () => {
  it('writes a whole double past 2^53 as the integer it is, not as JSON.stringify rounds its digits', () => {
    // JSON.stringify writes -2^63 as -9223372036854776000: outside int64 for a reader of exact numbers.
    expect(JSON.stringify(-(2 ** 63))).toBe('-9223372036854776000');
    expect(exactJson({ min: -(2 ** 63), big: 2 ** 60, safe: 42, half: 1.5, huge: 1e300, exact: 9223372036854775807n })).toBe(
      '{"min":-9223372036854775808,"big":1152921504606846976,"safe":42,"half":1.5,"huge":1e+300,"exact":9223372036854775807}',
    );
  });
});
