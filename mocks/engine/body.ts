/**
 * JSON request bodies: decoded as UTF-8, parsed with every integer exact over the whole int64
 * range, and — for the admin seed and `--seed` — turned into records, validated all or nothing.
 */
import { isUtf8 } from 'node:buffer';
import { parse as parseMultipart } from 'parse-multipart-data';
import { isJsonMediaType, isXmlMediaType, parseMediaType } from '../../openapi/media-types.js';
import { DuplicateMemberName, exactPlanOfArray, JsonTooDeep, parseExactJson, READ_EVERY_NUMBER, type ExactPlan } from '../../openapi/schema/exact-json.js';
import { describeProblems, describeType, DEFAULT_PROBLEM_LIMIT } from '../../openapi/schema/problems.js';
import { reject, type Rejection } from '../errors.js';
import type { RecordKey } from '../stores/store.js';
import { keyOfBody, unreachableKey } from './records.js';
import type { Collection } from '../../openapi/operations/collections.js';
import type { ContractMediaType } from '../../openapi/operations/model.js';

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
export function parseOtherBody(body: Buffer, kind: Exclude<BodyKind, 'json'>, contentType: string, media: Pick<ContractMediaType, 'readForm'>, schemaName: string): ParsedBody {
  if (kind === 'multipart') {
    const boundary = parseMediaType(contentType).parameters.boundary;
    if (!boundary) return { ok: false, rejection: reject('INVALID_REQUEST_BODY', { schema: schemaName, problems: ['the multipart/form-data Content-Type names no boundary'] }) };
    const parts = parseMultipart(body, boundary);
    // RFC 7578 §5.1: a text field (no filename) is UTF-8 unless a charset says otherwise; a file's bytes are its own.
    if (parts.some((part) => part.filename === undefined && !isUtf8(part.data))) return { ok: false, rejection: reject('INVALID_ENCODING') };
    const fields = parts.map((part): [string, string] => [part.name ?? '', part.data.toString('utf8')]);
    return { ok: true, value: media.readForm(fields), text: undefined };
  }
  // One character a byte (latin1): a string schema's maxLength counts the bytes.
  if (kind === 'bytes') return { ok: true, value: body.toString('latin1'), text: undefined };
  if (!isUtf8(body)) return { ok: false, rejection: reject('INVALID_ENCODING') };
  const text = body.toString('utf8');
  if (kind === 'form') return { ok: true, value: media.readForm(new URLSearchParams(text)), text: undefined };
  return { ok: true, value: text, text: undefined };
}

/**
 * One item of a seed: a valid create body, and its key — undefined when the collection's identity
 * is the mock's to assign and the item does not name one (./seed.ts assigns it as a create does).
 */
export interface SeedItem {
  body: Record<string, unknown>;
  key: RecordKey | undefined;
}

/** The items of a seed body (a JSON array of create bodies), all valid, or the 400 naming the problems. */
export function parseSeed(body: Buffer, collection: Collection): SeedItem[] | Rejection {
  const schema = collection.resource;
  if (body.length === 0) return reject('INVALID_SEED', { schema, problems: ['the body is empty'] });
  const parsed = parseJsonBody(body, exactPlanOfArray(collection.body.exactPlan));
  if (!parsed.ok) return reject('INVALID_SEED', { schema, problems: [parsed.rejection.message] });
  return seedRecords(parsed.value, collection);
}

/**
 * The records of an already parsed seed (from a file or the admin route). Each item is validated
 * on its own and the words stop after a few problems, so a seed of a million bad items costs a
 * count, not a million sentences.
 */
export function seedRecords(value: unknown, collection: Collection): SeedItem[] | Rejection {
  const schema = collection.resource;
  if (!Array.isArray(value)) {
    return reject('INVALID_SEED', { schema, problems: [`expected a JSON array of ${schema}s, got ${describeType(value)}`] });
  }
  const validate = collection.body.validate;
  const problems: string[] = [];
  const fields: string[] = [];
  let more = 0;
  const records: SeedItem[] = [];
  value.forEach((item, index) => {
    let unreachable: string | undefined;
    if (validate?.(item)) {
      const key = keyOfBody(item as Record<string, unknown>, collection.identity);
      unreachable = key === undefined ? undefined : unreachableKey(key, collection);
      if ((key !== undefined || collection.identity.assigned) && unreachable === undefined) {
        records.push({ body: item as Record<string, unknown>, key });
        return;
      }
    }
    if (problems.length >= DEFAULT_PROBLEM_LIMIT) {
      more++;
      return;
    }
    if (unreachable !== undefined) {
      problems.push(`[${index}] ${unreachable}`);
      fields.push(`/${index}/${collection.identity.property}`);
      return;
    }
    const found = describeProblems(validate?.errors, { root: item, prefix: `[${index}] `, pointerPrefix: `/${index}`, limit: DEFAULT_PROBLEM_LIMIT - problems.length });
    if (!found.sentences.length) {
      found.sentences.push(`[${index}] ${collection.identity.property} is required`);
      found.fields.push(`/${index}/${collection.identity.property}`);
    }
    problems.push(...found.sentences);
    fields.push(...found.fields);
    more += found.more;
  });
  if (problems.length) return reject('INVALID_SEED', { schema, problems, more, fields });
  return records;
}
