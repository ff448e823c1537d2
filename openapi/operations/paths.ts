/** Request paths: the templates the document declares, and the base paths its servers put them under. */

/**
 * A path template (`/plants/{id}`) as a regex over request paths: literal parts exact, each
 * template one segment (captured), a trailing slash ignored — openapi-backend's matching rule.
 */
export function pathTemplatePattern(template: string): RegExp {
  const trimmed = template.length > 1 && template.endsWith('/') ? template.slice(0, -1) : template;
  const source = trimmed
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** The names of a path template's parameters, in order: `/a/{x}/{y}` → `['x', 'y']`. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/**
 * The values of a path template's parameters, named `names`, from a match of its
 * `pathTemplatePattern`: each segment percent-decoded (the Prism mock's edge reads them so too).
 */
export function templateValues(names: readonly string[], match: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const raw = match[i + 1] as string;
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
