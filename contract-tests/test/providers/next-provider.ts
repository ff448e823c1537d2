/**
 * A correct provider of the Plant Store's next version (fixtures/specs/plant-store-next): the
 * seed's createPlant, GET /plants with `tags` (any of) and `limit`, GET and DELETE /plants/{id}
 * with 404s, bearer everywhere, errors as the spec's Error. Built as steps, like provider.ts: a
 * flaw replaces one step with a realistic mistake only a multi-operation, stateful suite catches;
 * a legal variant replaces one with another correct choice.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../../openapi/operations/compile.js';
import { exactInteger, parseExactJson } from '../../../openapi/schema/exact-json.js';
import type { CheckName } from '../../model.js';
import { REFERENCE, rawHeaderValues, type Provider } from './provider.js';

export const NEXT_SPEC = fileURLToPath(new URL('../../../fixtures/specs/plant-store-next/openapi.yaml', import.meta.url));

const validateNewPlant = loadContract(NEXT_SPEC).componentValidator('NewPlant');

type Plant = Record<string, unknown>;

/** The store, keyed by `key(id)`; insertion order is creation order. */
export type Store = Map<string, Plant>;

export interface NextBehaviour {
  /** Whether the request carries the valid credential, for an operation. */
  authorize(req: IncomingMessage, token: string, operation: 'create' | 'list' | 'read' | 'delete'): boolean;
  /** The status for a request without it. */
  unauthenticatedStatus: number;
  /** The key a plant is stored under, from its exact id. */
  key(id: bigint): string;
  /** The plants a list answers, from every stored plant, the tags asked for (any of them) and the limit. */
  list(plants: Plant[], tags: string[], limit: number | undefined): Plant[];
  /** The plant a read answers, or undefined for 404. */
  read(store: Store, key: string): Plant | undefined;
  /** Deletes; false when there was nothing (404). */
  remove(store: Store, key: string): boolean;
  /** A plant as answered. */
  answer(plant: Plant): Plant;
  /** Writes an answer. */
  send(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void;
}

const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export const NEXT_REFERENCE: NextBehaviour = {
  authorize(req, token) {
    const values = rawHeaderValues(req, 'authorization');
    return values.length === 1 && BEARER.exec(values[0] as string)?.[1] === token;
  },
  unauthenticatedStatus: 401,
  key: (id) => id.toString(),
  list: (plants, tags, limit) => plants.filter((p) => tags.length === 0 || tags.includes(p.tag as string)).slice(0, limit),
  read: (store, key) => store.get(key),
  remove: (store, key) => store.delete(key),
  answer: (plant) => plant,
  send: (res, status, text, headers) => REFERENCE.send(res, status, text, headers),
};

/** The plant's JSON with its id written by its exact digits (an int64 past 2^53 kept). */
function plantJson(plant: Plant): string {
  const id = plant.id;
  const rest = Object.fromEntries(Object.entries(plant).filter(([k]) => k !== 'id'));
  const body = JSON.stringify(rest);
  return `{"id":${typeof id === 'bigint' ? id.toString() : JSON.stringify(id)}${body === '{}' ? '' : `,${body.slice(1)}`}`;
}

export async function startNextProvider(options: { token: string; behaviour?: Partial<NextBehaviour> }): Promise<Provider> {
  const b: NextBehaviour = { ...NEXT_REFERENCE, ...options.behaviour };
  const store: Store = new Map();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res, options.token, b, store).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, token: string, b: NextBehaviour, store: Store): Promise<void> {
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
  const send = (status: number, body: string | undefined): void => (body === undefined ? b.send(res, status, '', {}) : b.send(res, status, body, { 'content-type': 'application/json' }));
  const fail = (status: number, message: string): void => send(status, JSON.stringify({ error: status, message }));
  const url = new URL(req.url ?? '/', 'http://provider');
  const item = /^\/plants\/([^/]+)$/.exec(url.pathname);
  const operation =
    url.pathname === '/plants'
      ? req.method === 'POST'
        ? 'create'
        : req.method === 'GET'
          ? 'list'
          : undefined
      : item
        ? req.method === 'GET'
          ? 'read'
          : req.method === 'DELETE'
            ? 'delete'
            : undefined
        : undefined;
  if (!operation) return fail(404, 'No such route.');
  if (!b.authorize(req, token, operation)) return fail(b.unauthenticatedStatus, 'A valid bearer token is required.');
  if (operation === 'create') {
    if (!REFERENCE.mediaTypeAccepted(req.headers['content-type'])) return fail(415, 'Send application/json.');
    const text = REFERENCE.decode(raw);
    if (text === undefined) return fail(400, 'The body is not UTF-8.');
    let value: unknown;
    try {
      value = parseExactJson(text);
    } catch (error) {
      return fail(400, `The body is not JSON (${(error as Error).message}).`);
    }
    if (!validateNewPlant(value)) return fail(400, 'The body is not a NewPlant.');
    const record = value as Plant;
    const id = exactInteger(record, 'id') as bigint;
    const key = b.key(id);
    if (store.has(key)) return fail(409, `The id ${id} is taken.`);
    const plant: Plant = { id, name: record.name, ...(record.tag === undefined ? {} : { tag: record.tag }) };
    store.set(key, plant);
    return send(200, plantJson(b.answer(plant)));
  }
  if (operation === 'list') {
    const limitText = url.searchParams.get('limit');
    const limit = limitText === null ? undefined : /^[1-9]\d{0,9}$/.test(limitText) && Number(limitText) <= 2 ** 31 - 1 ? Number(limitText) : NaN;
    if (Number.isNaN(limit)) return fail(400, 'limit must be a whole number from 1 to 2147483647.');
    const plants = b.list([...store.values()], url.searchParams.getAll('tags'), limit);
    return send(200, `[${plants.map((p) => plantJson(b.answer(p))).join(',')}]`);
  }
  const segment = decodeURIComponent((item as RegExpExecArray)[1] as string);
  if (!/^-?\d+$/.test(segment) || BigInt(segment) > 2n ** 63n - 1n || BigInt(segment) < -(2n ** 63n)) return fail(400, 'The id must be an int64.');
  const key = b.key(BigInt(segment));
  if (operation === 'read') {
    const plant = b.read(store, key);
    return plant ? send(200, plantJson(b.answer(plant))) : fail(404, `No plant has the id ${segment}.`);
  }
  return b.remove(store, key) ? send(204, undefined) : fail(404, `No plant has the id ${segment}.`);
}

/** Flaws only a multi-operation, stateful suite catches; each names the check that must catch it. */
export const NEXT_FLAWS: Record<string, { flaw: string; caughtBy: CheckName; says: RegExp; behaviour: () => Partial<NextBehaviour> }> = {
  'list-ignores-limit': {
    flaw: 'GET /plants ignores limit and lists every plant',
    caughtBy: 'list_honours_parameters',
    says: /with limit=1; the limit allows at most 1/,
    behaviour: () => ({ list: (plants, tags) => NEXT_REFERENCE.list(plants, tags, undefined) }),
  },
  'list-ignores-tags': {
    flaw: 'GET /plants ignores tags and lists plants of every tag',
    caughtBy: 'list_honours_parameters',
    says: /the filter was ignored/,
    behaviour: () => ({ list: (plants, _tags, limit) => NEXT_REFERENCE.list(plants, [], limit) }),
  },
  'read-answers-another': {
    flaw: 'GET /plants/{id} answers the plant created before the one asked for, when there is one',
    caughtBy: 'resource_consistency',
    says: /another record than the one asked for/,
    behaviour: () => ({
      read: (store, key) => {
        const keys = [...store.keys()];
        const at = keys.indexOf(key);
        return at > 0 ? store.get(keys[at - 1] as string) : store.get(key);
      },
    }),
  },
  'delete-keeps': {
    flaw: 'DELETE /plants/{id} answers 204 and keeps the plant',
    caughtBy: 'use_after_free',
    says: /after its delete was answered with success: the record was kept/,
    behaviour: () => ({ remove: (store, key) => store.has(key) }),
  },
  'deleted-still-listed': {
    flaw: 'a deleted plant is gone from reads but still listed (the list is a cache kept apart)',
    caughtBy: 'use_after_free',
    says: /still holds .* after its delete was answered with success/,
    behaviour: () => {
      // Each provider its own cache.
      const everCreated = new Map<string, Plant>();
      return {
        read: (store, key) => {
          for (const [k, v] of store) everCreated.set(k, v);
          return store.get(key);
        },
        list: (plants, tags, limit) => {
          for (const p of plants) everCreated.set(String(p.id), p);
          return NEXT_REFERENCE.list([...everCreated.values()], tags, limit);
        },
      };
    },
  },
  'unauthenticated-read': {
    flaw: 'GET /plants/{id} answers without a credential',
    caughtBy: 'ignored_auth',
    says: /Answered 200 to a request with no Authorization header; findPlantById requires a valid bearer token/,
    behaviour: () => ({ authorize: (req, token, operation) => operation === 'read' || NEXT_REFERENCE.authorize(req, token, operation) }),
  },
  'missing-answered-200': {
    flaw: 'GET /plants/{id} answers 200 with an empty plant for an id it does not have',
    caughtBy: 'missing_resource_not_found',
    says: /an id never created, answered 200; it must be 404/,
    behaviour: () => {
      // Only ids it never had: a deleted one is still 404.
      const deleted = new Set<string>();
      return {
        read: (store, key) => store.get(key) ?? (deleted.has(key) ? undefined : { id: BigInt(key), name: '' }),
        remove: (store, key) => {
          deleted.add(key);
          return store.delete(key);
        },
      };
    },
  },
  'ids-as-doubles': {
    flaw: 'plants are stored under their id as a double, so ids past 2^53 that differ by one are one plant',
    caughtBy: 'positive_data_acceptance',
    says: /was refused with 409/,
    behaviour: () => ({ key: (id) => String(Number(id)) }),
  },
};

/** Correct providers making other legal choices: each must pass, twice in a row. */
export const NEXT_LEGAL: Record<string, { choice: string; behaviour: () => Partial<NextBehaviour> }> = {
  'newest-first': { choice: 'lists the newest plant first', behaviour: () => ({ list: (plants, tags, limit) => NEXT_REFERENCE.list([...plants].reverse(), tags, limit) }) },
  'extra-fields': { choice: 'answers plants with fields the spec does not declare (createdAt)', behaviour: () => ({ answer: (plant) => ({ ...plant, createdAt: '2025-01-01T00:00:00Z' }) }) },
  'bad-request-for-auth': { choice: 'refuses a missing or wrong credential with 400 instead of 401', behaviour: () => ({ unauthenticatedStatus: 400 }) },
};
