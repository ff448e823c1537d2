/**
 * Where the Redis store connects and under which prefix, read from the command line without
 * loading a Redis client (so a mock that keeps its plants in memory starts without one).
 */

export const DEFAULT_STORE_PREFIX = 'plant-store-mock';
/** No ':' in a prefix: the store's keys are `prefix:kind:collection`, so prefixes never overlap. */
const PREFIX_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

/** Where the store connects, from a `redis://` or `rediss://` URL, and how to name it in messages. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL with any password masked, for logs, health and error messages. */
  display: string;
}

/**
 * Reads `redis://[[user]:password@]host[:port][/db]` (`rediss://` for TLS). Anything else (another
 * scheme, a query string, a path that is not a db number) is refused with an Error naming the URL,
 * so the store's own connection settings cannot be overridden by the URL.
 */
export function parseRedisUrl(text: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The store URL ${maskUrl(text)} is not a URL; expected redis://[:password@]host:port/db or rediss://…`);
  }
  const display = maskUrl(text);
  const fail = (why: string): never => {
    throw new Error(`The store URL ${display} ${why}; expected redis://[:password@]host:port/db or rediss://…`);
  };
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') fail(`has the scheme ${url.protocol.slice(0, -1)}`);
  if (!url.hostname) fail('names no host');
  if (url.search || url.hash) fail('has a query or fragment, which the store does not read');
  const dbText = url.pathname.replace(/^\//, '');
  if (dbText !== '' && !/^\d{1,5}$/.test(dbText)) fail(`has the path ${url.pathname}, which is not a database number`);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : 6379,
    db: dbText === '' ? 0 : Number(dbText),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    tls: url.protocol === 'rediss:',
    display,
  };
}

/** The URL with its password (and a lone username, which Redis also accepts as a password) masked. */
export function maskUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i, (_, scheme: string, credentials: string) => {
    const colon = credentials.indexOf(':');
    return colon === -1 ? `${scheme}***@` : `${scheme}${credentials.slice(0, colon)}:***@`;
  });
}

/** The prefix when it is usable; otherwise an Error saying what is. */
export function parseStorePrefix(prefix: string): string {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new Error(`The store prefix ${JSON.stringify(prefix)} is not usable: 1 to 100 letters, digits, '.', '_' or '-'.`);
  }
  return prefix;
}
