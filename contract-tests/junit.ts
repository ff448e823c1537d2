/**
 * The JUnit XML report for CI: one test suite per check, one test case per case it judged
 * (failures with the full request and response), skips with their reason, warnings as the
 * passing test case's output. Built with junit-report-builder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import junitModule, { type Builder } from 'junit-report-builder';
import type { ContractReport } from './model.js';
import { describeExchange } from './report.js';

// junit-report-builder is CommonJS whose module.exports is the builder; its typings say default.
const junit = junitModule as unknown as Builder;

/** XML 1.0 cannot carry these characters even escaped; a provider's body may hold them. */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/**
 * Text for the report: characters XML cannot carry written as `\uXXXX`, and every `]]>` as `]]\u003e`.
 * The builder puts text in CDATA sections and splits only the first `]]>` it finds, so a provider
 * whose body held two could close the section and forge test cases (issue 24 #3). Every attribute
 * and property goes through it too: the builder escapes `&<"` there, but silently drops a character
 * XML cannot carry, so the report named a spec path or base URL other than the one run.
 */
const xmlSafe = (text: string): string => text.replace(NOT_XML, (c) => `\\u${c.codePointAt(0)?.toString(16).padStart(4, '0')}`).replaceAll(']]>', ']]\\u003e');

export function junitXml(report: ContractReport): string {
  const builder = junit.newBuilder().name(xmlSafe('Plant Store contract'));
  for (const check of report.checks) {
    const suite = builder
      .testSuite()
      .name(xmlSafe(check.name))
      .timestamp(report.startedAt)
      .property('base_url', xmlSafe(report.baseUrl))
      .property('spec', xmlSafe(report.spec.source))
      .property('seed', xmlSafe(String(report.seed)))
      .property('proves', xmlSafe(check.proves));
    if (check.status === 'skipped' && !check.judged) {
      const reason = check.skipped.map((s) => s.reason).join('; ');
      suite
        .testCase()
        .className(xmlSafe(check.name))
        .name('(every case)')
        .skipped()
        .standardOutput(xmlSafe(`Skipped: ${reason}`));
      continue;
    }
    if (check.status === 'not-judged') {
      suite.testCase().className(xmlSafe(check.name)).name('(not judged)').skipped().standardOutput('Not judged: no answer gave this check anything to judge, so it proves nothing in this run.');
      continue;
    }
    for (const skip of check.skipped) {
      for (const caseId of skip.cases)
        suite
          .testCase()
          .className(xmlSafe(check.name))
          .name(xmlSafe(caseId))
          .skipped()
          .standardOutput(xmlSafe(`Skipped: ${skip.reason}`));
    }
    const byExchange = new Map<string, typeof report.findings>();
    for (const finding of report.findings) {
      if (finding.check !== check.name) continue;
      byExchange.set(finding.exchange.case.id, [...(byExchange.get(finding.exchange.case.id) ?? []), finding]);
    }
    const judged = new Set(check.judgedCases);
    for (const exchange of report.exchanges) {
      if (!judged.has(exchange.case.id)) continue;
      const findings = byExchange.get(exchange.case.id);
      const testCase = suite
        .testCase()
        .className(xmlSafe(check.name))
        .name(xmlSafe(exchange.case.id))
        .time(Math.round(exchange.elapsedMs) / 1000);
      const failures = (findings ?? []).filter((f) => f.severity === 'failure');
      const warnings = (findings ?? []).filter((f) => f.severity === 'warning');
      const details = [`Case: ${exchange.case.description}`, ...describeExchange(exchange, 4000, 1024 * 1024)].join('\n');
      if (failures.length) {
        testCase.failure(xmlSafe(failures.map((f) => f.message).join(' ')), xmlSafe(check.name)).stacktrace(xmlSafe(details));
      }
      const infos = (findings ?? []).filter((f) => f.severity === 'info');
      const notes = [...warnings.map((w) => `Warning: ${w.message}`), ...infos.map((i) => `Provider choice: ${i.message}`)];
      if (notes.length) testCase.standardOutput(xmlSafe(`${notes.join('\n')}\n${details}`));
    }
  }
  return builder.build();
}

export function writeJUnit(report: ContractReport, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, junitXml(report));
}
