/**
 * Getting a JSON body off the wire: the media type it must declare and the size it may have.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseMediaType } from '../../openapi/media-types.js';
import { reject, type Rejection } from '../errors.js';

/** Largest accepted body unless --max-body says otherwise. */
export const DEFAULT_MAX_BODY = 1024 * 1024;

/**
 * Undefined when the body is sent as it is; a 415 naming Content-Encoding otherwise (a gzip or
 * br body is not JSON text, and the mock does not decode it; RFC 9110 §8.4.1).
 */
export function checkContentEncoding(encoding: string | undefined): Rejection | undefined {
  return encoding === undefined || IDENTITY.test(encoding) ? undefined : reject('UNSUPPORTED_CONTENT_ENCODING', { encoding });
}
const IDENTITY = /^\s*(?:identity\s*)?$/i;

/**
 * For a request that sent `Expect: 100-continue`: sends `100 Continue` when something starts
 * reading its body, so a request refused before that (401, 413, 415) gets its answer without
 * the client ever being told to send the body. Every way of reading a stream adds a `data` or
 * `readable` listener; a final answer already sent makes it moot.
 */
export function continueWhenRead(req: IncomingMessage, res: ServerResponse): void {
  const onListener = (event: string | symbol): void => {
    if (event !== 'data' && event !== 'readable') return;
    req.off('newListener', onListener);
    if (!res.headersSent) res.writeContinue();
  };
  req.on('newListener', onListener);
}

const JSON_ONLY: readonly string[] = ['application/json'];

/**
 * Undefined when the request declares one of the `accepted` JSON media types (application/json
 * by default), otherwise the 415 it earns.
 */
export function checkJsonMediaType(header: string | undefined, accepted: readonly string[] = JSON_ONLY): Rejection | undefined {
  if (header === accepted[0]) return undefined;
  const names = accepted.join("' or '");
  if (header === undefined || header.trim() === '') return reject('UNSUPPORTED_MEDIA_TYPE', { contentType: undefined, accepted: names });
  const parsed = parseMediaType(header);
  if (!accepted.includes(parsed.essence)) return reject('UNSUPPORTED_MEDIA_TYPE', { contentType: header, accepted: names });
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return reject('UNSUPPORTED_CHARSET', { charset });
  }
  return undefined;
}

/**
 * The body, when the whole request has already been parsed (the common case once the loop turn
 * that received it has read its socket: see `LoopTurn` in loop-turn.ts); undefined otherwise.
 * Taking it from the stream's buffer spares the listeners, events and promise of `readBody`.
 */
export function takeBufferedBody(req: IncomingMessage, limit: number): Buffer | Rejection | undefined {
  if (!req.complete || req.destroyed || req.readableFlowing || req.readableEnded) return undefined;
  if (req.readableLength > limit) return reject('PAYLOAD_TOO_LARGE', { limit });
  return readBuffered(req) ?? EMPTY;
}
const EMPTY = Buffer.alloc(0);

/**
 * Everything a paused stream holds buffered, as one Buffer; undefined when it holds nothing.
 * `read()` without a size returned all of it up to Node 24; Node 26 returns one chunk (about
 * 64 KiB of a socket's) at a time, so it is read until what was buffered is taken (the caller
 * bounds `readableLength` first).
 */
export function readBuffered(req: IncomingMessage): Buffer | undefined {
  const buffered = req.readableLength;
  const first = req.read() as Buffer | null;
  if (first === null) return undefined;
  if (first.length >= buffered) return first;
  const chunks = [first];
  let size = first.length;
  while (size < buffered) {
    const next = req.read() as Buffer | null;
    if (next === null) break;
    chunks.push(next);
    size += next.length;
  }
  return Buffer.concat(chunks, size);
}

/** Whether a request carries a body at all (RFC 9112 §6.3: Content-Length or Transfer-Encoding). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the whole body if it is at most `limit` bytes. A larger body is refused as soon as its
 * Content-Length or its running size says so; the rest is never buffered.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | Rejection> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.resolve(reject('PAYLOAD_TOO_LARGE', { limit }));
  }
  return new Promise((resolve, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        resolve(reject('PAYLOAD_TOO_LARGE', { limit }));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      fail(error);
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
