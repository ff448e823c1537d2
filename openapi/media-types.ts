/**
 * Media types: the one place a Content-Type (or a content key of the spec) is read, matched
 * against the content map a spec declares, and classed as JSON or XML. Parsing is the
 * `content-type` package's (RFC 9110 §8.3: type and subtype case-insensitive, parameters after
 * `;`, quoted values unquoted); it never throws, so a header that is not a media type simply
 * matches nothing. Negotiating an `Accept` stays `negotiator`'s (mocks/engine/negotiate.ts).
 */
import { parse } from 'content-type';

/** A media type or range without its parameters, in lower case: `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaEssence(mediaType: string): string {
  return parse(mediaType, { parameters: false }).type;
}

/** A media type read whole: its essence and its parameters by lower-case name (`charset`, `boundary`), values unquoted. */
export function parseMediaType(mediaType: string): { essence: string; parameters: Readonly<Record<string, string | undefined>> } {
  const { type, parameters } = parse(mediaType);
  return { essence: type, parameters };
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

/**
 * Whether a media type (parameters and letter case allowed) is JSON: `application/json`, or an
 * `application/…+json` structured-syntax type (RFC 6839 §3.1: `application/problem+json`,
 * `application/vnd.api+json`, `application/merge-patch+json`). A type that merely ends in `json`
 * is not: `application/x-ndjson` is a stream of JSON texts, not one JSON document.
 */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = mediaType === 'application/json' ? mediaType : mediaEssence(mediaType);
  return essence === 'application/json' || JSON_SUFFIXED.test(essence);
}
/** RFC 6838 §4.2's restricted-name characters before the `+json` suffix. */
const JSON_SUFFIXED = /^application\/[a-z0-9!#$&^_.+-]+\+json$/;

/** Whether a media type is XML: `application/xml`, `text/xml` or a `+xml` structured-syntax type (RFC 7303). */
export function isXmlMediaType(mediaType: string): boolean {
  const essence = mediaEssence(mediaType);
  return essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml');
}

/**
 * Whether a media type is YAML: `application/yaml` (RFC 9512), the older `application/x-yaml`,
 * `text/yaml`, `text/x-yaml`, or a `+yaml` structured-syntax type. YAML 1.2 holds JSON: a JSON
 * text is a YAML document of the same value.
 */
export function isYamlMediaType(mediaType: string): boolean {
  const essence = mediaEssence(mediaType);
  return /^(?:application|text)\/(?:x-)?yaml$/.test(essence) || essence.endsWith('+yaml');
}

/** The entry of a content map's first JSON media type (in the spec's order); undefined when it declares none. */
export function firstJson<T>(content: ReadonlyMap<string, T> | undefined): T | undefined {
  for (const [mediaType, entry] of content ?? []) if (isJsonMediaType(mediaType)) return entry;
  return undefined;
}
