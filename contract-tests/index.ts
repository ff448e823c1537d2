/**
 * The contract suite as a library: `runContractSuite(options)` resolves to a report;
 * `formatReport` and `writeJUnit` present it. The CLI (cli.ts) is a thin shell around these.
 */
export { CHECKS } from './checks/index.js';
export { CHECK_NAMES } from './model.js';
export type {
  Check,
  CheckName,
  CheckResult,
  ContractCase,
  ContractReport,
  OperationResult,
  Exchange,
  Finding,
  Problem,
  RunContext,
  SentRequest,
  ReceivedResponse,
  Severity,
  SkipRule,
} from './model.js';
export { ContractUsageError, DEFAULT_TIMEOUT_MS, type ContractOptions } from './options.js';
export { UnreachableTargetError } from './reachability.js';
export { curlCommand, describeFinding, formatReport, summaryLine } from './report.js';
export { junitXml, writeJUnit } from './junit.js';
export { harLog, writeHar } from './har.js';
export { compileSuiteContract, compileSuiteSpec, loadSuiteContract, loadSuiteSpec, SpecError, type SuiteContract, type SuiteSpec } from './spec-contract.js';
export { runContractSuite } from './runner.js';
