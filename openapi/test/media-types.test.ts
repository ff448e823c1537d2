/** matchingMedia: the one rule by which a Content-Type falls under a media type the spec declares, parameters and all. */
import { describe, expect, it } from 'vitest';
import { matchingMedia, mediaEssence } from '../media-types.js';

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
