/**
 * `--dry-run`: what the suite would do, from the spec alone, before any request — which answers
 * feed which requests (openapi/operations/dependencies.ts) and the stateful sequences, parents first.
 */
import { dependencyGraph, describeDependencies } from '../openapi/operations/dependencies.js';
import type { ResolvedOptions } from './options.js';
import { planSequences } from './sequences.js';
import { producedValues } from './dependencies.js';
import { listedFilters } from './listed-filters.js';

/** The dry run's text: the graph of the operations under test, then one line per sequence. */
export function dryRunText(resolved: Pick<ResolvedOptions, 'compiled' | 'operations' | 'source'>): string {
  const lines = [`Dry run of ${resolved.source}: ${resolved.operations.length} operations under test, nothing sent.`];
  if (!resolved.compiled) return [...lines, 'No whole spec was given, so no dependency graph.'].join('\n');
  const tested = new Set(resolved.operations.map((o) => o.operationId));
  const graph = dependencyGraph(resolved.compiled).filter((entry) => tested.has(entry.operationId));
  const edges = graph.reduce((n, entry) => n + entry.consumes.length, 0);
  lines.push('', `Dependency graph: ${edges} values consumed by ${graph.filter((e) => e.consumes.length).length} operations (← the operation whose answer produces each):`);
  lines.push(...(edges ? describeDependencies(graph) : ['  none: no operation under test consumes a value another one produces']));
  const calls = producedValues(graph, resolved.operations);
  if (calls.length) {
    lines.push('', 'Called once before the cases, for what their answer names:');
    for (const { producer, property, consumers } of calls) lines.push(`  ${producer} .${property} → ${consumers.map((c) => `{${c.parameter}} of ${c.operationId}`).join(', ')}`);
  }
  const plans = planSequences(resolved.compiled, resolved.operations);
  lines.push('', `Stateful sequences: ${plans.length}`);
  for (const plan of plans) {
    const steps = [
      plan.parent && `${plan.parent.create.operationId} (parent ${plan.parent.noun}, created first, deleted last)`,
      plan.create.operationId,
      plan.read?.operationId,
      plan.list?.operationId,
      plan.update?.operationId,
      plan.remove?.operationId,
    ];
    lines.push(`  ${plan.collection}: ${steps.filter((s): s is string => s !== undefined).join(' → ')}`);
  }
  const lists = listedFilters(resolved.compiled, resolved.operations);
  if (lists.length) {
    lines.push('', 'Lists no client fills, their filters judged on their own records (listed without, then with a value they hold):');
    for (const { operation, filters } of lists) lines.push(`  ${operation.operationId}: ${filters.map((f) => f.parameter).join(', ')}`);
  }
  return lines.join('\n');
}
