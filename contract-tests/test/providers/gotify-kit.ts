/**
 * A real API's kit: a correct in-process provider of Gotify's applications and messages
 * (fixtures/real-world/gotify, eight of its operations: applications created, listed as a bare
 * array, replaced and deleted; messages created, listed newest first in `{messages, paging}` pages
 * walked by `since` and `next`, listed below their application, deleted; the key in X-Gotify-Key, in
 * Authorization, in the `token` query parameter, or HTTP Basic), legal variants and single-flaw
 * providers. real-api-kits.test.ts runs the suite against each and requires the exit and the check
 * named here (docs/contract-mutations.md, "Real APIs").
 */
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../../openapi/operations/compile.js';
import { exactInteger, exactJsonOf, parseExactJson } from '../../../openapi/schema/exact-json.js';
import { startSmallProvider, type Answer, type SmallRequest } from './small-provider.js';
import type { Provider } from './provider.js';
import type { KitRow } from './maestro-kit.js';

export const GOTIFY_SPEC = fileURLToPath(new URL('../../../fixtures/real-world/gotify/spec.json', import.meta.url));
/** The operations the kit implements. */
export const GOTIFY_OPERATIONS = ['getApps', 'createApp', 'updateApplication', 'deleteApp', 'getAppMessages', 'createMessage', 'getMessages', 'deleteMessage'];
const compiled = loadContract(GOTIFY_SPEC);
const bodyValidator = (operationId: string) => compiled.operations.get(operationId)?.requestBody?.content.get('application/json')?.validate;
const validApplication = bodyValidator('createApp');
const validMessage = bodyValidator('createMessage');

export type GotifyVariant =
  // legal
  | 'extra-properties'
  | 'sparse-ids'
  | 'forbidden-for-wrong-key'
  // flawed
  | 'next-repeats-page'
  | 'past-end-crashes'
  | 'limit-ignored'
  | 'delete-keeps-message'
  | 'update-not-persisted'
  | 'created-app-not-listed'
  | 'unknown-message-delete-200'
  | 'date-without-offset'
  | 'image-missing'
  | 'priority-as-string'
  | 'list-without-key'
  | 'name-trimmed'
  | 'message-without-text-accepted'
  | 'limit-over-200-accepted'
  | 'error-without-code'
  | 'messages-of-unknown-app-200';

interface App {
  id: number;
  name: string;
  description: string;
  defaultPriority: bigint;
  sortKey: string;
  createdAt: string;
}
interface Message {
  id: number;
  appid: bigint;
  message: string;
  title?: string;
  priority: bigint;
  /** The extras as sent, numbers exact. */
  extras?: string;
  date: string;
}

/** JSON text of a value whose bigints are int64 numbers and whose `Raw` members are JSON text already. */
class Raw {
  constructor(readonly text: string) {}
}
function json(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(json).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** The value of an integer parameter: undefined when absent, NaN when not a whole number in [min, max]. */
function integer(text: string | null, min: number, max: number): number | undefined {
  if (text === null) return undefined;
  if (!/^-?\d{1,15}$/.test(text)) return NaN;
  const value = Number(text);
  return value >= min && value <= max ? value : NaN;
}

export async function startGotifyProvider(key: string, basic: string, variant?: GotifyVariant): Promise<Provider> {
  const step = variant === 'sparse-ids' ? 1000 : 1;
  let lastId = variant === 'sparse-ids' ? 70_000 : 0;
  const nextId = (): number => (lastId += step);
  // The key's own application: a message sent without an application of the user's goes there, as Gotify does for an application token.
  const own: App = { id: nextId(), name: 'kit', description: 'the key’s own application', defaultPriority: 0n, sortKey: 'a0', createdAt: '2026-01-01T00:00:00Z' };
  const apps = new Map<number, App>([[own.id, own]]);
  const messages = new Map<number, Message>();
  return startSmallProvider((request: SmallRequest, answer: Answer) => {
    const { pathname, searchParams } = request.url;
    const fail = (status: number, description: string): void => {
      const error = { error: status === 400 ? 'Bad Request' : status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found', errorCode: status, errorDescription: description };
      answer(status, variant === 'error-without-code' ? { error: error.error, errorDescription: description } : error);
    };
    const ok = (body: unknown): void => answer(200, Buffer.from(json(body)), { 'content-type': 'application/json' });
    const extra = (value: Record<string, unknown>): Record<string, unknown> => (variant === 'extra-properties' ? { ...value, lastUsed: '2026-01-01T00:00:00Z', kitRevision: 3 } : value);
    const appJson = (app: App): Record<string, unknown> => {
      const value: Record<string, unknown> = {
        id: app.id,
        token: `A${app.id}`,
        name: app.name,
        description: app.description,
        internal: false,
        image: 'static/defaultapp.png',
        defaultPriority: app.defaultPriority,
        sortKey: app.sortKey,
        createdAt: app.createdAt,
      };
      if (variant === 'image-missing') delete value.image;
      return extra(value);
    };
    const messageJson = (m: Message): Record<string, unknown> =>
      extra({
        id: m.id,
        appid: m.appid,
        message: m.message,
        ...(m.title === undefined ? {} : { title: m.title }),
        priority: variant === 'priority-as-string' ? String(m.priority) : m.priority,
        ...(m.extras === undefined ? {} : { extras: new Raw(m.extras) }),
        date: variant === 'date-without-offset' ? m.date.replace(/Z$/, '') : m.date,
      });
    const body = (): Record<string, unknown> | undefined => {
      if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return undefined;
      let value: unknown;
      try {
        value = parseExactJson(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
      } catch {
        return undefined;
      }
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    };
    /** A page of `all` (newest first): ids below `since`, at most `limit`, with Gotify's paging object. */
    const page = (all: Message[], base: string): void => {
      const limit = integer(searchParams.get('limit'), 1, variant === 'limit-over-200-accepted' ? 1000 : 200) ?? 100;
      const sinceText = searchParams.get('since');
      const since = sinceText === null ? 0n : /^\d{1,19}$/.test(sinceText) && BigInt(sinceText) <= 2n ** 63n - 1n ? BigInt(sinceText) : undefined;
      if (Number.isNaN(limit) || since === undefined) return fail(400, 'limit is 1 to 200, since a whole number from 0.');
      const newestFirst = all.sort((a, b) => b.id - a.id);
      if (variant === 'past-end-crashes' && since > 0n && !newestFirst.some((m) => BigInt(m.id) < since)) return fail(500, 'index out of range');
      const below = variant === 'next-repeats-page' ? newestFirst : newestFirst.filter((m) => since === 0n || BigInt(m.id) < since);
      const shown = variant === 'limit-ignored' ? below : below.slice(0, limit);
      const last = shown.at(-1)?.id ?? 0;
      const more = below.length > shown.length;
      ok({
        messages: shown.map(messageJson),
        paging: { size: shown.length, since: last, limit, ...(more ? { next: `${base}?limit=${limit}&since=${last}` } : {}) },
      });
    };

    const route =
      pathname === '/application'
        ? { GET: 'getApps', POST: 'createApp' }[request.method ?? '']
        : /^\/application\/[^/]+$/.test(pathname)
          ? { PUT: 'updateApplication', DELETE: 'deleteApp' }[request.method ?? '']
          : /^\/application\/[^/]+\/message$/.test(pathname)
            ? { GET: 'getAppMessages' }[request.method ?? '']
            : pathname === '/message'
              ? { GET: 'getMessages', POST: 'createMessage' }[request.method ?? '']
              : /^\/message\/[^/]+$/.test(pathname)
                ? { DELETE: 'deleteMessage' }[request.method ?? '']
                : undefined;
    if (!route) return fail(404, 'No such route.');

    // The key in X-Gotify-Key, in Authorization (the apiKey scheme's value, the whole header: real Gotify wants `Bearer <key>`, which
    // the suite cannot send until --token takes a scheme prefix; see docs/contract-mutations.md), in ?token=, or HTTP Basic.
    const authorization = request.headers.authorization ?? '';
    const inAuthorization = authorization !== '' && !/^basic /i.test(authorization) ? authorization : undefined;
    const given = [request.headers['x-gotify-key'], inAuthorization, searchParams.get('token') ?? undefined].filter((v): v is string => typeof v === 'string');
    const basicOk = /^basic +(\S+)$/i.exec(authorization)?.[1] === Buffer.from(basic).toString('base64');
    const authorised = basicOk || (given.length > 0 && given.every((v) => v === key));
    if (!authorised && !(variant === 'list-without-key' && route === 'getMessages')) {
      const wrong = given.length > 0 || /^basic /i.test(authorization);
      return fail(wrong && variant === 'forbidden-for-wrong-key' ? 403 : 401, 'you need to provide a valid access token or user credentials to access this api');
    }
    // Any int64 is a valid id (400 only for what is not one); one past what this store ever assigns is simply not found (0).
    const pathId = (): number => {
      const text = decodeURIComponent(pathname.split('/')[2] as string);
      if (!/^-?\d{1,19}$/.test(text) || BigInt(text) > 2n ** 63n - 1n || BigInt(text) < -(2n ** 63n)) return NaN;
      return BigInt(text) > BigInt(Number.MAX_SAFE_INTEGER) || BigInt(text) < 1n ? 0 : Number(text);
    };

    switch (route) {
      case 'getApps':
        return ok([...apps.values()].filter((a) => variant !== 'created-app-not-listed' || a.id === own.id).map(appJson));
      case 'createApp':
      case 'updateApplication': {
        const params = body();
        if (!params || !validApplication?.(params)) return fail(400, 'The body is not an ApplicationParams.');
        const fields = {
          name: variant === 'name-trimmed' ? (params.name as string).trim() : (params.name as string),
          description: typeof params.description === 'string' ? params.description : '',
          defaultPriority: exactInteger(params, 'defaultPriority') ?? 0n,
          sortKey: typeof params.sortKey === 'string' ? params.sortKey : 'a1',
        };
        if (route === 'createApp') {
          const app: App = { id: nextId(), ...fields, createdAt: new Date().toISOString() };
          apps.set(app.id, app);
          return ok(appJson(app));
        }
        const id = pathId();
        if (Number.isNaN(id)) return fail(400, 'The id is an int64.');
        const app = apps.get(id);
        if (!app) return fail(404, 'app does not exist');
        const updated = { ...app, ...fields };
        if (variant !== 'update-not-persisted') apps.set(id, updated);
        return ok(appJson(updated));
      }
      case 'deleteApp': {
        const id = pathId();
        if (Number.isNaN(id)) return fail(400, 'The id is an int64.');
        if (!apps.has(id) || id === own.id) return fail(404, 'app does not exist');
        apps.delete(id);
        for (const [messageId, m] of messages) if (m.appid === BigInt(id)) messages.delete(messageId);
        return answer(200);
      }
      case 'getAppMessages': {
        const id = pathId();
        if (Number.isNaN(id)) return fail(400, 'The id is an int64.');
        if (!apps.has(id) && variant !== 'messages-of-unknown-app-200') return fail(404, 'app does not exist');
        return page(
          [...messages.values()].filter((m) => m.appid === BigInt(id)),
          `/application/${id}/message`,
        );
      }
      case 'createMessage': {
        const sent = body();
        const textless = variant === 'message-without-text-accepted' && sent !== undefined && sent.message === undefined && validMessage?.({ ...sent, message: '' });
        if (!sent || (!validMessage?.(sent) && !textless)) return fail(400, 'The body is not a CreateMessage.');
        // An appid is kept as sent (a message of an application deleted since is kept too); none: the key's own application.
        const appid = exactInteger(sent, 'appid') ?? BigInt(own.id);
        const message: Message = {
          id: nextId(),
          appid,
          message: typeof sent.message === 'string' ? sent.message : '',
          ...(typeof sent.title === 'string' ? { title: sent.title } : {}),
          priority: exactInteger(sent, 'priority') ?? apps.get(Number(appid))?.defaultPriority ?? 0n,
          ...(sent.extras !== undefined ? { extras: exactJsonOf(sent, 'extras') } : {}),
          date: new Date().toISOString(),
        };
        messages.set(message.id, message);
        return ok(messageJson(message));
      }
      case 'getMessages':
        return page([...messages.values()], '/message');
      default: {
        const id = pathId();
        if (Number.isNaN(id)) return fail(400, 'The id is an int64.');
        if (!messages.has(id) && variant !== 'unknown-message-delete-200') return fail(404, 'message does not exist');
        if (variant !== 'delete-keeps-message') messages.delete(id);
        return answer(200);
      }
    }
  });
}

export const GOTIFY_LEGAL: Partial<Record<GotifyVariant, KitRow>> = {
  'extra-properties': { what: 'adds `lastUsed` (declared, optional) and `kitRevision` (undeclared) to every application and message' },
  'sparse-ids': { what: 'numbers records from 70 000 in steps of 1 000, not 1, 2, 3' },
  'forbidden-for-wrong-key': { what: 'answers a wrong key 403 (declared) and only a missing one 401' },
};

export const GOTIFY_FLAWS: Partial<Record<GotifyVariant, Required<KitRow>>> = {
  'next-repeats-page': { what: '`since` ignored: every `next` link answers the first page again', caughtBy: 'list_pages_advance' },
  'past-end-crashes': { what: 'a valid `since` past the oldest message answers 500', caughtBy: 'not_a_server_error' },
  'limit-ignored': { what: '`limit` ignored: every message on one page', caughtBy: 'list_honours_parameters' },
  'delete-keeps-message': { what: 'DELETE /message/{id} answers 200 and keeps the message', caughtBy: 'use_after_free' },
  'update-not-persisted': { what: 'PUT /application/{id} answers the new application but keeps the old one', caughtBy: 'resource_consistency' },
  'created-app-not-listed': { what: 'GET /application lists only the key’s own application, never one created', caughtBy: 'ensure_resource_availability' },
  'unknown-message-delete-200': { what: 'DELETE /message/{id} answers 200 for an id it never had (the spec declares 404)', caughtBy: 'missing_resource_not_found' },
  'date-without-offset': { what: 'answers a message’s `date` without its UTC offset', caughtBy: 'response_schema_conformance' },
  'image-missing': { what: 'answers applications without the required `image`', caughtBy: 'response_schema_conformance' },
  'priority-as-string': { what: 'answers `priority` as a string ("2")', caughtBy: 'response_schema_conformance' },
  'list-without-key': { what: 'GET /message answers without a key', caughtBy: 'ignored_auth' },
  'name-trimmed': { what: 'trims an application’s name before storing it', caughtBy: 'response_echoes_request' },
  'message-without-text-accepted': { what: 'accepts a message without the required `message`', caughtBy: 'negative_data_rejection' },
  'limit-over-200-accepted': { what: 'accepts `limit` above the declared maximum of 200', caughtBy: 'negative_data_rejection' },
  'error-without-code': { what: 'answers errors without the required `errorCode`', caughtBy: 'response_schema_conformance' },
  'messages-of-unknown-app-200': { what: 'GET /application/{id}/message answers an empty page for an application it does not have (the spec declares 404)', caughtBy: 'missing_resource_not_found' },
};
