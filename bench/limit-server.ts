/**
 * The limit: a bare node:http server that answers every request with a fixed 200 and the same
 * JSON body the mock sends for a created plant. Nothing a mock can do per request is cheaper, so
 * each server's throughput is read as a ratio to this one, measured in the same round.
 */
import { createServer } from 'node:http';

const BODY = '{"name":"Monstera"}';
const HEADERS = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };

const port = Number(process.argv[2] ?? 4020);
createServer((_req, res) => {
  // Node reads and discards the unread request body itself before the next request on the connection.
  res.writeHead(200, HEADERS);
  res.end(BODY);
}).listen(port, '127.0.0.1', () => process.stdout.write(`limit server on http://127.0.0.1:${port}\n`));

// Exit through process.exit on a signal, so `node --cpu-prof` writes its profile (bench:profile).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
