/** Where the mock's own routes live: a path under this prefix is the mock's, never the spec's. */
export const ADMIN_PREFIX = '/__mock';

/** Whether a routed path (http/respond.ts, pathOf) is one of the mock's own routes. */
export function isAdminPath(path: string): boolean {
  return path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);
}
