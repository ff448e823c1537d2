/**
 * The console report: a table of checks, every skip with its reason, then each failure with
 * everything a provider team needs to fix it from the report alone — the check, the case, the
 * exact request (with a curl line to replay it), the response and why it fails.
 */
import type { CheckResult, ContractReport, Exchange, Finding } from './model.js';
import { hasUnsafe, terminalSafe } from './terminal-text.js';

export interface FormatOptions {
  /** Failures shown in full per check (all of them are in the JUnit file). */
  maxFailuresPerCheck?: number;
  /** Distinct warnings shown (each with the cases it concerns). */
  maxWarningGroups?: number;
  /** Provider choices shown (what the provider did where the RFCs leave it open). */
  maxInfos?: number;
  /** Characters of a body shown. */
  bodyExcerpt?: number;
  /** The JUnit file being written (--junit): where the findings the console leaves out are. */
  junit?: string;
}

/** Where the findings the console leaves out can be read: the JUnit report when one is written, else how to get one. */
function morePlace(options: FormatOptions): string {
  return options.junit ? `all are in the JUnit report, ${options.junit}` : 'pass --junit <file> to get all of them';
}

/** Bodies larger than this get no curl line in the console (the HAR and JUnit files have them). */
const REPLAY_LIMIT = 4096;

const MARK: Record<CheckResult['status'], string> = { passed: '✓', failed: '✗', skipped: '-', 'not-judged': '?' };

export function formatReport(report: ContractReport, options: FormatOptions = {}): string {
  const maxFailures = options.maxFailuresPerCheck ?? 10;
  const maxWarnings = options.maxWarningGroups ?? 20;
  const maxInfos = options.maxInfos ?? 40;
  const excerptLength = options.bodyExcerpt ?? 500;
  const lines: string[] = [];
  if (report.headline) lines.push(`!!! ${report.headline}`, '');
  const endpoint = (path: string): string => new URL(path.replace(/^\//, ''), report.baseUrl.endsWith('/') ? report.baseUrl : `${report.baseUrl}/`).href;
  const operations = report.operations ?? [];
  if (operations.length > 1) lines.push(`Contract suite: ${operations.length} operations of the spec at ${report.baseUrl}`);
  else lines.push(`Contract suite: ${report.spec.operationId} (${report.spec.method} ${endpoint(report.spec.path)})`);
  lines.push(`Spec: ${report.spec.source}`);
  lines.push(`${report.cases} cases in ${(report.durationMs / 1000).toFixed(1)} s, seed ${report.seed} (reproduce the generated cases with --seed ${report.seed})`);
  if (report.stringSamples)
    lines.push(`String domain: ${report.stringSamples.sent} of its ${report.stringSamples.of} samples per string property (--string-samples), taken in turn across the properties`);
  if (report.variantSamples) {
    const { perOperation, sent, of } = report.variantSamples;
    lines.push(
      `Fixed families (credentials, JSON syntax, media-type spellings, body shapes): ${perOperation} of each per operation, and ${perOperation} wrong JSON types per property and parameter (--variant-samples), taken in turn, no credential at all to every operation; ${sent} of the ${of} variants sent at least once`,
    );
  }
  lines.push('');
  if (operations.length) {
    const opWidth = Math.max(9, ...operations.map((o) => o.operationId.length));
    lines.push(`  ${'operation'.padEnd(opWidth)}  sent  passed  failed  not sent`);
    for (const o of operations) {
      const notSent = o.skipped.reduce((n, s) => n + s.cases, 0);
      lines.push(`${o.failed ? '✗' : '✓'} ${o.operationId.padEnd(opWidth)}  ${col(o.sent, 4)}  ${col(o.passed, 6)}  ${col(o.failed, 6)}  ${col(notSent, 8)}  ${o.method} ${o.path}`);
      for (const skip of o.skipped) lines.push(`    not sent, ${skip.cases} case(s): ${skip.reason}`);
    }
    for (const o of report.leftOut ?? []) lines.push(`- ${o.operationId.padEnd(opWidth)}  not tested: ${o.reason}  ${o.method} ${o.path}`);
    if (report.fixturesOffered)
      lines.push(
        `  (${report.fixturesOffered} bundled Plant Store fixture case(s) offered where their bodies fit the operation's schema${report.fixturesNotOffered ? `; ${report.fixturesNotOffered} not offered: written for POST /plants, they fit no operation of this spec` : ''})`,
      );
    else if (report.fixturesNotOffered) lines.push(`  (${report.fixturesNotOffered} bundled Plant Store fixture case(s) not offered: written for POST /plants, they fit no operation of this spec)`);
    lines.push('');
  }
  const width = Math.max(...report.checks.map((c) => c.name.length));
  lines.push(`  ${'check'.padEnd(width)}  judged  passed  failed  warnings  choices  skipped`);
  for (const check of report.checks) {
    const skipped = check.status === 'skipped' && !check.judged ? 'all' : String(check.skipped.reduce((n, s) => n + s.cases.length, 0));
    lines.push(
      `${MARK[check.status]} ${check.name.padEnd(width)}  ${col(check.judged, 6)}  ${col(check.passed, 6)}  ${col(check.failed, 6)}  ${col(check.warnings, 8)}  ${col(check.infos, 7)}  ${skipped.padStart(7)}`,
    );
  }
  // One line per reason and set of cases, naming the checks it applies to.
  const skips = new Map<string, { checks: string[]; reason: string; cases: string[] }>();
  for (const check of report.checks) {
    for (const skip of check.skipped) {
      const key = `${skip.reason}\0${skip.cases.join(',')}`;
      const group = skips.get(key) ?? { checks: [], reason: skip.reason, cases: skip.cases };
      group.checks.push(check.name);
      skips.set(key, group);
    }
  }
  if (skips.size) {
    lines.push('', 'Skipped');
    for (const skip of skips.values()) {
      const checks = skip.checks.length >= report.checks.filter((c) => !c.notApplicable).length ? 'every check' : skip.checks.join(', ');
      const which = skip.cases.length ? `${skip.cases.length} case(s): ${list(skip.cases, 6)}` : 'every case';
      lines.push(`  - ${checks}, ${which}: ${skip.reason}`);
    }
  }
  const unjudged = report.checks.filter((c) => c.status === 'not-judged');
  if (unjudged.length) {
    lines.push('', 'Not judged (the spec gives these checks something to judge, and no answer reached it: the run fails)');
    for (const check of unjudged) {
      const awaited = check.awaited ?? [];
      lines.push(`  ? ${check.name}: ${awaited.length ? 'any of these answers would have given it something:' : 'no answer gave it anything to judge'}`);
      for (const answer of awaited.slice(0, 6)) lines.push(`      ${answer}`);
      if (awaited.length > 6) lines.push(`      … and ${awaited.length - 6} more`);
    }
  }
  const failures = report.findings.filter((f) => f.severity === 'failure');
  if (failures.length) {
    lines.push('', `Failures (${failures.length})`);
    const header = lines.length;
    let n = 0;
    for (const check of report.checks) {
      const own = failures.filter((f) => f.check === check.name);
      for (const finding of own.slice(0, maxFailures)) lines.push('', ...describeFinding(++n, finding, excerptLength));
      if (own.length > maxFailures) lines.push('', `  … and ${own.length - maxFailures} more ${check.name} failures (${morePlace(options)}).`);
    }
    // The replay lines read the credential from a variable: said once, before the first of them.
    if (lines.slice(header).some((line) => line.includes('Replay:') && line.includes('PLANT_STORE_TOKEN'))) {
      lines.splice(header, 0, `  (The Replay lines read the token from $PLANT_STORE_TOKEN: set it first, export PLANT_STORE_TOKEN='<the token given with --token>'.)`);
    }
  }
  const warnings = report.findings.filter((f) => f.severity === 'warning');
  if (warnings.length) {
    lines.push('', `Warnings (${warnings.length}; they never fail a run)`);
    // The same warning for many cases is one line naming the cases.
    const grouped = new Map<string, { check: string; message: string; cases: string[] }>();
    for (const finding of warnings) {
      const key = `${finding.check}\0${finding.message}`;
      const group = grouped.get(key) ?? { check: finding.check, message: finding.message, cases: [] };
      group.cases.push(finding.exchange.case.id);
      grouped.set(key, group);
    }
    const groups = [...grouped.values()];
    for (const group of groups.slice(0, maxWarnings)) {
      lines.push(`  ! ${group.check}: ${group.message}`, `      ${group.cases.length === 1 ? 'case' : `${group.cases.length} cases`}: ${list(group.cases, 6)}`);
    }
    if (groups.length > maxWarnings) lines.push(`  … and ${groups.length - maxWarnings} more kinds of warning (${morePlace(options)}).`);
  }
  const infos = report.findings.filter((f) => f.severity === 'info');
  if (infos.length) {
    lines.push('', `Provider choices (${infos.length}; where the RFCs or the spec leave the answer open: reported, never failing)`);
    for (const finding of infos.slice(0, maxInfos)) lines.push(`  i ${finding.check}: ${finding.exchange.case.id}: ${finding.message}`);
    if (infos.length > maxInfos) lines.push(`  … and ${infos.length - maxInfos} more (${morePlace(options)}).`);
  }
  if (report.dependencies) {
    const { values, consumers, belowParent, onCreatedParent, onAnsweredParent, notOnCreated } = report.dependencies;
    const answered = onAnsweredParent ? ` (or, where no operation creates the parent, one an answer of the run named: ${onAnsweredParent} of them)` : '';
    lines.push(
      '',
      `Dependency graph: ${values} values consumed by ${consumers} operations (--dry-run lists them); ${onCreatedParent} of the ${belowParent} operations below a parent record ran on one the suite created${answered}${notOnCreated.length ? '; not the others, because:' : '.'}`,
    );
    // Every one: at most one line per operation, and each says what to give the suite (or the spec) for it.
    for (const { operationId, reason } of notOnCreated) lines.push(`  - ${operationId}: ${reason}`);
  }
  if (report.cleanedUp) lines.push('', `Clean-up: ${report.cleanedUp.deleted} of the ${report.cleanedUp.of} records the cases created were deleted again (or were already gone).`);
  lines.push('', summaryLine(report));
  // A provider's bytes never reach the terminal as they are: each line is escaped whole.
  return lines.map(terminalSafe).join('\n');
}

export function summaryLine(report: ContractReport): string {
  const failed = report.checks.filter((c) => c.status === 'failed');
  const warnings = report.findings.filter((f) => f.severity === 'warning').length;
  // Checks the spec gives nothing to judge (stateful checks without a collection) are not counted as run or skipped.
  const applicable = report.checks.filter((c) => !c.notApplicable);
  const skipped = applicable.filter((c) => c.status === 'skipped').length;
  const infos = report.findings.filter((f) => f.severity === 'info').length;
  const notJudged = report.checks.filter((c) => c.status === 'not-judged');
  const unjudged = notJudged.length ? `, ${notJudged.length} check(s) not judged: no answer gave them anything to judge (${notJudged.map((c) => c.name).join(', ')}), which fails the run` : '';
  const tail = `${warnings} warning(s), ${infos} provider choice(s) reported${skipped ? `, ${skipped} check(s) skipped` : ''}${unjudged}, seed ${report.seed}`;
  const passed = report.checks.filter((c) => c.status === 'passed').length;
  const first = report.headline ? `${report.headline}. ` : '';
  return failed.length
    ? `${first}FAILED: ${failed.length} of ${applicable.length} checks failed (${failed.map((c) => c.name).join(', ')}); ${tail}`
    : notJudged.length
      ? `${first}FAILED: ${passed} of ${applicable.length - skipped} checks run passed; ${tail}`
      : `${first}PASSED: all ${applicable.length - skipped} checks run passed; ${tail}`;
}

/** One failure, in full. */
export function describeFinding(n: number, finding: Finding, excerptLength = 500, replayLimit = REPLAY_LIMIT): string[] {
  const { exchange } = finding;
  const lines = [
    `${n}) ${finding.check}: ${exchange.case.id}`,
    `   Case:     ${exchange.case.description}`,
    ...(exchange.case.origin ? [`   From:     ${exchange.case.origin}`] : []),
    `   Why:      ${finding.message}`,
    ...describeExchange(exchange, excerptLength, replayLimit).map((line) => `   ${line}`),
  ];
  return lines;
}

/** The request and what came back, as lines (shared with the JUnit report). */
export function describeExchange(exchange: Exchange, excerptLength = 500, replayLimit = REPLAY_LIMIT): string[] {
  const { request } = exchange;
  const lines = [`Request:  ${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) for (const one of [value].flat()) lines.push(`          ${name}: ${one}`);
  lines.push(
    request.body === undefined
      ? '          (no body)'
      : `          ${excerpt(bodyAsText(request.body), excerptLength)}${typeof request.body === 'string' ? '' : ` (${request.body.length} bytes, not valid UTF-8)`}`,
  );
  switch (exchange.outcome) {
    case 'response': {
      const { response } = exchange;
      lines.push(`Response: ${response.status}${response.statusText ? ` ${response.statusText}` : ''} after ${exchange.elapsedMs} ms`);
      for (const [name, value] of Object.entries(response.headers)) {
        if (name !== 'date' && name !== 'connection' && name !== 'keep-alive') lines.push(`          ${name}: ${value}`);
      }
      lines.push(response.body === '' ? '          (empty body)' : `          ${excerpt(response.body, excerptLength)}${response.truncated ? ' (body cut at the read limit)' : ''}`);
      break;
    }
    case 'timeout':
      lines.push(`Response: none within ${exchange.timeoutMs} ms`);
      break;
    case 'dropped':
      lines.push(`Response: none, ${exchange.error} (after ${exchange.elapsedMs} ms)`);
      break;
    case 'not-sent':
      lines.push(`Response: ${exchange.reason}`);
      break;
  }
  const size = request.body === undefined ? 0 : Buffer.byteLength(request.body);
  lines.push(
    size > replayLimit ? `Replay:   the body is ${size} bytes, too long to print here; the HAR file (--har) and the JUnit report carry the whole request` : `Replay:   ${curlCommand(exchange)}`,
  );
  return lines;
}

/**
 * The stand-ins a masked request may hold for the token and its forms: shell expressions that
 * compute them from $PLANT_STORE_TOKEN (runner.ts `secrets`), so a replay runs as printed.
 */
const TOKEN_STAND_INS = /<token>|\$\{PLANT_STORE_TOKEN(?:~~|%\?)?\}|\$\(printf '%s:' "\$PLANT_STORE_TOKEN" \| base64 -w0\)|\$\(printf %s (?:'[^']*'|\\'|"\$PLANT_STORE_TOKEN")+ \| base64 -w0\)/g;

/** A shell word for text holding token stand-ins: each stand-in in double quotes (`<token>` as `${PLANT_STORE_TOKEN}`), the text between quoted exactly. */
function withTokenVariable(text: string): string {
  const words: string[] = [];
  let at = 0;
  for (const match of text.matchAll(TOKEN_STAND_INS)) {
    if (match.index > at) words.push(shellQuote(text.slice(at, match.index)));
    words.push(`"${match[0] === '<token>' ? '${PLANT_STORE_TOKEN}' : match[0]}"`);
    at = match.index + match[0].length;
  }
  if (at < text.length) words.push(shellQuote(text.slice(at)));
  return words.join('');
}

const holdsToken = (text: string): boolean => text.search(TOKEN_STAND_INS) >= 0;

/** A curl command that sends the same request; the token comes from $PLANT_STORE_TOKEN, its other forms are computed from it. */
export function curlCommand(exchange: Exchange): string {
  const { request } = exchange;
  const parts = [`curl -i -X ${request.method}`, holdsToken(request.url) ? withTokenVariable(request.url) : shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'host') continue;
    for (const one of [value].flat()) {
      parts.push('-H', holdsToken(one) ? withTokenVariable(`${name}: ${one}`) : shellQuote(`${name}: ${one}`));
    }
  }
  // curl would add its own Content-Type to a body; an empty -H removes it when the case has none.
  if (!('content-type' in request.headers) && request.body !== undefined) parts.push('-H', shellQuote('content-type:'));
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  return parts.join(' ');
}

/**
 * A shell word for exact text or bytes: plain single quotes, or, for bytes that are not UTF-8
 * or characters a terminal would act on, bash's $'…' with those bytes as \xHH (still exact).
 */
function shellQuote(value: string | Uint8Array): string {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
  const text = bytes.toString('utf8');
  if (typeof value === 'string' && !hasUnsafe(text) && !text.includes('\ufffd')) return `'${text.replaceAll("'", "'\\''")}'`;
  let out = "$'";
  for (const byte of bytes) {
    if (byte === 0x27 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}

function bodyAsText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}

function excerpt(text: string, length: number): string {
  const flat = text.replace(/\r?\n/g, '\\n');
  return flat.length <= length ? flat : `${flat.slice(0, length)}… (${flat.length - length} more characters)`;
}

function col(value: number, width: number): string {
  return String(value).padStart(width);
}

function list(items: readonly string[], max: number): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} … (+${items.length - max})`;
}
