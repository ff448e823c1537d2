/**
 * Bodies for an operation whose required body the spec describes by its media type alone, with no
 * JSON or form schema: an upload in `application/octet-stream`, a `text/*`, JSON or a URL-encoded
 * form of any shape. Any bytes are an octet stream, any UTF-8 text a text, any JSON document or
 * form fits a type with no schema: so every one of them must be accepted. Other types (an image,
 * a PDF) are the provider's to judge, and the suite does not test such an operation.
 */
import fc from 'fast-check';
import { isJsonMediaType, mediaEssence } from '../../openapi/media-types.js';

export type RawKind = 'bytes' | 'text' | 'json' | 'form';

/** How the suite writes a body of `mediaType` without a schema; undefined when it cannot know what the provider takes. */
export function rawKindOf(mediaType: string): RawKind | undefined {
  const essence = mediaEssence(mediaType);
  if (essence === 'application/octet-stream') return 'bytes';
  if (essence.startsWith('text/')) return 'text';
  if (isJsonMediaType(essence)) return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  return undefined;
}

export interface RawBody {
  label: string;
  description: string;
  body: string | Uint8Array;
}

/** A body of that kind that is plainly one, for cases about something else (parameters, credentials). */
export function plainRawBody(kind: RawKind): string | Uint8Array {
  if (kind === 'bytes') return Uint8Array.from({ length: 256 }, (_, i) => i);
  if (kind === 'text') return 'a text from the contract suite';
  if (kind === 'json') return '{}';
  return 'note=from+the+contract+suite';
}

const ARBITRARIES: Record<RawKind, () => fc.Arbitrary<string | Uint8Array>> = {
  bytes: () => fc.uint8Array({ minLength: 1, maxLength: 4096 }),
  text: () => fc.string({ unit: 'grapheme', minLength: 1, maxLength: 400 }),
  json: () => fc.json({ depthSize: 'small' }),
  form: () => fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 40 })), { minLength: 1, maxLength: 5 }).map((pairs) => new URLSearchParams(pairs).toString()),
};

/** `count` random bodies of the kind, drawn by `sample` (the run's seeded draws), and the plain one. */
export function rawBodies(kind: RawKind, count: number, sample: <T>(arbitrary: fc.Arbitrary<T>) => T): RawBody[] {
  const plain: RawBody = {
    label: 'plain',
    description: `a ${kind === 'bytes' ? '256-byte octet stream, every byte value once' : `plain ${kind === 'text' ? 'text' : kind === 'json' ? 'JSON document' : 'form'}`}`,
    body: plainRawBody(kind),
  };
  const random = Array.from({ length: count }, (_, i): RawBody => {
    const body = sample(ARBITRARIES[kind]());
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    return { label: `random-${i + 1}`, description: `random ${kind === 'bytes' ? 'bytes' : kind} (${size} bytes)`, body };
  });
  return [plain, ...random];
}
