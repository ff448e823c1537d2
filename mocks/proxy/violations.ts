/**
 * What the proxy says about an exchange: each way the request or the answer departs from the
 * spec, in the catalogue's words, for the journal and for the `plant-store-violations` header
 * (Prism's `sl-violations`). An `error` breaks the spec; a `warning` is something the spec leaves
 * unsaid (an undeclared 4xx) or that the proxy could not check (a body beyond the bound).
 */
import type { Rejection } from '../errors.js';

export const VIOLATIONS_HEADER = 'plant-store-violations';
/** The header stays under this many bytes (proxies and browsers commonly allow 8 KiB for all fields). */
export const MAX_VIOLATIONS_HEADER_BYTES = 4096;
/** A message longer than this is cut in the header (the journal keeps it whole). */
const MAX_HEADER_MESSAGE = 400;

export type ViolationSeverity = 'error' | 'warning';

export interface Violation {
  /** Which message of the exchange departs from the spec. */
  in: 'request' | 'response';
  severity: ViolationSeverity;
  /** The catalogue code (mocks/errors.ts). */
  code: string;
  message: string;
  /** Each offending field, in words, where the message is about a body or parameters. */
  problems?: readonly string[];
}

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
