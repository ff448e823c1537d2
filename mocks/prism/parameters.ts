/**
 * The Prism edge's judge of a request's parameters, before Prism sees the request. Prism reads a
 * parameter's number into a double (an int64 past 2^53 is judged on a rounded value) and takes an
 * empty integer (`limit=`) as absent; the spec's schema refuses both. So each parameter of the
 * operation the request reaches is read and validated as the stateful mock does it, by the
 * contract's own readers and validators (../engine/parameter-judge.ts): one judge for both mocks.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { pathTemplatePattern, templateNames, templateValues, type PathTemplate } from '../../openapi/operations/paths.js';
import { type CompiledContract, type ContractOperation } from '../../openapi/operations/model.js';
import { queryValues } from '../../openapi/operations/parameters.js';
import { parameterErrors, parameterRejection } from '../engine/parameter-judge.js';
import type { Rejection } from '../errors.js';

export class ParameterGate {
  /** Each operation's path template as a pattern and the names of its captures, compiled once. */
  readonly #templates = new Map<ContractOperation, { pattern: PathTemplate; names: readonly string[] }>();

  constructor(contract: CompiledContract) {
    for (const operation of contract.operations.values()) {
      this.#templates.set(operation, { pattern: pathTemplatePattern(operation.path), names: templateNames(operation.path) });
    }
  }

  /** The 400 the request's parameters earn at `operation` (`path` without its query, `search` the query without `?`), or undefined when they fit. */
  refusal(operation: ContractOperation, path: string, search: string, headers: IncomingHttpHeaders): Rejection | undefined {
    if (operation.parameters.length === 0) return undefined;
    const template = this.#templates.get(operation);
    const match = template?.pattern.match(path);
    const values = template && match ? templateValues(template.names, match) : {};
    const sent: Record<string, unknown> = {};
    const errors = parameterErrors(operation.parameters, { path: values, query: queryValues(search), headers }, sent);
    return errors.length === 0 ? undefined : parameterRejection(errors, sent);
  }
}
