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

/** How long the command line waits for the target to accept a connection before it starts. */
export const WAIT_BUDGET_MS = 10_000;

/** What waiting took: how many connection attempts, the first one included. */
export interface Waited {
  attempts: number;
}

/**
 * Resolves once a TCP connection to the URL opens, trying again with a growing pause (100 ms,
 * doubling, at most 1 s) until `budgetMs` has passed: a provider started just before the suite
 * (`npm start & npm run contract`) is waited for instead of failing the run. Each attempt is one
 * connection bounded by what is left of the budget. Throws UnreachableTargetError when it never answers.
 */
export async function waitUntilReachable(url: URL, budgetMs = WAIT_BUDGET_MS, onAttemptFailed?: (attempt: number, reason: string) => void): Promise<Waited> {
  const deadline = Date.now() + budgetMs;
  let pause = 100;
  for (let attempt = 1; ; attempt++) {
    const left = deadline - Date.now();
    try {
      // The first attempt gets a whole connection's time even when there is no budget to wait (--wait 0).
      await assertReachable(url, attempt === 1 ? 2_000 : Math.max(1, Math.min(left, 2_000)));
      return { attempts: attempt };
    } catch (error) {
      if (!(error instanceof UnreachableTargetError)) throw error;
      onAttemptFailed?.(attempt, error.message);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const waited = budgetMs > 0 ? `waited ${budgetMs / 1000} s (${attempt} connection attempts)` : 'tried once (--wait 0)';
        throw new UnreachableTargetError(`${error.message.replace(/\.$/, '')}; ${waited} and it never answered. Is the provider running at that address?`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, remaining)));
      pause = Math.min(pause * 2, 1_000);
    }
  }
}
