/**
 * A real API's enveloped shape: a correct in-process provider of Lago's add-ons
 * (fixtures/real-world/lago: `POST /add_ons {"add_on": {...}}` answered `{"add_on": {...}}`, the
 * record keyed by the `code` the client sends, `GET /add_ons/{code}`, PUT and DELETE on it, the
 * list `{add_ons, meta}` paged by `page` and `per_page`, bearer everywhere), and single-flaw
 * variants. envelopes.test.ts runs the suite against each (docs/contract-mutations.md, "Real APIs").
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../../openapi/operations/compile.js';
import { startSmallProvider, type Answer, type SmallRequest } from './small-provider.js';
import type { Provider } from './provider.js';

export const LAGO_SPEC = fileURLToPath(new URL('../../../fixtures/real-world/lago/openapi.yaml', import.meta.url));
export const ADD_ON_OPERATIONS = ['createAddOn', 'findAllAddOns', 'findAddOn', 'updateAddOn', 'destroyAddOn'] as const;

const compiled = loadContract(LAGO_SPEC);
const bodyValidator = (operationId: string) => compiled.operations.get(operationId)?.requestBody?.content.get('application/json')?.validate;
const validCreate = bodyValidator('createAddOn');
const validUpdate = bodyValidator('updateAddOn');

/** One switch per flaw, so that each flawed provider differs from the correct one in one place. */
export type AddOnFlaw =
  /** The read answers another add-on than the one asked for, inside the envelope. */
  | 'read-answers-another'
  /** The list leaves out the add-on created last. */
  | 'list-omits-newest'
  /** The read answers the record under `addon`, not the `add_on` the spec declares. */
  | 'envelope-renamed'
  /** The create answers the add-on with an empty `code`. */
  | 'empty-code'
  /** The create answers a `name` other than the one sent. */
  | 'create-renames';

type AddOn = Record<string, unknown> & { code: string };

const WRITABLE = ['name', 'invoice_display_name', 'code', 'amount_cents', 'amount_currency', 'description'] as const;

export async function startLagoAddOns(token: string, flaw?: AddOnFlaw): Promise<Provider> {
  const records = new Map<string, AddOn>();
  const error = (answer: Answer, status: number, extra: Record<string, unknown> = {}): void =>
    answer(status, { status, error: status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : status === 422 ? 'Unprocessable entity' : 'Bad request', ...extra });
  const shown = (record: AddOn): AddOn => ({ ...record, taxes: [] });
  const handle = (request: SmallRequest, answer: Answer): void => {
    // The auth scheme's name is case-insensitive (RFC 9110 §11.1).
    if (/^bearer +(.*)$/i.exec(request.headers.authorization ?? '')?.[1] !== token) return error(answer, 401);
    const path = request.url.pathname;
    const item = /^\/add_ons\/([^/]+)$/.exec(path);
    const code = item ? decodeURIComponent(item[1] as string) : undefined;
    if (path === '/add_ons' && request.method === 'POST') {
      const body = request.json();
      if (!validCreate?.(body)) return error(answer, body === undefined ? 400 : 422, body === undefined ? {} : { code: 'validation_errors', error_details: {} });
      const sent = (body as { add_on: Record<string, unknown> }).add_on;
      // A repeated code replaces the add-on (the spec leaves repeats unsaid).
      const record: AddOn = { lago_id: randomUUID(), invoice_display_name: null, description: null, created_at: new Date().toISOString(), ...pick(sent), code: sent.code as string };
      records.set(record.code, record);
      const made = flaw === 'empty-code' ? { ...record, code: '' } : flaw === 'create-renames' ? { ...record, name: `${String(record.name)} (copy)` } : record;
      return answer(200, { add_on: shown(made) });
    }
    if (path === '/add_ons' && request.method === 'GET') {
      const page = Number(request.url.searchParams.get('page') ?? '1');
      const perPage = Number(request.url.searchParams.get('per_page') ?? '20');
      if (!Number.isInteger(page) || !Number.isInteger(perPage) || page < 1 || perPage < 1) return error(answer, 400);
      const all = [...records.values()].slice(0, flaw === 'list-omits-newest' ? -1 : undefined);
      const pages = Math.max(1, Math.ceil(all.length / perPage));
      const slice = all.slice((page - 1) * perPage, page * perPage).map(shown);
      return answer(200, {
        add_ons: slice,
        meta: { current_page: page, next_page: page < pages ? page + 1 : null, prev_page: page > 1 ? page - 1 : null, total_pages: pages, total_count: all.length },
      });
    }
    if (code === undefined) return error(answer, 404, { code: 'not_found' });
    const record = records.get(code);
    if (request.method === 'PUT') {
      const body = request.json();
      if (!validUpdate?.(body)) return error(answer, body === undefined ? 400 : 422, body === undefined ? {} : { code: 'validation_errors', error_details: {} });
      if (!record) return error(answer, 404, { code: 'add_on_not_found' });
      const changed: AddOn = { ...record, ...pick((body as { add_on: Record<string, unknown> }).add_on), code: record.code };
      // A changed code moves the record: its new code names it from now on.
      const moved = typeof (body as { add_on: Record<string, unknown> }).add_on.code === 'string' ? ((body as { add_on: { code: string } }).add_on.code as string) : record.code;
      records.delete(code);
      records.set(moved, { ...changed, code: moved });
      return answer(200, { add_on: shown({ ...changed, code: moved }) });
    }
    if (!record) return error(answer, 404, { code: 'add_on_not_found' });
    if (request.method === 'GET') {
      const other = flaw === 'read-answers-another' ? [...records.values()].find((r) => r.code !== code) : undefined;
      return answer(200, { [flaw === 'envelope-renamed' ? 'addon' : 'add_on']: shown(other ?? record) });
    }
    if (request.method === 'DELETE') {
      records.delete(code);
      return answer(200, { add_on: shown(record) });
    }
    return error(answer, 404, { code: 'not_found' });
  };
  return startSmallProvider(handle);
}

/** The writable members the client sent. */
function pick(sent: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(WRITABLE.filter((name) => name in sent).map((name) => [name, sent[name]]));
}
