/**
 * Issue 39 item 10: 150 clients ask for the whole journal and never read. The streams of one
 * server share each loop turn (http/stream.ts, StreamShare): together they make at most a share of
 * characters per turn, so a health check on a new connection is answered while they wait, after a
 * bounded amount of their work, never after a turn in which every stream made a piece. Counted in
 * characters made (a work count), never in time.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { StreamShare } from '../http/stream.js';
import { useMock } from './mock-under-test.js';

const SHARE = 64 * 1024;
const STREAMS = 150;
const ENTRIES = 30;
const share = new StreamShare(SHARE);
const mock = useMock({ maxBody: 256 * 1024, streamShare: share });

async function settle(until: () => boolean): Promise<void> {
  for (let turn = 0; !until() && turn < 100_000; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the journal streamed to clients that never read', () => {
  it('makes a bounded share of pieces per loop turn: health is answered after a few entries of their work', async () => {
    const body = JSON.stringify({ name: 'n'.repeat(60_000) });
    for (let i = 0; i < ENTRIES; i++) {
      const created = await fetch(`${mock.current.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body });
      await created.arrayBuffer();
    }
    // One whole entry: the request's body and the answer's, with their headers.
    const entryChars = 2 * body.length;
    const sockets: Socket[] = [];
    try {
      const { port } = new URL(mock.current.url);
      for (let i = 0; i < STREAMS; i++) {
        const socket = connect(Number(port), '127.0.0.1');
        socket.on('error', () => undefined);
        socket.pause();
        socket.write('GET /__mock/requests?whole=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        sockets.push(socket);
      }
      // The streams are under way: as much made as a piece of each.
      await settle(() => share.made >= STREAMS * entryChars);
      expect(share.made).toBeGreaterThanOrEqual(STREAMS * entryChars);
      const before = share.made;
      const health = await fetch(`${mock.current.url}/__mock/health`);
      expect(health.status).toBe(200);
      const during = share.made - before;
      // A few turns of the share and a piece each (measured: 2 entries); without the share, the
      // streams' turns made 25 entries meanwhile (a piece each until their sockets fill).
      expect(during).toBeLessThan(10 * entryChars);
      // And they were not done: most of their pages were still to make.
      expect(share.made).toBeLessThan(STREAMS * ENTRIES * entryChars);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
