/**
 * Headless Chromium for the report tests: the one @sparticuz/chromium ships inside its npm
 * package (so `npm ci` installs it), or Debian's /usr/bin/chromium when that one cannot start.
 */
import { existsSync } from 'node:fs';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

export async function launchBrowser(): Promise<Browser> {
  try {
    // Its defaults are made for one-shot lambdas: in --single-process mode closing a context kills
    // the browser, and a report must work with the browser's web security on, as people open it.
    const dropped = new Set([
      '--single-process',
      '--disable-web-security',
      '--allow-running-insecure-content',
    ]);
    const args = chromium.args.filter((a) => !dropped.has(a));
    return await playwright.launch({
      executablePath: await chromium.executablePath(),
      args: [...args, ...ARGS],
      headless: true,
    });
  } catch (error) {
    const fallback = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
    if (!fallback) throw error;
    return playwright.launch({ executablePath: fallback, args: ARGS, headless: true });
  }
}

export interface OpenedPage {
  page: Page;
  /** Every request for anything but a file: URL (all were aborted). */
  blocked: string[];
  consoleErrors: string[];
}

/** Opens a file:// URL with every non-file request aborted and recorded, and console errors collected. */
export async function openFile(browser: Browser, url: string): Promise<OpenedPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const blocked: string[] = [];
  const consoleErrors: string[] = [];
  await page.route('**', (route) => {
    const target = route.request().url();
    if (target.startsWith('file:')) return route.continue();
    blocked.push(target);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return { page, blocked, consoleErrors };
}
