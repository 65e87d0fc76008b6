/**
 * A real browser for the console's tests: Debian's chromium driven by playwright-core (no browser is
 * downloaded). Missing chromium fails loudly with how to install it, in CI and for root (who can install
 * it: npm test does). Only a user who cannot install it, outside CI, has the browser tests skipped, with a
 * warning saying why, so that npm test still works as a user who is not root.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.KMEM_CHROMIUM ?? '/usr/bin/chromium';

const INSTALL_HINT = `as root run  sh scripts/install-browser.sh  (apt-get install chromium)`;

/** True when the browser tests cannot run here and nobody expects them to: no chromium, not CI, not root. */
export const browserUnavailableToThisUser = !existsSync(CHROMIUM) && !process.env.CI && process.getuid?.() !== 0;
if (browserUnavailableToThisUser) {
  console.warn(`[kmem] skipping the console's browser tests: no chromium at ${CHROMIUM}; ${INSTALL_HINT}`);
}

/**
 * SwiftShader gives headless chromium WebGL without a GPU (the graph view draws with WebGL). The page is
 * composited in software, as chromium does on a machine without a GPU: compositing through SwiftShader too
 * (what `--use-angle=swiftshader` alone gives) makes every frame of a page that redraws a WebGL canvas far
 * slower, however little it draws (`npm run bench:console -- --gpu-compositing` measures that path).
 */
export const BROWSER_ARGS = ['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--disable-gpu-compositing', '--no-sandbox'];

export async function launchBrowser(args: string[] = BROWSER_ARGS): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the console's browser tests need Debian's chromium at ${CHROMIUM}: ${INSTALL_HINT}`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args });
}
