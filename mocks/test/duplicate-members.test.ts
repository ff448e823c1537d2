/**
 * A JSON body that names a member twice in one object (issue 24, row 10): RFC 8259 §4 leaves the
 * reading to each parser, so the mock refuses it with a 400 naming the member's pointer, stores
 * nothing, and a later body with the member once is accepted.
 */
import { describe, expect, it } from 'vitest';
import { createPlant, expectError, freshId, listedPlantsText, send, useMock } from './mock-under-test.js';

describe('a JSON body with a repeated member name', () => {
  const mock = useMock();

  it('is a 400 naming /id, nothing is stored, and the id sent once is then accepted', async () => {
    const [first, second] = [freshId(), freshId()];
    const message = expectError(await createPlant(mock.current, `{"id":${first},"id":${second},"name":"x"}`), 400);
    expect(message).toContain('"id"');
    expect(message).toContain('/id');
    expect(message).toMatch(/twice/);
    const listed = await listedPlantsText(mock.current);
    expect(listed).not.toContain(String(first));
    expect(listed).not.toContain(String(second));
    const again = await createPlant(mock.current, `{"id":${first},"name":"x"}`);
    expect(again.status, again.text).toBe(200);
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${first},"name":"x"}`);
  });

  it.each([
    ['in a nested object inside an array', (id: number) => `{"id":${id},"name":"x","extra":{"a":[{"b":1},{"b":1,"b":2}]}}`, '/extra/a/1/b'],
    ['written with an escape', (id: number) => `{"id":${id},"i\\u0064":${id},"name":"x"}`, '/id'],
    ['next to an int64 id (the exact reading)', () => `{"id":9223372036854775807,"name":"x","id":9223372036854775806}`, '/id'],
    ['past 16 members', (id: number) => `{"id":${id},${Array.from({ length: 40 }, (_, k) => `"m${k}":${k}`).join(',')},"m39":0,"name":"x"}`, '/m39'],
    ['under a name with / and ~', (id: number) => `{"id":${id},"name":"x","a/b~":{"c":1,"c":1}}`, '/a~1b~0/c'],
  ])('is a 400 when the repeat is %s, naming its pointer', async (_case, body, pointer) => {
    const id = freshId();
    const message = expectError(await createPlant(mock.current, body(id)), 400);
    expect(message).toContain(`at ${pointer})`);
    expect(await listedPlantsText(mock.current)).not.toContain(String(id));
  });

  it('accepts the same name in different objects, and sibling objects each naming their members once', async () => {
    const id = freshId();
    const body = `{"id":${id},"name":"x","extra":[{"id":1,"name":"y"},{"id":2,"name":"z"}],"more":{"extra":{"id":3}}}`;
    const response = await createPlant(mock.current, body);
    expect(response.status, response.text).toBe(200);
  });

  it('reports malformed text as malformed, even when it repeats a name', async () => {
    expect(expectError(await createPlant(mock.current, '{"id":1,"id":'), 400)).toMatch(/not valid JSON/);
  });

  it('refuses a seed whose item repeats a name, storing none of it', async () => {
    const [ok, twice] = [freshId(), freshId()];
    const message = expectError(await send(mock.current, '/__mock/plants', `[{"id":${ok},"name":"a"},{"id":${twice},"name":"b","name":"c"}]`), 400);
    expect(message).toContain('/1/name');
    expect(await listedPlantsText(mock.current)).not.toContain(String(ok));
  });
});
