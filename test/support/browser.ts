/**
 * A real browser for the console's tests: Debian's chromium driven by playwright-core (no browser is
 * downloaded). Missing chromium fails loudly with how to install it; nothing is skipped.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.KMEM_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the console's browser tests need Debian's chromium at ${CHROMIUM}: as root run  sh scripts/install-browser.sh  (apt-get install chromium)`,
    );
  }
  // SwiftShader gives headless chromium WebGL without a GPU (the graph view draws with WebGL).
  return chromium.launch({ executablePath: CHROMIUM, args: ['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--no-sandbox'] });
}
