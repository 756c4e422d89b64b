// --html FILE: the report as one self-contained page (no external scripts, styles, fonts or
// images) that a person opens from a CI artifact: light and dark, printable, filterable.

import { answerLine, curlLine, type Exchange } from '../run/client.js';
import { CLASSES, type DifferentialReport } from './differences.js';
import { annotatedLink } from '../spec.js';
import { replayCommand } from './console.js';
import { counted, type Report } from './json.js';
import type { RuleResult } from '../run/harness.js';

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fff; --muted: #59636e; --line: #d1d9e0; --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --error: #8250df; --code: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --pass: #3fb950; --fail: #f85149; --skip: #d29922; --error: #a371f7; --code: #161b22; } }
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.status { font-weight: 600; text-transform: uppercase; font-size: .8rem; }
.pass { color: var(--pass); } .fail { color: var(--fail); } .skip { color: var(--skip); } .error { color: var(--error); }
.muted { color: var(--muted); } code, pre { font: 13px/1.4 ui-monospace, monospace; background: var(--code); }
pre { padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
p code, td code { overflow-wrap: anywhere; } code.id { overflow-wrap: normal; word-break: normal; } pre.answer { margin-top: -.4rem; color: var(--muted); }
.totals span { margin-right: 1.2rem; } .filters button { margin-right: .4rem; } button { font: inherit; cursor: pointer; }
.failure { border-left: 4px solid var(--fail); padding-left: 1rem; margin: 1rem 0; }
.difference { border-left: 4px solid var(--skip); padding-left: 1rem; margin: 1rem 0; } .difference.must, .difference.unclassified { border-left-color: var(--fail); }
.sides { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; } @media (max-width: 800px) { .sides { grid-template-columns: minmax(0, 1fr); } }
@media print { .filters, button.copy { display: none; } body { margin: 0; } }
`;

/** A rule ID that a narrow column breaks only after its dots and dashes, never within a word. */
const idHtml = (id: string) => `<code class="id">${escape(id).replace(/([.-])/g, '$1<wbr>')}</code>`;

const SCRIPT = `
for (const button of document.querySelectorAll('.filters button')) {
  button.addEventListener('click', () => {
    const status = button.dataset.status;
    for (const row of document.querySelectorAll('tr[data-status]')) row.hidden = status !== 'all' && row.dataset.status !== status;
    // An area none of whose rules is shown is hidden whole, its heading too.
    for (const area of document.querySelectorAll('section.area')) area.hidden = [...area.querySelectorAll('tr[data-status]')].every((row) => row.hidden);
    for (const other of document.querySelectorAll('.filters button')) other.setAttribute('aria-pressed', String(other === button));
  });
}
for (const button of document.querySelectorAll('button.copy')) {
  button.addEventListener('click', async () => {
    const text = button.previousElementSibling.textContent;
    try { await navigator.clipboard.writeText(text); button.textContent = 'copied'; } catch { button.textContent = 'select and copy'; }
  });
}
`;

function failure(report: Report, rule: RuleResult): string {
  const example = rule.counterexample;
  // Each request with the server's answer under it, as the console shows them.
  const curl = example?.requests.map((request, index) => {
    const exchange = example.exchanges?.[index];
    return `<div><pre class="curl">${escape(request)}</pre><button class="copy" type="button">copy</button></div>${exchange ? `<pre class="answer">${escape(answerLine(exchange))}</pre>` : ''}`;
  }).join('\n') ?? '';
  return `<section class="failure" id="${escape(rule.id)}">
  <h3><span class="status ${rule.status}">${rule.expected ? 'xfail' : rule.status}</span> <code>${escape(rule.id)}</code> <span class="muted">(${escape(rule.severity)}, ${escape(rule.section)})</span> <a class="muted" href="${escape(annotatedLink(rule.id, true))}">on the annotated spec</a></h3>
  <p>${escape(rule.title)}</p>
  <p><strong>${escape(rule.message)}</strong></p>
  ${example?.input ? `<p>Counterexample:</p><pre>${escape(example.input)}</pre>` : ''}
  ${curl ? `<p>Requests that show it, each with its answer:</p>${curl}` : ''}
  ${rule.status === 'fail' ? `<p>Replay:</p><div><pre>${escape(replayCommand(report, rule))}</pre><button class="copy" type="button">copy</button></div>` : ''}
</section>`;
}

/** The differences of a differential run, class by class: each with both servers' exchanges side by side. */
function differencesHtml(report: DifferentialReport): string {
  const exchangeHtml = (exchange: Exchange) => `<pre class="curl">${escape(curlLine(exchange))}</pre><pre class="answer">${escape(answerLine(exchange))}</pre>`;
  const sections = CLASSES.map((kind) => {
    const ofKind = report.differences.filter((difference) => difference.class === kind);
    if (ofKind.length === 0) return '';
    return `<h3>${escape(kind)} (${ofKind.length})</h3>${ofKind.map((difference) => `<section class="difference ${escape(kind)}" id="difference-${escape(difference.rule)}">
  <h4><code class="id">${escape(difference.rule)}</code>${difference.side ? ` broken by the ${escape(difference.side)}` : ''}${difference.expected ? ` <span class="muted">(listed in its expectations file: ${escape(difference.expected)})</span>` : ''}${difference.decisions ? ` <span class="muted">open point${difference.decisions.length > 1 ? 's' : ''}: ${difference.decisions.map(escape).join(', ')}</span>` : ''}${difference.zulip && difference.zulip !== 'unknown' ? ` <span class="muted">(as Zulip: ${escape(difference.zulip)})</span>` : ''}</h4>
  ${difference.at ? `<p>Where the exchanges part: ${difference.at.map((at) => `<code>${escape(at)}</code>`).join(', ')}</p>` : ''}
  <div class="sides"><div><p><strong>target</strong>: ${escape(difference.target.slice(0, 400))}</p>${difference.exchanges.target.map(exchangeHtml).join('')}</div>
  <div><p><strong>compare</strong>: ${escape(difference.compare.slice(0, 400))}</p>${difference.exchanges.compare.map(exchangeHtml).join('')}</div></div>
</section>`).join('\n')}`;
  }).join('\n');
  const counts = CLASSES.map((kind) => `${report.differences.filter((difference) => difference.class === kind).length} ${kind}`).join(', ');
  return `<h2>Differences from ${escape(report.compare.target)}</h2>
<p>The same rules and seed against <code>${escape(report.compare.target)}</code> (feature level ${escape(report.compare.feature_level)}): ${report.compare.summary.pass} pass, ${report.compare.summary.fail} fail, ${report.compare.summary.skip} skip, ${report.compare.summary.error} error. ${report.differences.length} difference(s): ${counts}. ${report.noise.rules_checked_again.length > 0 ? `The target was checked again on ${report.noise.rules_checked_again.length} rule(s): ${report.noise.differences_ignored} difference(s) it showed against itself are left out as noise.` : ''}</p>
${sections}`;
}

export function html(report: Report): string {
  const s = report.summary;
  const areas = [...new Set(report.rules.map((rule) => rule.id.split('.')[0]!))];
  const problems = report.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error');
  const row = (rule: RuleResult) => `<tr data-status="${rule.status}"><td class="status ${rule.status}">${rule.expected ? 'xfail' : rule.flaky ? 'flaky' : rule.status}</td><td>${rule.status === 'fail' || rule.status === 'error' ? `<a href="#${escape(rule.id)}">${idHtml(rule.id)}</a>` : idHtml(rule.id)}</td><td>${escape(rule.severity)}</td><td>${escape(rule.status === 'skip' ? rule.message : rule.title)} <a class="muted" href="${escape(annotatedLink(rule.id, true))}">spec</a></td><td class="muted">${rule.requests}</td></tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>teamchat-conformance: ${escape(report.target)}</title><style>${STYLE}</style></head>
<body>
<h1>teamchat-conformance report</h1>
<p>Target <code>${escape(report.target)}</code>${report.reference ? ` (the embedded reference, ${escape(report.reference.dialect)} dialect${report.reference.dialect_seed !== undefined ? ` of seed ${report.reference.dialect_seed}` : ''})` : ''}, feature level <strong>${escape(report.feature_level)}</strong> (${escape(report.zulip_version)}), seed <code>${report.seed}</code>, ${report.smoke ? 'each property\'s boundary cases' : `${counted(report.runs, 'random case')} per property besides its boundary cases`}${report.decisions ? ', with decisions' : ''}${report.smoke ? ', smoke' : ''}; ${counted(report.requests, 'request')} in ${(report.duration_ms / 1000).toFixed(1)} s; run prefix <code>${escape(report.run_prefix)}</code>.</p>
${'differences' in report ? differencesHtml(report as DifferentialReport) : ''}
<p class="totals" id="totals"><span class="pass">${s.pass} pass</span><span class="fail">${s.fail} fail</span><span class="skip">${s.skip} skip</span><span class="error">${s.error} error</span>${s.xfail ? `<span class="skip">${s.xfail} xfail</span>` : ''}</p>
<p class="filters">Show: ${['all', 'pass', 'fail', 'skip', 'error'].map((status) => `<button type="button" data-status="${status}" aria-pressed="${status === 'all'}">${status}</button>`).join('')}</p>
<h2>Failures and errors</h2>
${problems.length ? problems.map((rule) => failure(report, rule)).join('\n') : '<p>None.</p>'}
${areas.map((area) => `<section class="area"><h2>${escape(area)}</h2>
<table><thead><tr><th>status</th><th>rule</th><th>severity</th><th>rule, or why skipped</th><th>requests</th></tr></thead><tbody>
${report.rules.filter((rule) => rule.id.startsWith(`${area}.`)).map(row).join('\n')}
</tbody></table></section>`).join('\n')}
<h2>Cleanup</h2>
<p>Swept at the end: ${report.cleanup.swept.length ? `</p><ul>${report.cleanup.swept.map((what) => `<li>${escape(what)}</li>`).join('')}</ul>` : 'nothing was left.</p>'}
${report.cleanup.left?.length ? `<p>Left on the target (the API cannot delete them): ${escape(report.cleanup.left.join('; '))}.</p>\n` : ''}<p>Problems: ${report.cleanup.problems.length ? `</p><ul>${report.cleanup.problems.map((what) => `<li>${escape(what)}</li>`).join('')}</ul>` : 'none.</p>'}
<p class="muted">teamchat-conformance ${escape(report.suite_version)}, started ${escape(report.started_at)}. Configuration (credentials redacted): <code>${escape(JSON.stringify(report.config))}</code></p>
<script>${SCRIPT}</script>
</body></html>
`;
}
