/**
 * Console benchmark: the console's size (gzipped, as served compressed) and its first-screen time in a
 * real browser (Debian's chromium) against the local runtime, plus the graph view with 10,000 nodes.
 *
 *   npm run bench:console [-- --runs 5]
 *
 * First screen: a fresh browser context (empty cache) opens /console/ until the sign-in form is shown,
 * and, with a key already in the tab, until the Memories screen has its list. The graph row feeds the
 * graph view a synthetic 10,000-node, 20,000-edge graph (two pages of 5,000, answered by the bench in
 * place of GET /memories/graph/{id}) and counts the frames the page draws while ForceAtlas2 runs in its
 * worker and while the camera moves.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { createAccount } from '../functions/core/use-cases/accounts';
import { startRuntime } from '../functions/local/runtime';
import { CONSOLE_DIST, ensureConsoleBuilt } from '../lib/console-build';
import { launchBrowser } from '../test/support/browser';
import { machineFacts } from './support/report';

const SIZE_BUDGET_KB = 200;
const FIRST_SCREEN_TARGET_MS = 1000;
const GRAPH_NODES = 10_000;

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
  const lazy = rows.filter((r) => /^assets\/graph-/.test(r.name)).reduce((sum, r) => sum + r.gzip, 0);
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

/** A graph of `count` entities in 8 types with two edges each, as the graph endpoint pages it. */
function syntheticGraph(count: number) {
  const types = ['person', 'organization', 'place', 'concept', 'event', 'work', 'product', 'entity'];
  const nodes = Array.from({ length: count }, (_, i) => ({
    id: `n${i}`, name: `Entity ${i}`, type: types[i % types.length] as string, aliases: [], mentions: 1 + (i % 17), support: 1,
  }));
  const edges = nodes.flatMap((_, i) => [1, 7].map((step) => ({
    id: `e${i}-${step}`, source: `n${i}`, target: `n${(i * 31 + step) % count}`, predicate: 'related to', kind: 'relation', weight: 1, support: 1,
  })));
  return { nodes, edges };
}

async function countFrames(page: Page, ms: number): Promise<number> {
  const frames = await page.evaluate(`new Promise((done) => {
    let n = 0; const end = performance.now() + ${ms};
    const tick = () => { n++; if (performance.now() < end) requestAnimationFrame(tick); else done(n); };
    requestAnimationFrame(tick);
  })`);
  return (Number(frames) * 1000) / ms;
}

async function graphRow(browser: Browser, url: string, apiKey: string): Promise<string[]> {
  const memory = await fetch(`${url}/memories/create`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-graph', memoryType: 'graph', ontology: 'essays' }),
  }).then((r) => r.json() as Promise<{ data: { id: string } }>);
  const graph = syntheticGraph(GRAPH_NODES);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(`sessionStorage.setItem('kmem.apiKey', ${JSON.stringify(apiKey)})`);
  const page = await context.newPage();
  await page.route('**/memories/graph/**', (route) => {
    const second = new URL(route.request().url()).searchParams.get('nextToken') === 'page2';
    const nodes = second ? graph.nodes.slice(5000) : graph.nodes.slice(0, 5000);
    const ids = new Set(nodes.map((n) => n.id));
    const edges = graph.edges.filter((e) => ids.has(e.source));
    return route.fulfill({ json: { status: 'success', nodes, edges, count: nodes.length, nextToken: second ? null : 'page2', previousToken: null } });
  });
  await page.goto(`${url}/console/#/memories`);
  await page.getByText('bench-graph').waitFor();
  const baseline = await countFrames(page, 2000);
  const started = performance.now();
  await page.goto(`${url}/console/#/graph?memory=${memory.data.id}`);
  await page.getByTestId('graph-status').filter({ hasText: '10,000 entities' }).waitFor({ timeout: 60_000 });
  await page.locator('.graph-canvas canvas').first().waitFor();
  const shown = performance.now() - started;
  const duringLayout = await countFrames(page, 3000);
  await page.getByRole('button', { name: 'Stop layout' }).click();
  const box = await page.locator('.graph-canvas').boundingBox();
  const drag = (async () => {
    if (!box) return;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 0; i < 60; i++) await page.mouse.move(box.x + box.width / 2 + i * 3, box.y + box.height / 2 + i * 2);
    await page.mouse.up();
  })();
  const duringPan = await countFrames(page, 2000);
  await drag;

  await context.close();
  return [
    '| graph view, 10,000 nodes / 20,000 edges (synthetic, served by the bench) | value |',
    '|---|---:|',
    `| frames per second on the Memories screen (no graph: this machine's ceiling) | ${baseline.toFixed(1)} |`,
    `| navigation to the graph drawn (2 pages of 5,000) | ${shown.toFixed(0)} ms |`,
    `| frames per second while ForceAtlas2 runs (worker) | ${duringLayout.toFixed(1)} |`,
    `| frames per second while the camera pans | ${duringPan.toFixed(1)} |`,
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = Math.max(1, Number(values.runs));
  ensureConsoleBuilt((line) => console.error(`[bench] ${line}`));
  const dataDir = mkdtempSync(join(tmpdir(), 'kmem-bench-console-'));
  const runtime = await startRuntime({ settings: { KMEM_DATA_DIR: dataDir, KMEM_PORT: '0', KMEM_ACCESS_LOG: 'false' } });
  const browser = await launchBrowser();
  try {
    const { apiKey } = await createAccount(runtime.deps, 'bench-console');
    await timeFirstScreen(browser, runtime.url, undefined); // the runtime's first request warms its handlers
    const signIn: number[] = [];
    const signedIn: number[] = [];
    for (let i = 0; i < runs; i++) {
      signIn.push(await timeFirstScreen(browser, runtime.url, undefined));
      signedIn.push(await timeFirstScreen(browser, runtime.url, apiKey));
    }
    const verdict = (ms: number) => (ms < FIRST_SCREEN_TARGET_MS ? 'met' : 'MISSED');
    const lines = [
      '## Console benchmark',
      '',
      ...machineFacts(),
      `- browser: ${browser.version()} (Debian chromium, headless, SwiftShader WebGL: drawn by the CPU)`,
      `- load average at the end (1 min): ${loadavg()[0]?.toFixed(1)} on ${cpus().length} CPUs`,
      '',
      ...sizeTable(),
      '',
      `| first screen (cold cache, median of ${runs}) | ms | target < ${FIRST_SCREEN_TARGET_MS} ms |`,
      '|---|---:|---|',
      `| sign-in form shown | ${median(signIn).toFixed(0)} | ${verdict(median(signIn))} |`,
      `| signed in: Memories screen with its list | ${median(signedIn).toFixed(0)} | ${verdict(median(signedIn))} |`,
      '',
      ...(await graphRow(browser, runtime.url, apiKey)),
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
