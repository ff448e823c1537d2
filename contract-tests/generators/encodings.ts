/**
 * A valid body's members written in the other encodings an operation may declare: a URL-encoded
 * form (WHATWG URLSearchParams), multipart/form-data (RFC 7578) and XML (fast-xml-parser's builder,
 * OpenAPI's default XML mapping: one root element, a member per element, array items repeated).
 * Scalars and arrays of scalars only: a member holding an object has no one form spelling, so a
 * body with one is not written (undefined).
 */
import { createRequire } from 'node:module';
import type { XMLBuilder } from 'fast-xml-parser';
import { parseExactJson } from '../../openapi/schema/exact-json.js';
import { literal, type Member } from './json-text.js';

/** Each member as the text values a form sends (an array: one value per item); undefined when one cannot be. */
function formValues(members: readonly Member[]): Array<[string, string]> | undefined {
  const out: Array<[string, string]> = [];
  for (const [name, literal] of members) {
    const text = literal.trim();
    if (text === 'null') continue;
    if (text.startsWith('{')) return undefined;
    if (text.startsWith('[')) {
      const items = JSON.parse(text) as unknown[];
      for (const item of items) {
        if (item !== null && typeof item === 'object') return undefined;
        out.push([name, typeof item === 'string' ? item : JSON.stringify(item)]);
      }
      continue;
    }
    // A number keeps its exact digits (an int64 past 2^53); a string its characters.
    out.push([name, text.startsWith('"') ? (JSON.parse(text) as string) : text]);
  }
  return out;
}

export function formUrlencoded(members: readonly Member[]): string | undefined {
  const values = formValues(members);
  return values && new URLSearchParams(values).toString();
}

/** The boundary multipart bodies use (RFC 2046 §5.1.1: up to 70 characters, none in the values written). */
export const MULTIPART_BOUNDARY = 'contract-suite-boundary-7a1c';

export function multipartFormData(members: readonly Member[]): string | undefined {
  const values = formValues(members);
  return values && multipartOf(values);
}

/** Fields as one multipart/form-data body; a field named in `files` as a file part (a filename, application/octet-stream), as a browser sends an upload. */
function multipartOf(values: ReadonlyArray<readonly [string, string]>, files: ReadonlySet<string> = new Set()): string | undefined {
  if (values.some(([name, value]) => value.includes(MULTIPART_BOUNDARY) || /["\r\n]/.test(name))) return undefined;
  const parts = values.map(([name, value]) =>
    files.has(name)
      ? `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n${value}\r\n`
      : `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}--${MULTIPART_BOUNDARY}--\r\n`;
}

/** Required on the first XML body (a spec declaring XML): every other run starts without the XML library, as the CLI's JUnit writer does. */
function xmlBuilder(): XMLBuilder {
  const { XMLBuilder: Builder } = createRequire(import.meta.url)('fast-xml-parser') as { XMLBuilder: typeof XMLBuilder };
  return new Builder({ suppressEmptyNode: false });
}
const XML_NAME = /^[A-Za-z_][\w.-]*$/;

/** One root element named `root`, each member an element (an array's items repeated, unwrapped). */
export function xmlDocument(members: readonly Member[], root: string): string | undefined {
  const values = formValues(members);
  if (!values || !XML_NAME.test(root) || values.some(([name]) => !XML_NAME.test(name))) return undefined;
  const element: Record<string, string | string[]> = {};
  for (const [name, value] of values) {
    const had = element[name];
    element[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder().build({ [root]: element }) as string}`;
}

/** `text` as UTF-8 bytes with the first character after `at` replaced by C3 28, which is no UTF-8. */
export function notUtf8(text: string, at: string): Uint8Array | undefined {
  const index = text.indexOf(at);
  if (index < 0) return undefined;
  const before = Buffer.from(text.slice(0, index + at.length), 'utf8');
  const after = Buffer.from(text.slice(index + at.length + 1), 'utf8');
  return new Uint8Array(Buffer.concat([before, Buffer.from([0xc3, 0x28]), after]));
}

/** The form fields a JSON object's text makes (an array: one field per item); undefined when it is no object of scalars and arrays of them. */
export function formFieldsOf(text: string): Array<[string, string]> | undefined {
  let value: unknown;
  try {
    value = parseExactJson(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return formValues(Object.entries(value).map(([name, inner]) => [name, literal(inner)] as const));
}

/**
 * A JSON object's text written as a form the operation declares: the body, the Content-Type to
 * send it with, and the fields a server reads back. Undefined when the text is no object a form
 * can carry (a syntax case, a nested object).
 */
export function asForm(
  text: string,
  kind: 'form' | 'multipart',
  mediaType: string,
  files: ReadonlySet<string> = new Set(),
): { body: string; contentType: string; fields: Array<[string, string]> } | undefined {
  const fields = formFieldsOf(text);
  if (!fields) return undefined;
  if (kind === 'form') return { body: new URLSearchParams(fields).toString(), contentType: mediaType, fields };
  const body = multipartOf(fields, files);
  return body === undefined ? undefined : { body, contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, fields };
}
