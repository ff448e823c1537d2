/**
 * What the mock says once at start, before `listening on URL`: where it answers, where its inspector
 * is, which spec it serves, whose credentials it accepts and where it keeps records. Built here as
 * data; the CLI prints it as plain lines to a person (stderr a terminal) or as one log line.
 */
import type { Engine } from './engine/context.js';
import { inferredLine } from '../openapi/operations/collections.js';

export interface StartSummary {
  url: string;
  inspector: string;
  spec: { title: string; version: string; path: string };
  operations: number;
  /** operationIds the mock serves from its store; the others are answered from the spec's examples. */
  stateful: string[];
  /** What the mock inferred of each collection, one line each (openapi/operations/collections.ts). */
  collections: string[];
  /** Each operation answered from the spec's examples, with why: `GET /health: no POST /health creates records`. */
  stateless: string[];
  /** The credential rule, never the credentials. */
  tokens: string;
  store: string;
}

/** The summary of a running mock; `store` is already described (a Redis URL with its password masked). */
export function startSummary(url: string, engine: Engine, tokenCount: number, store: string): StartSummary {
  const { contract } = engine;
  return {
    url,
    inspector: `${url}/__mock/`,
    spec: { title: contract.title, version: contract.version, path: contract.source },
    operations: contract.operations.size,
    // Collections' operations and singleton documents' alike: whatever the store answers.
    stateful: engine.routes.operations.filter((operation) => operation.stateful).map((operation) => operation.operationId),
    collections: engine.collections.map((collection) => inferredLine(collection, engine.stateful)),
    stateless: engine.routes.operations
      .filter((operation) => !operation.stateful && engine.stateless.has(operation.operationId))
      .map((operation) => `${operation.method} ${operation.path}: ${engine.stateless.get(operation.operationId)}`),
    tokens: credentialRule(engine, tokenCount),
    store,
  };
}

/**
 * Whose credentials the mock accepts. A spec that secures no operation (no `security`, or only
 * `security: []` / `{}` alternatives) takes none, whatever `--tokens` says: "any well-formed
 * credential" would send a user looking for one to send.
 */
function credentialRule({ contract }: Engine, tokenCount: number): string {
  const secured = [...contract.operations.values()].some(({ security }) => security.length > 0 && security.every((requirement) => requirement.length > 0));
  if (!secured) return `none needed: the spec declares no security${tokenCount > 0 ? ' (--tokens unused)' : ''}`;
  return tokenCount === 0 ? 'any well-formed credential' : `${tokenCount} accepted credential${tokenCount === 1 ? '' : 's'} (--tokens)`;
}

/** The summary as lines a person reads. */
export function summaryLines(summary: StartSummary): string[] {
  const { spec, stateful } = summary;
  return [
    `Mock:       ${summary.url}`,
    `Inspector:  ${summary.inspector}`,
    `Spec:       ${spec.title} ${spec.version} (${spec.path})`,
    `Operations: ${summary.operations}, ${stateful.length} stateful${stateful.length ? `: ${stateful.join(', ')}` : ''}`,
    ...summary.collections.map((line) => `Collection: ${line}`),
    ...summary.stateless.map((line) => `Stateless:  ${line}`),
    `Tokens:     ${summary.tokens}`,
    `Store:      ${summary.store}`,
  ];
}
