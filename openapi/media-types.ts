/** Media types: one reading of a Content-Type against the content map a spec declares. */

/** A media type or range without its parameters, in lower case: `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaEssence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The declared media type (a content key as the spec writes it, parameters and all) that a
 * Content-Type falls under, by essence: exact first, then `type/*`, then `*\/*`; undefined when none.
 */
export function matchingMedia(declared: Iterable<string>, contentType: string): string | undefined {
  return new MediaMatcher(declared).match(contentType);
}

/**
 * `matchingMedia` compiled once for one content map (a request body's, a response's): the
 * essences are taken at compile time, and the last Content-Type matched is remembered, since a
 * client sends the same header on every request (that string is all a request costs then).
 */
export class MediaMatcher {
  readonly #byEssence = new Map<string, string>();
  #lastType: string | undefined;
  #lastKey: string | undefined;
  #lastEssence = '';
  constructor(declared: Iterable<string>) {
    for (const key of declared) if (!this.#byEssence.has(mediaEssence(key))) this.#byEssence.set(mediaEssence(key), key);
  }
  /** `mediaEssence(contentType)`, remembered with the match. */
  essence(contentType: string): string {
    if (contentType !== this.#lastType) this.match(contentType);
    return this.#lastEssence;
  }
  match(contentType: string): string | undefined {
    if (contentType === this.#lastType) return this.#lastKey;
    const type = mediaEssence(contentType);
    this.#lastEssence = type;
    const key = this.#byEssence.get(type) ?? this.#byEssence.get(`${type.split('/')[0]}/*`) ?? this.#byEssence.get('*/*');
    this.#lastType = contentType;
    this.#lastKey = key;
    return key;
  }
}

/** Whether a media type is JSON (`application/json` or a `+json` suffix type). */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}
