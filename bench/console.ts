/**
 * Console benchmark: the console's size (gzipped, as served compressed) and its first-screen time in a
 * real browser (Debian's chromium) against the local runtime, plus the graph view with 10,000 nodes.
 *
 *   npm run bench:console [-- --runs 5]
 *
 * First screen: a fresh browser context (empty cache) opens /console/ until the sign-in form is shown,
 * and, with a key already in the tab, until the Memories screen has its list. Then the graph view with a
 * real graph memory of at least 10,000 entities built through the API (bench/console-graph.ts): fetch,
 * first render and layout times, and frame times while the view is dragged and zoomed.
 *
 *   npm run bench:console -- --graph-entities 10000   (the entities to ingest; 0 skips the graph)
 *   npm run bench:console -- --gpu-compositing        (the page composited through SwiftShader too)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { createAccount } from '../functions/core/use-cases/accounts';
import { startRuntime } from '../functions/local/runtime';
import { CONSOLE_DIST, ensureConsoleBuilt } from '../lib/console-build';
import { BROWSER_ARGS, launchBrowser } from '../test/support/browser';
import { graphTables, seedGraph } from './console-graph';
import { machineFacts } from './support/report';

const SIZE_BUDGET_KB = 200;
const FIRST_SCREEN_TARGET_MS = 1000;

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

function sizeTable(): string[] {
  const rows = files(CONSOLE_DIST).map((path) => {
    const body = readFileSync(path);
    return { name: relative(CONSOLE_DIST, path), bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  const lazy = rows.filter((r) => /^assets\/(graph|layout-worker)-/.test(r.name)).reduce((sum, r) => sum + r.gzip, 0);
  return [
    '| file | bytes | gzipped KB |',
    '|---|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.bytes} | ${kb(r.gzip)} |`),
    `| **first screen (all but the graph chunk)** | | **${kb(total - lazy)}** |`,
    `| **whole console** | | **${kb(total)}** (budget ${SIZE_BUDGET_KB} KB: ${total / 1024 <= SIZE_BUDGET_KB ? 'met' : 'MISSED'}) |`,
  ];
}

async function timeFirstScreen(browser: Browser, url: string, apiKey: string | undefined): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (apiKey) await context.addInitScript(`sessionStorage.setItem('kmem.apiKey', ${JSON.stringify(apiKey)})`);
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(`${url}/console/`);
  await (apiKey ? page.getByText('No memories yet') : page.getByLabel('API key', { exact: true })).waitFor();
  const ms = performance.now() - started;
  await context.close();
  return ms;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      'graph-entities': { type: 'string', default: '10000' },
      'gpu-compositing': { type: 'boolean', default: false },
    },
  });
  const runs = Math.max(1, Number(values.runs));
  const entities = Number(values['graph-entities']);
  ensureConsoleBuilt((line) => console.error(`[bench] ${line}`));
  const dataDir = mkdtempSync(join(tmpdir(), 'kmem-bench-console-'));
  const runtime = await startRuntime({
    settings: { KMEM_DATA_DIR: dataDir, KMEM_PORT: '0', KMEM_ACCESS_LOG: 'false', KMEM_DEFAULT_TOKEN_LIMIT: '100000000' },
  });
  const args = values['gpu-compositing'] ? BROWSER_ARGS.filter((arg) => arg !== '--disable-gpu-compositing') : BROWSER_ARGS;
  const browser = await launchBrowser(args);
  try {
    const { apiKey } = await createAccount(runtime.deps, 'bench-console');
    await timeFirstScreen(browser, runtime.url, undefined); // the runtime's first request warms its handlers
    const signIn: number[] = [];
    const signedIn: number[] = [];
    for (let i = 0; i < runs; i++) {
      signIn.push(await timeFirstScreen(browser, runtime.url, undefined));
      signedIn.push(await timeFirstScreen(browser, runtime.url, apiKey));
    }
    const seeded = entities > 0 ? await seedGraph(runtime.url, apiKey, entities, (line) => console.error(`[bench] ${line}`)) : undefined;
    const verdict = (ms: number) => (ms < FIRST_SCREEN_TARGET_MS ? 'met' : 'MISSED');
    const lines = [
      '## Console benchmark',
      '',
      ...machineFacts(),
      `- browser: ${browser.version()} (Debian chromium, headless, no GPU: WebGL drawn by SwiftShader on the CPU), flags: ${args.join(' ')}`,
      `- load average at the end (1 min): ${loadavg()[0]?.toFixed(1)} on ${cpus().length} CPUs`,
      '',
      ...sizeTable(),
      '',
      `| first screen (cold cache, median of ${runs}) | ms | target < ${FIRST_SCREEN_TARGET_MS} ms |`,
      '|---|---:|---|',
      `| sign-in form shown | ${median(signIn).toFixed(0)} | ${verdict(median(signIn))} |`,
      `| signed in: Memories screen with its list | ${median(signedIn).toFixed(0)} | ${verdict(median(signedIn))} |`,
      '',
      ...(seeded ? await graphTables(browser, runtime.url, apiKey, seeded) : []),
    ];
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
