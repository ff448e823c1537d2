/** The one media-type module: how a Content-Type falls under a declared media type, and what counts as JSON or XML. */
import { describe, expect, it } from 'vitest';
import { firstJson, isJsonMediaType, isXmlMediaType, matchingMedia, mediaEssence, parseMediaType } from '../media-types.js';

describe('matchingMedia', () => {
  const declared = ['application/json; charset=utf-8', 'text/*', 'application/problem+json'];

  it('matches by essence, either side carrying parameters or another letter case', () => {
    expect(matchingMedia(declared, 'application/json')).toBe('application/json; charset=utf-8');
    expect(matchingMedia(declared, 'Application/JSON; charset=UTF-8')).toBe('application/json; charset=utf-8');
    expect(matchingMedia(['application/json'], 'application/json;charset=utf-8')).toBe('application/json');
    expect(mediaEssence(' Application/JSON ; q=1')).toBe('application/json');
  });

  it('falls back to type/* and then */*, and finds nothing else', () => {
    expect(matchingMedia(declared, 'text/plain; charset=latin1')).toBe('text/*');
    expect(matchingMedia(declared, 'image/png')).toBeUndefined();
    expect(matchingMedia([...declared, '*/*'], 'image/png')).toBe('*/*');
    expect(matchingMedia(declared, 'application/problem+json')).toBe('application/problem+json');
    expect(matchingMedia(declared, 'application/jsonx')).toBeUndefined();
  });
});

describe('what counts as JSON and as XML', () => {
  it('is JSON: application/json and application/…+json (RFC 6839), whatever the parameters and letter case', () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/problem+json', 'application/vnd.api+json', 'application/merge-patch+json', 'application/vnd.my_api+json']) {
      expect(isJsonMediaType(type), type).toBe(true);
    }
  });

  it('is not JSON: a type that merely ends in json (a stream of JSON texts, a JSON-ish text type), nor a near miss', () => {
    for (const type of ['application/x-ndjson', 'application/jsonl', 'text/json', 'application/jsonx', 'application/+json', 'text/plain']) {
      expect(isJsonMediaType(type), type).toBe(false);
    }
  });

  it('is XML: application/xml, text/xml and any +xml type (RFC 7303)', () => {
    expect(['application/xml', 'TEXT/XML; charset=utf-8', 'application/atom+xml', 'image/svg+xml'].every(isXmlMediaType)).toBe(true);
    expect(['application/json', 'text/plain', 'application/xml-dtd'].some(isXmlMediaType)).toBe(false);
  });

  it('finds the first JSON entry of a content map, in the spec’s order', () => {
    expect(
      firstJson(
        new Map([
          ['text/plain', 1],
          ['application/hal+json', 2],
          ['application/json', 3],
        ]),
      ),
    ).toBe(2);
    expect(firstJson(new Map([['application/x-ndjson', 1]]))).toBeUndefined();
    expect(firstJson(undefined)).toBeUndefined();
  });

  it('reads parameters by lower-case name, a quoted value unquoted', () => {
    expect(parseMediaType('Multipart/Form-Data; Boundary="a b"; charset=UTF-8')).toEqual({ essence: 'multipart/form-data', parameters: { boundary: 'a b', charset: 'UTF-8' } });
  });
});
