import { type Browser, chromium } from 'playwright-core';

/**
 * A headless Chromium for page tests: Debian's own build (.ci/run installs it), never a browser downloaded by
 * Playwright, which this machine's network cannot fetch. No sandbox (tests run as root in a container) and no
 * background network (nothing leaves the machine).
 */
export const CHROMIUM = '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-background-networking'],
  });
}

/** The widths the client page is checked at: a phone and a desktop. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
