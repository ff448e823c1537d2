/**
 * Bodies on their way through the proxy: passed on as they arrive, with a bounded copy kept to
 * judge them, and an answer's copy decoded to judge it. Nothing is re-serialized: the bytes that
 * leave are the bytes that came.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { BodyCopy } from './request-verdict.js';

export interface ForwardedBody {
  /** The copy, once the client's body has ended; `unchecked` says why there is none. */
  copy: Promise<BodyCopy>;
  /** Gives up waiting for the copy (the upstream answered before the body arrived whole). */
  settle(reason: string): void;
}

const tooLarge = (limit: number): string => `it is larger than ${limit} bytes, the bound set by --max-body`;

/** Pipes a client's request body to the upstream, keeping a copy of at most `limit` bytes. */
export function forwardRequestBody(from: IncomingMessage, to: ClientRequest, limit: number): ForwardedBody {
  let resolve!: (copy: BodyCopy) => void;
  const copy = new Promise<BodyCopy>((r) => (resolve = r));
  let settled = false;
  const settle = (value: BodyCopy): void => {
    if (settled) return;
    settled = true;
    resolve(value);
  };
  const declared = Number(from.headers['content-length'] ?? 0);
  let chunks: Buffer[] | undefined = declared > limit ? undefined : [];
  let size = 0;
  from.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (!chunks) return;
    if (size > limit) chunks = undefined;
    else chunks.push(chunk);
  });
  from.once('end', () => settle(chunks ? { bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) } : { unchecked: tooLarge(limit) }));
  from.once('close', () => {
    if (from.complete) return;
    settle({ unchecked: 'the client did not send it whole' });
    to.destroy();
  });
  from.pipe(to);
  return { copy, settle: (reason) => settle({ unchecked: reason }) };
}

export interface BoundedRead {
  chunks: Buffer[];
  size: number;
  /** False when the body went past the limit: the rest is still in the stream, which is paused. */
  complete: boolean;
}

/**
 * Reads an answer's body up to `limit` bytes. Past the limit it stops and leaves the rest in the
 * (paused) stream, to be passed on unread. Rejects when the stream fails before its end.
 */
export function readUpTo(res: IncomingMessage, limit: number): Promise<BoundedRead> {
  return new Promise((resolve, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      cleanup();
      res.pause();
      resolve({ chunks, size, complete: false });
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ chunks, size, complete: true });
    };
    const onClose = (): void => {
      cleanup();
      fail(new Error('the connection closed in the middle of the body'));
    };
    const onError = (error: Error): void => {
      cleanup();
      fail(error);
    };
    const cleanup = (): void => {
      res.off('data', onData);
      res.off('end', onEnd);
      res.off('close', onClose);
      res.off('error', onError);
    };
    res.on('data', onData);
    res.on('end', onEnd);
    res.on('close', onClose);
    res.on('error', onError);
  });
}

/**
 * The body as sent before any Content-Encoding, to judge it (what goes to the client stays
 * encoded): at most `limit` bytes once decoded, so a small compressed body cannot expand without
 * bound. A string when it cannot be judged: the reason.
 */
export function decodedForJudging(bytes: Buffer, contentEncoding: string | undefined, limit: number): Buffer | string {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let body = bytes;
  try {
    // Codings are listed in the order they were applied; undo them last first.
    for (const coding of codings.reverse()) {
      const options = { maxOutputLength: limit };
      if (coding === 'gzip' || coding === 'x-gzip') body = gunzipSync(body, options);
      else if (coding === 'br') body = brotliDecompressSync(body, options);
      else if (coding === 'deflate') body = inflateWithFallback(body, options);
      else return `it is encoded with ${coding}, which the proxy cannot decode`;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return `it is larger than ${limit} bytes once decoded (--max-body)`;
    return `its Content-Encoding cannot be decoded (${(error as Error).message})`;
  }
  return body;
}

/** `deflate` is meant to be zlib-wrapped (RFC 9110 §8.4.1.2); some servers send it raw. */
function inflateWithFallback(body: Buffer, options: { maxOutputLength: number }): Buffer {
  try {
    return inflateSync(body, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
    return inflateRawSync(body, options);
  }
}
