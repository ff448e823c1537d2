/**
 * The media type of an answer, chosen by the request's `Accept` (RFC 9110 §12.5.1) among those
 * the spec declares for it, as Prism's mocker negotiates before it assembles an answer. No
 * `Accept`, or one that admits anything, keeps the default: the first JSON type declared, else
 * the first declared. An `Accept` that admits none of them is a 406 naming what the operation
 * answers. Answers from the store are JSON, so for them only the JSON types count.
 */
import Negotiator from 'negotiator';
import { declaredFor, successOf, type ContractOperation } from '../../openapi/operations/model.js';
import { isJsonMediaType } from '../../openapi/media-types.js';
import { reject, type Rejection } from '../errors.js';

/** What negotiation settled: the media type to answer in (undefined: the default), or the 406. */
export type Negotiated = { mediaType: string | undefined } | { refusal: Rejection };

const DEFAULT: Negotiated = Object.freeze({ mediaType: undefined });

/**
 * The media type to answer `operation` in, given the request's `Accept`: for the status forced by
 * `Prefer: code=` when there is one, else for the operation's success. `fromStore`: the answer is
 * a stored record, written as JSON whatever else the spec declares.
 */
export function negotiate(accept: string | string[] | undefined, operation: ContractOperation, forcedStatus: number | undefined, fromStore: boolean): Negotiated {
  // The common cases cost no parse: no header, or fetch's and curl's default.
  if (accept === undefined || accept === '*/*') return DEFAULT;
  const text = Array.isArray(accept) ? accept.join(', ') : accept;
  if (text.trim() === '') return DEFAULT;
  const response = forcedStatus === undefined ? successOf(operation)?.response : declaredFor(operation, forcedStatus);
  if (!response || response.content.size === 0) return DEFAULT; // no body: nothing to negotiate
  const declared = [...response.content.keys()];
  const producible = fromStore ? declared.filter(isJsonMediaType) : declared;
  // JSON first, so that a wildcard (a browser's `text/html, */*;q=0.8`) keeps the mock's default.
  const available = [...producible.filter(isJsonMediaType), ...producible.filter((type) => !isJsonMediaType(type))];
  const chosen = new Negotiator({ headers: { accept: text } }).mediaTypes(available)[0] ?? jsonAskedAsPlainJson(text, available);
  if (chosen !== undefined) return { mediaType: chosen };
  return {
    refusal: reject('NOT_ACCEPTABLE', {
      accept: text,
      method: operation.method.toUpperCase(),
      path: operation.path,
      available: producible,
      notFromStore: declared.filter((type) => !producible.includes(type)),
    }),
  };
}

/**
 * A client asking for `application/json` of an operation that declares only a `+json` type
 * (`application/hal+json`, `application/vnd.api+json`) gets that type: it is JSON, and clients
 * send the plain name far more often than a spec's exact one. Only where the plain name is asked
 * for itself, with a weight above 0.
 */
function jsonAskedAsPlainJson(accept: string, available: readonly string[]): string | undefined {
  const asksJson = new Negotiator({ headers: { accept } }).mediaTypes(['application/json']).length > 0;
  return asksJson ? available.find(isJsonMediaType) : undefined;
}
