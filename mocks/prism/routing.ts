/**
 * What Prism's router is given for a request. Prism matches each templated segment with an
 * unanchored regex it builds per request (`{major}.{minor}.{patch}` as `(.*)\.(.*)\.(.*)`), which
 * backtracks: on a 16 KB segment of dots, seconds to minutes (issue 39, item 2). So the edge routes
 * by the contract's linear matcher (openapi/operations/paths.ts) and hands Prism only the operations
 * of the template it routed to, with the path written as that template with `x` for each parameter:
 * Prism is given no parameters to read (./operations.ts), so the values were only ever routed on.
 * A path no template takes goes to Prism with the static operations only, compared as strings, so
 * Prism's own 404 or 405 is what it was.
 */
import type { CompiledContract, ContractOperation } from '../../openapi/operations/model.js';
import { PathTemplate } from '../../openapi/operations/paths.js';
import type { HttpOperations } from './operations.js';

export interface PrismRoute {
  operations: HttpOperations;
  path: string;
}

export class PrismRouting {
  readonly #static: HttpOperations;
  /** The contract's templated paths in document order, each with its matcher and Prism's operations there. */
  readonly #templates: { path: string; template: PathTemplate; operations: HttpOperations }[] = [];

  constructor(contract: CompiledContract, operations: HttpOperations) {
    this.#static = operations.filter((operation) => !operation.path.includes('{'));
    const seen = new Set<string>();
    for (const { path } of contract.operations.values()) {
      if (!path.includes('{') || seen.has(path)) continue;
      seen.add(path);
      this.#templates.push({ path, template: new PathTemplate(path), operations: operations.filter((operation) => operation.path === path) });
    }
  }

  /** Prism's operations and path for a request at `pathname`, which the edge routed to `operation` (if any). */
  route(pathname: string, operation: ContractOperation | undefined): PrismRoute {
    const at = operation?.path.includes('{') ? this.#templates.find((t) => t.path === operation.path) : operation ? undefined : this.#templates.find((t) => t.template.test(pathname));
    if (!at) return { operations: this.#static, path: pathname };
    return { operations: at.operations, path: at.path.replace(/\{[^}]+\}/g, 'x') };
  }
}
