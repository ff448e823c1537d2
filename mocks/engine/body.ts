/**
 * Request bodies: JSON decoded as UTF-8 and parsed with every integer exact over the whole int64
 * range; the other media types an operation declares read as their kind says (forms, text, bytes).
 */
import { isUtf8 } from 'node:buffer';
import { isJsonMediaType, isXmlMediaType, parseMediaType } from '../../openapi/media-types.js';
import { DuplicateMemberName, JsonTooDeep, parseExactJson, READ_EVERY_NUMBER, type ExactPlan } from '../../openapi/schema/exact-json.js';
import { reject, type Rejection } from '../errors.js';
import type { ContractMediaType } from '../../openapi/operations/model.js';
import type { Maybe } from '../maybe.js';
import { readMultipart } from './multipart.js';

/** `text`: the JSON text as received (kept by records); undefined for bodies decoded from another media type. */
export type ParsedBody = { ok: true; value: unknown; text: string | undefined } | { ok: false; rejection: Rejection };

/**
 * A body as JSON: the exact view (the numbers `plan` names read from their literal; its media
 * type's `exactPlan`), or the 400 for text that is not UTF-8 JSON, nests past the limit or names
 * a member twice in one object.
 */
export function parseJsonBody(body: Buffer, plan: ExactPlan | undefined = READ_EVERY_NUMBER): ParsedBody {
  if (!isUtf8(body)) return { ok: false, rejection: reject('INVALID_ENCODING') };
  const text = body.toString('utf8');
  // JSON.parse's own words would quote an invisible character.
  if (text.startsWith('\uFEFF')) {
    const detail = 'it starts with a byte order mark (U+FEFF), which networked JSON must not have (RFC 8259, section 8.1); send the bytes after it';
    return { ok: false, rejection: reject('MALFORMED_JSON', { detail }) };
  }
  try {
    // Repeated names are refused (RFC 8259 §4 leaves the reading to each parser): records are replayed elsewhere.
    return { ok: true, value: parseExactJson(text, plan, { refuseDuplicateNames: true }), text };
  } catch (error) {
    if (error instanceof DuplicateMemberName) {
      return { ok: false, rejection: reject('DUPLICATE_MEMBER_NAME', { member: error.member, pointer: error.pointer, problems: [error.message], fields: [error.pointer] }) };
    }
    if (error instanceof JsonTooDeep) return { ok: false, rejection: reject('JSON_TOO_DEEP', { limit: error.limit }) };
    return { ok: false, rejection: reject('MALFORMED_JSON', { detail: (error as Error).message }) };
  }
}

/**
 * How a request body of a declared media type is read: JSON exactly, forms decoded to the schema,
 * text (`text/*`, XML) as UTF-8 text, and anything else (an octet stream, an image, a PDF) as its
 * bytes, which no character encoding judges.
 */
export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'bytes';

export function bodyKind(essence: string): BodyKind {
  if (isJsonMediaType(essence)) return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  if (essence === 'multipart/form-data') return 'multipart';
  if (essence.startsWith('text/') || isXmlMediaType(essence)) return 'text';
  return 'bytes';
}

/**
 * A body of a non-JSON media type the operation declares: a urlencoded or multipart form as the
 * object its schema describes (fields coerced to their properties' types; a file part's content
 * as text), text (XML, text/plain …) as its UTF-8 text, any other type as its bytes (one character each).
 */
export function parseOtherBody(body: Buffer, kind: Exclude<BodyKind, 'json'>, contentType: string, media: Pick<ContractMediaType, 'readForm'>, schemaName: string): Maybe<ParsedBody> {
  if (kind === 'multipart') {
    if (!parseMediaType(contentType).parameters.boundary)
      return { ok: false, rejection: reject('INVALID_REQUEST_BODY', { schema: schemaName, problems: ['the multipart/form-data Content-Type names no boundary'] }) };
    return readMultipart(body, contentType).then((read): ParsedBody => {
      if (read.ok) return { ok: true, value: media.readForm(read.fields), text: undefined };
      return { ok: false, rejection: read.encoding ? reject('INVALID_ENCODING') : reject('INVALID_REQUEST_BODY', { schema: schemaName, problems: [read.problem] }) };
    });
  }
  // One character a byte (latin1): a string schema's maxLength counts the bytes.
  if (kind === 'bytes') return { ok: true, value: body.toString('latin1'), text: undefined };
  if (!isUtf8(body)) return { ok: false, rejection: reject('INVALID_ENCODING') };
  const text = body.toString('utf8');
  if (kind === 'form') return { ok: true, value: media.readForm(new URLSearchParams(text)), text: undefined };
  return { ok: true, value: text, text: undefined };
}
