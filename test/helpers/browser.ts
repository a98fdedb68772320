// The browser of the account area's and the workbench's tests: Debian's Chromium headless shell
// (`apt-get install -y chromium-headless-shell`, which .ci/run does; else the full chromium) driven
// by playwright-core (which downloads no browser of its own), an axe-core accessibility check run inside the page, and the screenshots of docs/screenshots/.
//
// Pages run under the headers they are really served with: no context bypasses their CSP. Every
// context from `newContext` is watched: a CSP violation (the page's `securitypolicyviolation` event
// or Chromium's console report) and a failed subresource of the service's own pages are recorded,
// and `failOnPageProblems()` (an afterEach of each browser suite) fails the test that caused them.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterEach } from 'vitest';
import { CHROMIUM_PATH } from './legCatalog.js';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { AxeResults, Result as AxeViolation } from 'axe-core';

export const SCREENSHOT_DIR = resolve('docs/screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM_PATH) {
    throw new Error(
      "Chromium is missing: the browser tests need Debian's chromium-headless-shell (or chromium) package " +
        '(.ci/run installs it: apt-get install -y chromium-headless-shell).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}

/** What went wrong on the service's pages since the last check: CSP violations and failed subresources. */
const problems: string[] = [];

/** Whether a request's failure is the browser's own doing (a media element dropping a range it no longer needs). */
const browserCancelled = (failure: string | undefined) => /ERR_ABORTED|ERR_CACHE_MISS/.test(failure ?? '');

/**
 * Watches a context for what users would meet and a test could miss: CSP violations and failed
 * subresources (scripts, styles, images, media, fetches) of the service's origin. Documents are
 * not counted: a refusal page with its 4xx status is something tests open on purpose.
 */
async function watch(context: BrowserContext, origin: string): Promise<void> {
  await context.exposeBinding('__reportCspViolation', ({ page }, violation: string) => {
    problems.push(`CSP violation on ${page.url()}: ${violation}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation(
        `${e.effectiveDirective} refused ${e.blockedURI || '(inline)'} (${e.sourceFile ?? ''}:${e.lineNumber})`,
      );
    });
  });
  const own = (url: string) => url.startsWith(`${origin}/`);
  context.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) problems.push(`console on ${message.page()?.url()}: ${message.text()}`);
  });
  context.on('requestfailed', (request) => {
    if (own(request.url()) && request.resourceType() !== 'document' && !browserCancelled(request.failure()?.errorText)) {
      problems.push(`${request.resourceType()} ${request.url()} failed: ${request.failure()?.errorText}`);
    }
  });
  context.on('response', (response) => {
    const request = response.request();
    if (own(response.url()) && request.resourceType() !== 'document' && response.status() >= 400) {
      problems.push(`${request.resourceType()} ${response.url()} answered ${response.status()}`);
    }
  });
}

/**
 * A fresh context (its own cookies) at desktop width, under the pages' real headers, watched for
 * CSP violations and failed subresources.
 */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, acceptDownloads: true });
  // Server-rendered pages on loopback answer in milliseconds: a missing element fails in seconds, not 30.
  context.setDefaultTimeout(8_000);
  await watch(context, new URL(baseURL).origin);
  return context;
}

/** What the watched contexts recorded since the last call (and forgets it). */
export function takePageProblems(): string[] {
  return problems.splice(0);
}

/** Registers an afterEach in the calling suite: a test fails when its pages had a CSP violation or a failed subresource. */
export function failOnPageProblems(): void {
  afterEach(() => {
    const found = takePageProblems();
    if (found.length) throw new Error(`the pages met ${found.length} problem(s) a user would:\n  ${found.join('\n  ')}`);
  });
}

const require = createRequire(import.meta.url);
/** axe's source, evaluated in the page by the DevTools protocol: no script tag, so the page's CSP stays whole. */
const AXE_SOURCE = readFileSync(join(require.resolve('axe-core'), '..', 'axe.min.js'), 'utf8');

/** What axe found at impact serious or critical on the page, one readable line (and its nodes) each. */
export async function axeViolations(page: Page): Promise<string[]> {
  const hasAxe = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!hasAxe) await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, {
      runOnly: ['wcag2a', 'wcag2aa', 'best-practice'],
    }),
  )) as AxeResults;
  return results.violations
    .filter((v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v: AxeViolation) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`)
          .join('\n'),
    );
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
  for (const [label, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    const path = join(SCREENSHOT_DIR, `${name}-${label}.png`);
    await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide' });
    written.push(path);
  }
  if (before) await page.setViewportSize(before);
  return written;
}
