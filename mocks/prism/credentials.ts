/**
 * The Prism edge's judge of credentials, first, before the body and the parameters: the stateful
 * mock's own checks of each scheme (../engine/security.ts), its requirements per operation
 * (../engine/routes.ts), its verdict and its 401 (../engine/request-path.ts, ../engine/handlers.ts).
 * So a request with no or bad credentials gets the same 401 and challenge from both mocks, whatever
 * else is wrong with it. Prism's own check is off (./server.ts): it would judge them again, by rules
 * of its own.
 */
import type { IncomingMessage } from 'node:http';
import type { CompiledContract, ContractOperation } from '../../openapi/operations/model.js';
import type { SecurityCheck } from '../engine/context.js';
import { realmOf } from '../engine/error-answers.js';
import { firstSecurityFailure } from '../engine/handlers.js';
import { authorized, contextOf } from '../engine/request-path.js';
import { securityRequirements, type RoutedOperation } from '../engine/routes.js';
import { securityCheck } from '../engine/security.js';
import type { Rejection } from '../errors.js';

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

export class CredentialGate {
  readonly #realm: string;
  /** Each operation's requirements with their schemes' checks, compiled once. */
  readonly #guards = new Map<ContractOperation, Pick<RoutedOperation, 'security'>>();

  constructor(contract: CompiledContract) {
    this.#realm = realmOf(contract.title);
    // No --tokens here: any well-formed credential is accepted, as the stateful mock does without them.
    const policy = { realm: this.#realm, tokens: undefined };
    const checks = new Map<string, SecurityCheck>();
    for (const scheme of contract.securitySchemes.values()) checks.set(scheme.name, securityCheck(scheme, policy));
    for (const operation of contract.operations.values()) this.#guards.set(operation, { security: securityRequirements(operation, checks) });
  }

  /** The 401 the request's credentials earn at `operation` (`path` without its query), or undefined when they satisfy it. */
  refusal(operation: ContractOperation, req: IncomingMessage, path: string): Rejection | undefined {
    const guard = this.#guards.get(operation);
    if (!guard || guard.security.length === 0) return undefined;
    const context = contextOf(req, (req.method ?? 'GET').toUpperCase(), path, NO_PARAMS);
    return authorized(context, guard) ? undefined : firstSecurityFailure(context, this.#realm);
  }
}
