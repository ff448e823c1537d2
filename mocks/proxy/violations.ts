/**
 * What the proxy says about an exchange, in the judge's violations (openapi/judge/violation.ts):
 * for the journal and for the `plant-store-violations` header (Prism's `sl-violations`), and the
 * mock's own refusals of a request turned into violations of it.
 */
import type { Violation, ViolationSeverity } from '../../openapi/judge/violation.js';
import type { Rejection } from '../errors.js';

export const VIOLATIONS_HEADER = 'plant-store-violations';
/** The header stays under this many bytes (proxies and browsers commonly allow 8 KiB for all fields). */
export const MAX_VIOLATIONS_HEADER_BYTES = 4096;
/** A message longer than this is cut in the header (the journal keeps it whole). */
const MAX_HEADER_MESSAGE = 400;

export function violation(where: Violation['in'], rejection: Rejection, severity: ViolationSeverity = 'error'): Violation {
  return { in: where, severity, code: rejection.code, message: rejection.message, ...(rejection.problems ? { problems: rejection.problems } : {}) };
}

/**
 * The header value: a JSON array of `{in, severity, code, message}`, ASCII only (non-ASCII
 * characters as \u escapes, so any message is a valid field value), at most
 * MAX_VIOLATIONS_HEADER_BYTES: long messages are cut with '…', and entries that do not fit are
 * counted in a last `{"more": n}`.
 */
export function violationsHeader(violations: readonly Violation[]): string {
  const parts: string[] = [];
  let size = 2; // []
  for (let i = 0; i < violations.length; i++) {
    const { in: where, severity, code, message } = violations[i] as Violation;
    const cut = message.length > MAX_HEADER_MESSAGE ? `${message.slice(0, MAX_HEADER_MESSAGE)}…` : message;
    const part = asciiJson({ in: where, severity, code, message: cut });
    const left = violations.length - i - 1;
    // Room for this part, and for the `more` entry that would follow it if any are left.
    const reserve = left ? asciiJson({ more: left }).length + 1 : 0;
    if (size + part.length + 1 + reserve > MAX_VIOLATIONS_HEADER_BYTES) {
      parts.push(asciiJson({ more: violations.length - i }));
      break;
    }
    parts.push(part);
    size += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}

function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether any violation of the answer breaks the spec (what --proxy-strict replaces). */
export function responseErrors(violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => v.in === 'response' && v.severity === 'error');
}
