/** Request paths: the templates the document declares, and the base paths its servers put them under. */

/**
 * A path template (`/plants/{id}`, `/releases/{major}.{minor}.{patch}`) matched against request
 * paths: literal parts exact, each template one segment (non-empty, no `/`), a trailing slash
 * ignored — openapi-backend's matching rule. Never a regex: `([^/]+)\.([^/]+)\.([^/]+)` backtracks
 * on a segment of 3,000 dots for tens of CPU-seconds (issue 39, item 2). A path is split into
 * segments and each segment into its literal parts by a fixed placement (see `matchSegment`), so
 * matching costs time linear in the path (times a literal's length).
 */
export class PathTemplate {
  /** Equal for templates that match the same paths (`/a/{x}` and `/a/{y}` both `/a/{}`). */
  readonly key: string;
  /** Per segment, its literal parts around its templates: `{major}.{minor}` is `['', '.', '']`, `plants` is `['plants']`. */
  readonly #segments: string[][];

  constructor(template: string) {
    const trimmed = template.length > 1 && template.endsWith('/') ? template.slice(0, -1) : template;
    const segments: string[][] = [[]];
    let literal = '';
    for (const part of trimmed.split(/(\{[^}]+\})/)) {
      if (part.startsWith('{') && part.endsWith('}') && part.length > 2) {
        (segments[segments.length - 1] as string[]).push(literal);
        literal = '';
        continue;
      }
      const pieces = part.split('/');
      literal += pieces[0] as string;
      for (const piece of pieces.slice(1)) {
        (segments[segments.length - 1] as string[]).push(literal);
        segments.push([]);
        literal = piece;
      }
    }
    (segments[segments.length - 1] as string[]).push(literal);
    this.#segments = segments;
    this.key = JSON.stringify(segments);
  }

  /** The raw values of the templates, in order, when `path` is one of the template's paths; undefined otherwise. */
  match(path: string): string[] | undefined {
    const sent = path.split('/');
    return this.matchSplit(sent, path.endsWith('/') ? sent.slice(0, -1) : undefined);
  }

  /**
   * `match` for a path split at its slashes once for many templates (a route table tries each in
   * turn: splitting the path per template was a quarter of a request's CPU on a 174-operation spec);
   * `trimmed` is the split without its last, empty segment, for a path ending in a slash.
   */
  matchSplit(sent: readonly string[], trimmed?: readonly string[]): string[] | undefined {
    return this.#matchExactly(sent) ?? (trimmed ? this.#matchExactly(trimmed) : undefined);
  }

  test(path: string): boolean {
    return this.match(path) !== undefined;
  }

  #matchExactly(sent: readonly string[]): string[] | undefined {
    if (sent.length !== this.#segments.length) return undefined;
    const values: string[] = [];
    for (let i = 0; i < sent.length; i++) {
      if (!matchSegment(sent[i] as string, this.#segments[i] as string[], values)) return undefined;
    }
    return values;
  }
}

/**
 * Whether `segment` is `literals` with a non-empty value between each two, the values appended to
 * `values`. Where several splits fit (`1.2.3.4` of `{a}.{b}.{c}`) the one a greedy regex takes:
 * each literal placed as far right as the ones after it allow, found right to left, each search
 * starting where the last one ended — one pass, no backtracking.
 */
function matchSegment(segment: string, literals: readonly string[], values: string[]): boolean {
  const last = literals.length - 1;
  const first = literals[0] as string;
  if (last === 0) return segment === first;
  const final = literals[last] as string;
  if (segment.length < first.length + final.length || !segment.startsWith(first) || !segment.endsWith(final)) return false;
  // starts[k]: where literal k stands; a value between two literals holds at least one character.
  const starts = new Array<number>(literals.length);
  starts[0] = 0;
  starts[last] = segment.length - final.length;
  for (let k = last - 1; k >= 1; k--) {
    const literal = literals[k] as string;
    const latest = (starts[k + 1] as number) - 1 - literal.length;
    const at = latest < first.length + 1 ? -1 : segment.lastIndexOf(literal, latest);
    if (at < first.length + 1) return false;
    starts[k] = at;
  }
  if ((starts[1] as number) < first.length + 1) return false;
  for (let k = 0; k < last; k++) values.push(segment.slice((starts[k] as number) + (literals[k] as string).length, starts[k + 1]));
  return true;
}

/** A path template's matcher (see PathTemplate). */
export function pathTemplatePattern(template: string): PathTemplate {
  return new PathTemplate(template);
}

/** The names of a path template's parameters, in order: `/a/{x}/{y}` → `['x', 'y']`. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/**
 * The values of a path template's parameters, named `names`, from a `PathTemplate.match`: each
 * segment percent-decoded (the Prism mock's edge reads them so too).
 */
export function templateValues(names: readonly string[], match: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const raw = match[i] as string;
    try {
      params[names[i] as string] = decodeURIComponent(raw);
    } catch {
      // A malformed escape (openapi-backend's router throws): the segment stays as sent, and the parameter's schema judges it.
      params[names[i] as string] = raw;
    }
  }
  return params;
}

/**
 * The base paths the document's `servers` put the API under (`/api/v3`, or the path of
 * `https://{env}.example.com/base/{version}` with each variable at its default), without a
 * trailing slash; a server at a root names none. The mocks serve the paths from their own root, as
 * Prism does: this is what a request that took the servers at their word looks like.
 */
export function serverBasePaths(document: unknown): string[] {
  const servers = (document as { servers?: unknown }).servers;
  if (!Array.isArray(servers)) return [];
  const paths = new Set<string>();
  for (const server of servers as unknown[]) {
    if (server === null || typeof server !== 'object' || typeof (server as { url?: unknown }).url !== 'string') continue;
    const variables = (server as { variables?: Record<string, { default?: unknown }> }).variables ?? {};
    const url = (server as { url: string }).url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
      const fallback = variables[name]?.default;
      return typeof fallback === 'string' ? fallback : whole;
    });
    let path: string;
    try {
      path = new URL(url, 'http://server.invalid').pathname;
    } catch {
      continue;
    }
    const base = path.replace(/\/+$/, '');
    if (base !== '' && !base.includes('{')) paths.add(base);
  }
  return [...paths];
}
