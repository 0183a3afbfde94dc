import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/**
 * A headless Chromium for page tests, from npm: `@sparticuz/chromium` carries a headless Chromium build compressed in
 * its package (147.0.0, the last that runs on Node 20), unpacked on first use into the temporary folder (a few seconds)
 * and kept there for later runs. Never a browser downloaded by Playwright, nor the operating system's: every machine runs
 * the same build with the same fonts (Open Sans from that package, DejaVu from the project's own dependency), so page
 * layout is measured alike everywhere. It needs only the NSS, NSPR and expat libraries any desktop Linux has.
 *
 * No sandbox (tests run as root in a container) and no background network (nothing leaves the machine). The package's
 * own flag list is not used: it runs the browser as one process (closing a context would kill it) and turns off web
 * security, which the page tests rely on.
 */
const require = createRequire(import.meta.url);

/** The unpacked browser and the fontconfig file naming its fonts, unpacked once per package version. */
function unpacked(): { executable: string; fontsConf: string } {
  const entry = require.resolve('@sparticuz/chromium');
  const pkg = join(dirname(entry), '..', '..');
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const home = join(tmpdir(), `studio-chromium-${version}`);
  const found = { executable: join(home, 'chromium'), fontsConf: join(home, 'fonts.conf') };
  if (existsSync(found.fontsConf)) return found;
  // Unpacked aside and renamed into place, so a test file starting at the same time never sees half a browser. The
  // package unpacks into the temporary folder its process is given.
  const staging = mkdtempSync(`${home}.`);
  try {
    execFileSync(process.execPath, ['-e', `require(${JSON.stringify(entry)}).executablePath()`], {
      env: { ...process.env, TMPDIR: staging },
      stdio: 'pipe',
    });
    const dejavu = dirname(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
    writeFileSync(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(home, 'fonts')}</dir>\n  <dir>${dejavu}</dir>\n  <cachedir>${join(home, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, home);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    // Another test file unpacked it first: use that one.
    if (!existsSync(found.fontsConf)) throw err;
  }
  return found;
}

export function launchBrowser(): Promise<Browser> {
  const { executable, fontsConf } = unpacked();
  return chromium.launch({
    executablePath: executable,
    args: ['--headless', '--no-sandbox', '--no-zygote', '--disable-background-networking'],
    env: { ...process.env, FONTCONFIG_FILE: fontsConf },
  });
}

/** The widths the client page is checked at: a phone and a desktop. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
