/**
 * Whether the target can be reached at all, decided before any case is sent: a refused or
 * unresolvable address is a usage problem (exit 2), not a provider failing the contract.
 */
import { connect } from 'node:net';

export class UnreachableTargetError extends Error {
  override name = 'UnreachableTargetError';
}

/** Resolves once a TCP connection to the URL's host and port opens; throws UnreachableTargetError. */
export function assertReachable(url: URL, timeoutMs: number): Promise<void> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (reason: string): void => {
      socket.destroy();
      reject(new UnreachableTargetError(`Cannot reach ${url.href}: ${reason}.`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no TCP connection to ${host}:${port} within ${timeoutMs} ms`));
    socket.once('error', (error: NodeJS.ErrnoException) => fail(`${error.code ?? error.message} connecting to ${host}:${port}`));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}
