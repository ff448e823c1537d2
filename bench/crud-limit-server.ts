/**
 * The limit of the multi-operation workload (bench/crud.ts): a bare node:http server answering
 * each operation with the bytes the mock answered it with (read once from the mock before the
 * rounds): POST → the create's answer (its status `createStatus`, 200 unless said), GET of an item
 * → the read's 200, GET with a query → the list of 20, DELETE → 204. Arguments: port, then a JSON
 * file {create, createStatus, read, list} of answer bodies.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 4021);
const bodies = JSON.parse(readFileSync(String(process.argv[3]), 'utf8')) as { create: string; createStatus?: number; read: string; list: string };
const answer = (body: string) => ({ body, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
const create = answer(bodies.create);
const read = answer(bodies.read);
const list = answer(bodies.list);

createServer((req, res) => {
  if (req.method === 'DELETE') {
    res.writeHead(204);
    res.end();
    return;
  }
  const chosen = req.method === 'POST' ? create : (req.url ?? '').includes('?') ? list : read;
  res.writeHead(chosen === create ? (bodies.createStatus ?? 200) : 200, chosen.headers);
  res.end(chosen.body);
}).listen(port, '127.0.0.1', () => process.stdout.write(`crud limit server on http://127.0.0.1:${port}\n`));

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
