/** Starts an HTTP server listening and tells where, for both mocks. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Loopback only unless told otherwise: the mock is a development tool. */
export const DEFAULT_HOST = '127.0.0.1';

export interface Listening {
  url: string;
  port: number;
  host: string;
}

/** Listens on `port` (0 picks a free one) and `host`; rejects on EADDRINUSE and the like. */
export async function listen(server: Server, port: number, host: string): Promise<Listening> {
  await new Promise<void>((resolve, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const bound = address.address;
  return { url: `http://${bound.includes(':') ? `[${bound}]` : bound}:${address.port}`, port: address.port, host: bound };
}
