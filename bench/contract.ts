/** Wall time of the contract suite (`npm run contract`) against a local in-memory mock. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './targets.js';

export interface ContractResult {
  seconds: number | undefined;
  note: string;
}

export async function measureContractSuite(_cpus: string | undefined): Promise<ContractResult> {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  if (!scripts.contract) return { seconds: undefined, note: 'not measured: package.json has no "contract" script yet' };
  return { seconds: undefined, note: 'not measured yet' };
}
