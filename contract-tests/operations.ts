/**
 * Which operations of the spec a run tests: --include-operation and --exclude-operation, each
 * value an operationId, a method (`GET`), a path (`/plants/{id}`) or both (`GET /plants/{id}`),
 * as Schemathesis' --include-operation-id / --include-method / --include-path. An operation is
 * tested when it matches an include (or none is given) and no exclude.
 */
import { ContractUsageError } from './errors.js';
import type { SuiteContract, SuiteSpec } from './spec-contract.js';

export interface OperationFilter {
  include: readonly string[];
  exclude: readonly string[];
}

const METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);

/** Whether `operation` matches one filter value. */
export function matchesOperation(value: string, operation: Pick<SuiteContract, 'operationId' | 'method' | 'path'>): boolean {
  const text = value.trim();
  if (text === operation.operationId) return true;
  const [first, second] = text.split(/\s+/);
  if (second !== undefined) return first?.toUpperCase() === operation.method && second === operation.path;
  if (METHODS.has(text.toUpperCase()) && !text.startsWith('/')) return text.toUpperCase() === operation.method;
  return text.startsWith('/') && text === operation.path;
}

export function selectOperations(spec: SuiteSpec, filter: OperationFilter): { operations: SuiteContract[]; leftOut: Array<{ operationId: string; method: string; path: string; reason: string }> } {
  const all = [...spec.operations, ...spec.untestable];
  for (const value of [...filter.include, ...filter.exclude]) {
    if (!all.some((operation) => matchesOperation(value, operation))) {
      const names = all.map((o) => `${o.operationId} (${o.method} ${o.path})`).join(', ');
      throw new ContractUsageError(`No operation of ${spec.source} matches '${value}' (an operationId, a method, a path, or 'METHOD /path'); it has: ${names || 'none'}.`);
    }
  }
  const selected = (operation: Pick<SuiteContract, 'operationId' | 'method' | 'path'>): string | undefined => {
    if (filter.include.length && !filter.include.some((value) => matchesOperation(value, operation))) return 'not selected with --include-operation';
    const excluded = filter.exclude.find((value) => matchesOperation(value, operation));
    return excluded === undefined ? undefined : `excluded with --exclude-operation ${excluded}`;
  };
  const operations: SuiteContract[] = [];
  const leftOut: Array<{ operationId: string; method: string; path: string; reason: string }> = [];
  for (const operation of spec.operations) {
    const reason = selected(operation);
    if (reason === undefined) operations.push(operation);
    else leftOut.push({ operationId: operation.operationId, method: operation.method, path: operation.path, reason });
  }
  for (const operation of spec.untestable) {
    const reason = selected(operation);
    leftOut.push({ ...operation, reason: reason ?? operation.reason });
  }
  if (!operations.length) {
    const why = leftOut.map((o) => `${o.operationId}: ${o.reason}`).join('; ');
    throw new ContractUsageError(`No operation of ${spec.source} is left to test${why ? ` (${why})` : ''}.`);
  }
  return { operations, leftOut };
}
