/**
 * `--max-connections` (issue 24): idle connections never lock new clients out. 21 000 idle
 * connections once reached the open-file limit and new clients were refused for about 90 s, until
 * Node's header timeout freed them. Past the limit a new connection closes the oldest idle one;
 * a connection owed an answer is never the one closed. The real mock process, raw sockets.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseMockArgs } from '../config.js';
import { DEFAULT_MAX_CONNECTIONS } from '../server.js';
import { startMockProcess } from './processes.js';

const LIMIT = 40;
const IDLE = 4 * LIMIT;

/** Opens `count` connections that send half a request line and nothing more; resolves once each is connected. */
async function idleSockets(url: string, count: number): Promise<{ sockets: Socket[]; closed: () => number }> {
  const { port } = new URL(url);
  let closed = 0;
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () => {
            socket.write('GET /__mock/health HT');
            resolve(socket);
          });
          socket.on('error', () => {});
          socket.on('close', () => closed++);
        }),
    ),
  );
  return { sockets, closed: () => closed };
}

describe('--max-connections', () => {
  it(`answers a new client while ${IDLE} idle connections are open against a limit of ${LIMIT}, keeping at most the limit open`, async () => {
    const mock = await startMockProcess(['--log-level', 'silent', '--max-connections', String(LIMIT)]);
    // A connection owed an answer (a delayed create) is not one the limit closes.
    const busy = fetch(`${mock.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json', prefer: 'delay=1500' },
      body: '{"id":1,"name":"kept"}',
    });
    const idle = await idleSockets(mock.url, IDLE);
    try {
      for (let i = 0; i < 5; i++) expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
      // The mock closed the oldest idle ones to make room: at most the limit stay open.
      await expect.poll(() => IDLE - idle.closed()).toBeLessThanOrEqual(LIMIT);
      expect((await busy).status).toBe(200);
    } finally {
      for (const socket of idle.sockets) socket.destroy();
    }
  });

  it('has a documented default, and an environment variable', () => {
    expect(parseMockArgs([]).maxConnections).toBe(DEFAULT_MAX_CONNECTIONS);
    expect(parseMockArgs(['--max-connections', '5']).maxConnections).toBe(5);
    expect(() => parseMockArgs(['--max-connections', '0'])).toThrow();
  });
});
