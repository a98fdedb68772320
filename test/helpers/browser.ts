// The browser of the account area's tests: Debian's Chromium (`apt-get install -y chromium`, which
// .ci/run does) driven by playwright-core (which downloads no browser of its own), an axe-core
// accessibility check run inside the page, and the screenshots of docs/screenshots/.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { AxeResults, Result as AxeViolation } from 'axe-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = resolve('docs/screenshots');

const chromiumPresent = existsSync(CHROMIUM_PATH);

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPresent) {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: the browser tests need Debian's chromium package ` +
      '(.ci/run installs it: apt-get install -y chromium).');
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}

/**
 * A fresh context (its own cookies) at desktop width. bypassCSP: axe is injected as a script tag,
 * which a page's Content-Security-Policy would otherwise (rightly) refuse.
 */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, bypassCSP: true, viewport: DESKTOP, acceptDownloads: true });
  // Server-rendered pages on loopback answer in milliseconds: a missing element fails in seconds, not 30.
  context.setDefaultTimeout(8_000);
  return context;
}

const require = createRequire(import.meta.url);
const AXE_PATH = join(require.resolve('axe-core'), '..', 'axe.min.js');

/** What axe found at impact serious or critical on the page, one readable line (and its nodes) each. */
export async function axeViolations(page: Page): Promise<string[]> {
  const hasAxe = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!hasAxe) await page.addScriptTag({ path: AXE_PATH });
  const results = await page.evaluate(() => (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } })
    .axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] })) as AxeResults;
  return results.violations
    .filter((v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: AxeViolation) => `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
      v.nodes.slice(0, 5).map((n) => `    at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`).join('\n'));
}

/** Fails when axe (WCAG 2 A and AA, best practices) finds a serious or critical violation on the page. */
export async function axeCheck(page: Page): Promise<void> {
  const problems = await axeViolations(page);
  if (problems.length) {
    throw new Error(`axe found ${problems.length} serious or critical violation(s) on ${new URL(page.url()).pathname}:\n${problems.join('\n')}`);
  }
}

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Full-page screenshots `docs/screenshots/<name>-phone.png` (390×844) and `<name>-desktop.png` (1280×800). */
export async function screenshot(page: Page, name: string): Promise<string[]> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const before = page.viewportSize();
  const written: string[] = [];
  for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    await page.setViewportSize(size);
    const path = join(SCREENSHOT_DIR, `${name}-${label}.png`);
    await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide' });
    written.push(path);
  }
  if (before) await page.setViewportSize(before);
  return written;
}
