/**
 * Answers on one connection leave in the order of the requests, and an answer to a request the
 * mock acted on is sent before the connection is closed (issue 13, item 4). Raw sockets: fetch
 * can neither pipeline nor send malformed bytes after a request.
 */
import { describe, expect, it } from 'vitest';
import { answersOf, rawExchange, rawRequest } from './raw-http.js';
import { freshId, listedPlantsText, TOKEN, useMock } from './mock-under-test.js';

const json = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const create = (id: number, extra: Record<string, string> = {}) => rawRequest('/plants', { headers: { ...json, ...extra }, body: `{"id":${id},"name":"Kept"}` });

describe('one connection, a valid request then malformed bytes', () => {
  const mock = useMock();

  it('sends the 200 of the stored plant, then the 400, then closes', async () => {
    const id = freshId();
    const exchange = await rawExchange(mock.current.url, [create(id) + 'THIS IS NOT HTTP\r\n\r\n']);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.statuses).toEqual([200, 400]);
    const [created, malformed] = answersOf(exchange.text);
    expect(created?.body).toBe('{"name":"Kept"}');
    expect(JSON.parse(malformed?.body as string)).toEqual({ error: 400, message: expect.stringContaining('not well-formed HTTP') });
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${id},"name":"Kept"}`);
  });

  it('waits for an answer that is delayed, and for every pipelined answer before it', async () => {
    const [first, second] = [freshId(), freshId()];
    const exchange = await rawExchange(mock.current.url, [create(first, { prefer: 'delay=300' }) + create(second) + 'GARBAGE\r\n\r\n']);
    expect(exchange.statuses).toEqual([200, 200, 400]);
    expect(exchange.closedByServer).toBe(true);
    const listed = await listedPlantsText(mock.current);
    expect(listed).toContain(String(first));
    expect(listed).toContain(String(second));
  });

  it('answers malformed bytes alone at once', async () => {
    const exchange = await rawExchange(mock.current.url, ['GARBAGE\r\n\r\n']);
    expect(exchange.statuses).toEqual([400]);
    expect(exchange.closedByServer).toBe(true);
  });
});

describe('pipelined requests while the mock shuts down', () => {
  const mock = useMock();

  it('answers every request it acted on before closing the connection', async () => {
    const [first, second] = [freshId(), freshId()];
    // Both requests parsed (the first held by its delay): the event, not a guess at how long that takes.
    let parsed = 0;
    const bothParsed = new Promise<void>((resolve) => {
      const onRequest = (): void => {
        if (++parsed < 2) return;
        mock.current.server.off('request', onRequest);
        resolve();
      };
      mock.current.server.on('request', onRequest);
    });
    const exchange = rawExchange(mock.current.url, [create(first, { prefer: 'delay=500' }) + create(second)], { waitMs: 60_000 });
    await bothParsed;
    const closed = mock.current.close();
    const { statuses, closedByServer } = await exchange;
    await closed;
    const stored = await Promise.all([first, second].map((id) => mock.current.store.get('/plants', String(id))));
    // Whatever the mock stored, the client heard about; then the connection closed.
    expect(statuses.length).toBe(stored.filter(Boolean).length);
    expect(statuses).toEqual([200, 200]);
    expect(closedByServer).toBe(true);
  });
});
