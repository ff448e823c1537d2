/**
 * Path segments URL normalisation removes. WHATWG URL (what fetch and `new URL` apply) takes `.`
 * and `..` as dot segments even percent-encoded (`%2e`, `.%2e`, `%2E%2E` …), and RFC 3986 §5.2.4
 * removes them: a path parameter whose value is one (an id a hostile provider assigned) would send
 * the request, credentials and all, to the parent path instead. Such a request is never sent.
 */

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The first segment of `path` (its query left out) that URL normalisation would remove, or undefined. */
export function dotSegmentOf(path: string): string | undefined {
  const query = path.search(/[?#]/);
  const segments = (query === -1 ? path : path.slice(0, query)).split('/');
  return segments.find((segment) => DOT_SEGMENT.test(segment));
}

/** Whether `value`, alone in a path segment (percent-encoded as a segment is), would be a dot segment. */
export function isDotSegment(value: string): boolean {
  return DOT_SEGMENT.test(encodeURIComponent(value));
}

/** Why a request on `path` is not sent, naming the operation and the segment; undefined when it may be. */
export function traversalReason(operationId: string, method: string, path: string): string | undefined {
  const segment = dotSegmentOf(path);
  if (segment === undefined) return undefined;
  return `not sent: ${operationId} (${method} ${path}) would carry the path segment '${segment}', which URL normalisation removes even percent-encoded, so the request would reach another path (credentials and all)`;
}
