/** What a handler decides about a request, before `respond` puts it on the wire. */
import type { ServerResponse } from 'node:http';
import { stringify as stringifyExact } from 'lossless-json';
import { errorBody, type Rejection } from '../errors.js';
import type { Violation } from '../../openapi/judge/violation.js';

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  rejection?: Rejection;
  /** `Prefer: delay` to wait before sending. */
  delayMs?: number;
  /** The spec operation that answered (for the journal). */
  operationId?: string;
  /** False when the answer came from the spec's examples rather than the store. */
  stateful?: boolean;
  /** Where the exchange departs from the spec (the proxy's verdicts, --self-check's: openapi/judge/), for the journal. */
  violations?: readonly Violation[];
  /** Proxy mode: writes the answer itself, in place of `respond` (the upstream's headers, its body streamed); resolves once sent. */
  send?: (res: ServerResponse, cors: Readonly<Record<string, string>>) => Promise<SentAnswer>;
  /** A body written piece by piece with backpressure (http/stream.ts), instead of `body`. */
  stream?: Iterable<string> | AsyncIterable<string>;
  /** The request body as the handler read it (for the journal: a read body is gone from the stream). */
  requestBody?: Buffer;
  /** The same body decoded, when it was JSON the handler parsed. */
  requestText?: string;
  /** What still breaks the declared schema after the record was projected to it (openapi/schema/project.ts): a mock bug, logged. */
  mockBug?: readonly string[];
}

/** What an answer written by `send` put on the wire, for the journal. */
export interface SentAnswer {
  headers: Readonly<Record<string, string | number>>;
  /** The body bytes read before writing (all of it, or its start when the rest was streamed). */
  body?: Buffer;
}

export function rejected(rejection: Rejection): Answer {
  return { status: rejection.status, body: errorBody(rejection), headers: rejection.headers, rejection };
}

/** A JSON answer; bigint ids are written as exact JSON numbers. */
export function jsonAnswer(status: number, value: unknown): Answer {
  return { status, body: exactJson(value) };
}

/**
 * Whole doubles past 2^53 written as the integer they are: JSON.stringify writes -2^63 as
 * `-9223372036854776000`, a literal outside int64 that a reader of exact numbers refuses
 * (a generated int64 minimum, say); below 1e21, where JavaScript writes digits rather than an exponent.
 */
const UNSAFE_INTEGERS = [
  {
    test: (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21,
    stringify: (value: unknown): string => BigInt(value as number).toString(),
  },
];

/** `value` as JSON text, bigints and whole doubles past 2^53 written exactly. */
export function exactJson(value: unknown): string {
  return stringifyExact(value, null, undefined, UNSAFE_INTEGERS) as string;
}
