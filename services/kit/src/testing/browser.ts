// `@tributary/kit/testing/browser`: Debian's Chromium driven by playwright-core for the browser tests, with the
// network cut to loopback and a record of what a page complained about. A separate entry point so that only browser
// tests load playwright-core.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Headless, and nothing of Chromium's own network traffic (updates, sync, safe browsing, QUIC probes). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** Launches Chromium; fails (never skips) with the install command when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM_PATH}: install it with \`apt-get update && apt-get install -y chromium\`.`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

const loopbackHosts = new Set(['localhost', '[::1]']);

export function isLoopbackUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return loopbackHosts.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Lets the context's requests reach loopback only: any other request is aborted and its URL added to the returned
 * list, so a test can assert that none was even attempted.
 */
export async function allowLoopbackOnly(context: BrowserContext): Promise<string[]> {
  const refused: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLoopbackUrl(url)) return route.continue();
    refused.push(url);
    return route.abort('blockedbyclient');
  });
  return refused;
}

export interface PageProblems {
  /** Console messages of type error (Chromium reports CSP violations there too). */
  consoleErrors: string[];
  /** Uncaught exceptions. */
  pageErrors: string[];
  /** `securitypolicyviolation` events: `<directive> <blocked URI or inline>`. */
  cspViolations: string[];
}

/** Starts recording a page's problems; call before navigating. */
export async function watchPage(page: Page): Promise<PageProblems> {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], cspViolations: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  await page.exposeFunction('__reportCspViolation', (violation: string) => problems.cspViolations.push(violation));
  // Init scripts are injected by the browser itself, so the page's own CSP does not apply to this listener.
  await page.addInitScript(() => {
    interface Violation { effectiveDirective: string; blockedURI: string }
    const window = globalThis as unknown as {
      __reportCspViolation(violation: string): void;
      addEventListener(type: 'securitypolicyviolation', listener: (event: Violation) => void): void;
    };
    window.addEventListener('securitypolicyviolation', (event) => window.__reportCspViolation(`${event.effectiveDirective} ${event.blockedURI || 'inline'}`));
  });
  return problems;
}
