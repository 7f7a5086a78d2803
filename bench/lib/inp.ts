/**
 * Interaction to Next Paint on the home page (issue 27 point 1): opening a model card and typing in the search box, in
 * Chromium (Playwright), with the CPU throttled 4× through the DevTools protocol (a mid-range phone's pace) and without
 * throttling for the ratio. The page is the server-rendered home of the built app, taken over by the app
 * (`html[data-app=ready]`) before the interaction, as a visitor who reads before tapping meets it. Each interaction's
 * figure is the longest Event Timing entry of that interaction (input delay + handlers + the next paint), as the
 * web-vitals library computes INP; BENCH_INP_RUNS (5) fresh pages per case, median and worst reported.
 *
 * `npm run bench -- --only inp` writes its section of docs/benchmarks.md; the full run includes it unless
 * BENCH_SKIP_INP=1. Environment: BENCH_DIST_DIR (dist/), BENCH_INP_PORT (8197), BENCH_INP_BEFORE_DIST with
 * BENCH_INP_BEFORE_LABEL (another build measured in the same run, its runs alternating with this one's), CHROME_PATH.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { developmentEnv, startAppServer } from './app-server.ts';
import { summarize } from './stats.ts';

export const INP_START = '<!-- inp:start -->';
export const INP_END = '<!-- inp:end -->';

interface CaseResult {
  label: string;
  build: string;
  throttle: number;
  runs: number[];
}

export interface InpReport {
  chromium: string;
  cpu: string;
  cases: CaseResult[];
}

declare global {
  interface Window {
    __inp?: Map<number, number>;
  }
}

/** Records, per interaction, its longest Event Timing entry. */
async function observeInteractions(page: Page) {
  await page.evaluate(() => {
    window.__inp = new Map();
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEventTiming[]) {
        if (!e.interactionId) continue;
        window.__inp!.set(e.interactionId, Math.max(window.__inp!.get(e.interactionId) ?? 0, e.duration));
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
}

const worstInteraction = (page: Page) => page.evaluate(() => Math.max(0, ...(window.__inp?.values() ?? [])));

async function measure(origin: string, throttle: number, act: (page: Page) => Promise<void>): Promise<number> {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, locale: 'es-ES' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(`${origin}/es`, { waitUntil: 'load' });
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached', timeout: 60_000 });
    // The page has settled (hydration, the service worker's registration at the first idle moment) before the visitor acts.
    await page.waitForTimeout(2000);
    await observeInteractions(page);
    await act(page);
    // The last interaction's paint is reported once it has happened.
    await page.waitForTimeout(1000);
    return await worstInteraction(page);
  } finally {
    await browser.close();
  }
}

const openCard = async (page: Page) => {
  await page.getByTestId('model-card').first().click();
  await page.waitForURL(/\/es\/models\/\d+/, { timeout: 30_000 });
  await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 30_000 });
};

const typeSearch = async (page: Page) => {
  const box = page.getByRole('searchbox').first();
  await box.click();
  await box.pressSequentially('lucía', { delay: 150 });
};

export async function benchInp(root: string, log: (msg: string) => void): Promise<InpReport> {
  const dist = path.resolve(root, process.env.BENCH_DIST_DIR ?? 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`inp: no build in ${dist} (run npm run build first)`);
  const env = developmentEnv();
  const builds = [{ label: 'this build', dist }];
  if (process.env.BENCH_INP_BEFORE_DIST)
    builds.unshift({ label: process.env.BENCH_INP_BEFORE_LABEL ?? 'before', dist: path.resolve(process.env.BENCH_INP_BEFORE_DIST) });
  const port = Number(process.env.BENCH_INP_PORT ?? 8197);
  const servers = await Promise.all(builds.map((b, i) => startAppServer(root, b.dist, port + i, env)));
  const runs = Number(process.env.BENCH_INP_RUNS ?? 5);
  const cases: CaseResult[] = [];
  try {
    for (const throttle of [4, 1]) {
      for (const [label, act] of [
        ['Open a model card (tap on the home listing)', openCard],
        ['Type in the search box (5 keys, 150 ms apart)', typeSearch],
      ] as const) {
        const results = builds.map((b) => ({ label, build: b.label, throttle, runs: [] as number[] }));
        for (let i = 0; i < runs; i++) {
          for (const [b, server] of servers.entries()) {
            const inp = await measure(server.origin, throttle, act);
            log(`inp: ${label}, ${builds[b]!.label}, CPU ×${throttle}: ${Math.round(inp)} ms`);
            results[b]!.runs.push(inp);
          }
        }
        cases.push(...results);
      }
    }
    const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    const version = browser.version();
    await browser.close();
    return { chromium: version, cpu: `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}`, cases };
  } finally {
    for (const server of servers) server.stop();
  }
}

export function renderInpSection(report: InpReport): string {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    INP_START,
    '',
    '## Interaction to Next Paint: opening a card, typing a search',
    '',
    `Written by \`npm run bench -- --only inp\` (bench/lib/inp.ts) — ${when} UTC. Chromium ${report.chromium} (Playwright), ${report.cpu},`,
    'a 412 × 823 touch phone viewport, the server-rendered home of the built app taken over by the app, the CPU throttled',
    'through the DevTools protocol. Per interaction, its longest Event Timing entry (input delay, handlers, next paint), as',
    'web-vitals computes INP; each run a fresh page. Target (web.dev "good"): ≤ 200 ms.',
    '',
    '| Interaction | Build | CPU | Median | Worst | Runs (ms) | Median ÷ unthrottled |',
    '| --- | --- | --: | --: | --: | --- | --: |',
  ];
  for (const c of report.cases) {
    const s = summarize(c.runs);
    const base = report.cases.find((o) => o.label === c.label && o.build === c.build && o.throttle === 1);
    const ratio = base && c.throttle !== 1 ? `${(s.p50 / Math.max(1, summarize(base.runs).p50)).toFixed(1)}×` : '—';
    lines.push(
      `| ${c.label} | ${c.build} | ×${c.throttle} | ${Math.round(s.p50)} ms | ${Math.round(Math.max(...c.runs))} ms | ${c.runs.map((r) => Math.round(r)).join(', ')} | ${ratio} |`,
    );
  }
  lines.push('', INP_END);
  return lines.join('\n');
}

export function spliceInpSection(existing: string, section: string): string {
  const a = existing.indexOf(INP_START);
  const b = existing.indexOf(INP_END);
  if (a >= 0 && b > a) return existing.slice(0, a) + section + existing.slice(b + INP_END.length);
  // First time: after the Lighthouse section.
  const at = existing.indexOf('<!-- realtime:start -->');
  return at >= 0 ? `${existing.slice(0, at)}${section}\n\n${existing.slice(at)}` : `${existing}\n${section}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  const report = await benchInp(root, (m) => console.error(m));
  console.log(renderInpSection(report));
}
