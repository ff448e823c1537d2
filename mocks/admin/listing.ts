/**
 * `GET /__mock/<collection>`: the stored records in creation order, one page at a time
 * (`?limit=&after=`), as a JSON array with the next page in a `Link` header (RFC 8288) and the
 * collection's size in `X-Total-Count`. The page is written piece by piece with backpressure
 * (http/stream.ts), so a million records or a client that never reads cost a piece, not a body.
 */
import { reject, type Rejection } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import type { Page, ResourceStore, StoredRecord } from '../stores/store.js';
import { parameterProblems, quote } from './query.js';

export const DEFAULT_LISTING_LIMIT = 1000;
export const MAX_LISTING_LIMIT = 10_000;
/** Roughly how many bytes of records go into one written piece. */
const PIECE_BYTES = 64 * 1024;
/** A store's cursors are short (sequence numbers, ids); anything longer is not one. */
const MAX_CURSOR_LENGTH = 200;

const LISTING_PARAMETERS = ['limit', 'after'] as const;

export interface ListingQuery {
  limit: number;
  after?: string;
}

/** The listing query of a request's search parameters, or the 400 naming what is wrong with it. */
export function parseListingQuery(search: URLSearchParams, route: string): ListingQuery | Rejection {
  const problems = parameterProblems(search, LISTING_PARAMETERS, 'limit and after');
  let limit = DEFAULT_LISTING_LIMIT;
  const rawLimit = search.get('limit');
  if (rawLimit !== null) {
    limit = /^\d{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= MAX_LISTING_LIMIT)) problems.add(`limit must be a whole number from 1 to ${MAX_LISTING_LIMIT}, got ${quote(rawLimit)}`);
  }
  const after = search.get('after') ?? undefined;
  if (after !== undefined && (after === '' || after.length > MAX_CURSOR_LENGTH)) {
    problems.add(`after must be the cursor of a previous page's Link header, got ${quote(after)}`);
  }
  return problems.rejection(route) ?? { limit, after };
}

/** The answer listing one page of `collection`; a cursor the store never issued is a 400. */
export async function listingAnswer(store: ResourceStore, collection: string, route: string, query: ListingQuery): Promise<Answer> {
  let page: Page;
  try {
    page = await store.page(collection, { after: query.after, limit: query.limit });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const after = query.after ?? '';
    return rejected(reject('INVALID_ADMIN_QUERY', { route, problems: [`after must be the cursor of a previous page's Link header, got ${quote(after)}`] }));
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-total-count': String(await store.count(collection)),
    'cache-control': 'no-store',
  };
  if (page.next !== undefined) headers.link = `<${route}?limit=${query.limit}&after=${encodeURIComponent(page.next)}>; rel="next"`;
  return { status: 200, headers, stream: pieces(page.records) };
}

/** The page as a JSON array, in pieces of about PIECE_BYTES; records are exact JSON text already. */
function* pieces(records: readonly StoredRecord[]): Generator<string> {
  let piece = '[';
  for (let index = 0; index < records.length; index++) {
    piece += (index === 0 ? '' : ',') + (records[index] as StoredRecord).json;
    if (piece.length >= PIECE_BYTES) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]`;
}
