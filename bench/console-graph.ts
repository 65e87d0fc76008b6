/**
 * The graph part of bench:console: a real graph memory of at least 10,000 entities, built through the
 * API (MuSiQue passages imported as one zip per batch with POST /files/import straight into a graph
 * memory, until GET /memories/get counts enough entities), then opened in the console in chromium, which
 * fetches it through GET /memories/graph/{id} in pages of 5,000 like any user's console. Measured in the
 * page: the console's own performance measures (fetch, first render, worker layout) and the time between
 * frames while the page is idle, while the view is dragged (one mousemove a frame, as a hand on a mouse
 * sends them, through sigma's own handlers), while it is zoomed with the wheel, while the layout runs, and
 * when an entity is found and selected.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildArchive, importDocs, type BulkDoc } from './ingest-bulk';
import { apiClient, type ApiClient } from './support/api';

const CORPUS = resolve(process.cwd(), '../shared/bench-data/hipporag/musique_train_corpus.json');
const FIRST_BATCH = 1000;
const NEXT_BATCH = 150;
const FRAMES = 180;
/** A gesture ends after FRAMES frames or this long, whichever comes first. */
const GESTURE_MS = 20_000;

export interface SeededGraph {
  memoryID: string;
  passages: number;
  entities: number;
  relations: number;
  seconds: number;
}

interface MemoryCounts {
  step: string;
  fileCount: number;
  entityCount: number;
  relationCount: number;
}

/** Imports MuSiQue passages into a new graph memory, batch after batch, until it holds `entities` entities. */
export async function seedGraph(url: string, apiKey: string, entities: number, log: (line: string) => void): Promise<SeededGraph> {
  const started = performance.now();
  const passages = (JSON.parse(readFileSync(CORPUS, 'utf8')) as Array<{ title: string; text: string }>).map(
    (p, i): BulkDoc => ({ _id: `passage-${i}`, title: p.title, text: p.text }),
  );
  const api = apiClient(url, apiKey);
  const memory = (await api.post('/memories/create', { name: 'bench-graph', memoryType: 'graph', ontology: 'culture' })).data as {
    id: string;
  };
  const run = {
    api,
    url,
    apiKey,
    s3Endpoint: '',
    path: 'archive' as const,
    folder: 'musique',
    timed: <T>(_: string, work: () => Promise<T>) => work(),
  };
  let sent = 0;
  let counts: MemoryCounts;
  do {
    const batch = passages.slice(sent, sent + (sent ? NEXT_BATCH : FIRST_BATCH));
    if (!batch.length) throw new Error(`the corpus (${passages.length} passages) gives fewer than ${entities} entities`);
    await importDocs(run, await buildArchive(run, batch), memory.id, false);
    sent += batch.length;
    counts = await ingested(api, memory.id, sent);
    log(`${sent} passages ingested: ${counts.entityCount} entities, ${counts.relationCount} relations`);
  } while (counts.entityCount < entities);
  return {
    memoryID: memory.id,
    passages: sent,
    entities: counts.entityCount,
    relations: counts.relationCount,
    seconds: (performance.now() - started) / 1000,
  };
}

async function ingested(api: ApiClient, memoryID: string, files: number): Promise<MemoryCounts> {
  for (;;) {
    const memory = (await api.get(`/memories/get/${memoryID}`)).data as MemoryCounts;
    if (memory.step === 'failed') throw new Error('ingestion failed');
    if (memory.step === 'ready' && memory.fileCount === files) return memory;
    await new Promise((done) => setTimeout(done, 500));
  }
}

interface Frames {
  median: number;
  p95: number;
  max: number;
  fps: number;
}

/**
 * Runs `gesture` in the page for `frames` animation frames or GESTURE_MS (one step a frame) and answers the times
 * between frames. Gestures: `idle`, `drag` (a mouse drag over sigma's mouse layer), `wheel` (zoom in,
 * then out, one wheel notch a frame).
 */
async function frameTimes(page: Page, gesture: 'idle' | 'drag' | 'wheel', frames = FRAMES): Promise<Frames> {
  const deltas = (await page.evaluate(`new Promise((done) => {
    const target = document.querySelector('.graph-canvas .sigma-mouse') || document.body;
    const box = target.getBoundingClientRect();
    const x0 = box.left + box.width / 2, y0 = box.top + box.height / 2;
    const mouse = (type, i) => target.dispatchEvent(new MouseEvent(type, {
      bubbles: true, cancelable: true, button: 0, buttons: type === 'mouseup' ? 0 : 1,
      clientX: x0 + 120 * Math.sin(i / 20), clientY: y0 + 80 * Math.cos(i / 25) - 80,
    }));
    const wheel = (i) => target.dispatchEvent(new WheelEvent('wheel', {
      bubbles: true, cancelable: true, deltaMode: 0, deltaY: i < ${frames} / 2 ? -60 : 60, clientX: x0, clientY: y0,
    }));
    const times = [];
    let i = 0;
    if (${JSON.stringify(gesture)} === 'drag') mouse('mousedown', 0);
    const frame = (now) => {
      times.push(now);
      if (${JSON.stringify(gesture)} === 'drag') mouse('mousemove', i);
      if (${JSON.stringify(gesture)} === 'wheel') wheel(i);
      if (++i <= ${frames} && now - times[0] < ${GESTURE_MS}) return requestAnimationFrame(frame);
      if (${JSON.stringify(gesture)} === 'drag') mouse('mouseup', i);
      done(times.slice(1).map((t, k) => t - times[k]));
    };
    requestAnimationFrame(frame);
  })`)) as number[];
  return stats(deltas);
}

function stats(deltas: number[]): Frames {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const total = deltas.reduce((sum, d) => sum + d, 0);
  return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? NaN, fps: (deltas.length * 1000) / total };
}

/** The console's own performance measures (see console/src/graph), by name, in ms. */
async function measures(page: Page): Promise<Record<string, { ms: number; detail: unknown }>> {
  return (await page.evaluate(
    `Object.fromEntries(performance.getEntriesByType('measure').map((m) => [m.name, { ms: m.duration, detail: m.detail }]))`,
  )) as Record<string, { ms: number; detail: unknown }>;
}

const row = (name: string, f: Frames) =>
  `| ${name} | ${f.median.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.max.toFixed(0)} | ${f.fps.toFixed(1)} |`;

/** Opens the seeded graph in the console and answers the report's graph tables. */
export async function graphTables(browser: Browser, url: string, apiKey: string, seeded: SeededGraph): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(`sessionStorage.setItem('kmem.apiKey', ${JSON.stringify(apiKey)})`);
  const page = await context.newPage();
  await page.goto(`${url}/console/#/memories`);
  await page.getByText('bench-graph').waitFor();
  const load = loadavg()[0] ?? NaN;
  const started = performance.now();
  await page.goto(`${url}/console/#/graph?memory=${seeded.memoryID}`);
  await page.locator('.graph-canvas .sigma-mouse').waitFor({ timeout: 120_000 });
  const shown = performance.now() - started;
  const duringLayout = await frameTimes(page, 'drag', 120);
  await page.getByRole('button', { name: 'Run layout' }).waitFor({ timeout: 120_000 });
  await page.waitForFunction(`performance.getEntriesByName('kmem.graph.layout-reprocess').length > 0`);
  const afterLayout = await measures(page);
  const idle = await frameTimes(page, 'idle');
  const drag = await frameTimes(page, 'drag');
  const wheel = await frameTimes(page, 'wheel');
  const name = await busiestEntity(url, apiKey, seeded.memoryID);
  await page.getByLabel('Find an entity', { exact: true }).fill(name);
  const [select] = await Promise.all([frameTimes(page, 'idle', 60), page.getByRole('button', { name: 'Find' }).click()]);
  await page.getByTestId('entity-name').waitFor();
  const status = await page.getByTestId('graph-status').textContent();
  await context.close();
  const layout = afterLayout['kmem.graph.layout'];
  const iterations = (layout?.detail as { iterations?: number } | undefined)?.iterations ?? NaN;
  return [
    `| graph view: ${status} (${seeded.passages} MuSiQue passages ingested through the API in ${seeded.seconds.toFixed(0)} s) | ms |`,
    '|---|---:|',
    `| fetch: GET /memories/graph/{id} pages of 5,000, graph built | ${afterLayout['kmem.graph.fetch']?.ms.toFixed(0)} |`,
    `| first render: sigma processes and draws the graph | ${afterLayout['kmem.graph.first-render']?.ms.toFixed(0)} |`,
    `| navigation to the graph drawn (as the bench saw it) | ${shown.toFixed(0)} |`,
    `| layout: ForceAtlas2 in the worker, ${iterations} iterations, positions applied | ${layout?.ms.toFixed(0)} |`,
    `| its one pause on the page: the new positions written and reprocessed by sigma | ${afterLayout['kmem.graph.layout-reprocess']?.ms.toFixed(0)} |`,
    '',
    `| frame times, 1280×800, load average ${load.toFixed(1)} when opened | median ms | p95 ms | max ms | frames/s |`,
    '|---|---:|---:|---:|---:|',
    row("idle (this machine's frame pace)", idle),
    row('dragging while the layout runs in its worker', duringLayout),
    row('dragging (pan)', drag),
    row('wheel zoom in, then out', wheel),
    row(`finding and selecting an entity (“${name}”)`, select),
  ];
}

/** The name of an entity with relations (the look-up the console's Find makes, through the API). */
async function busiestEntity(url: string, apiKey: string, memoryID: string): Promise<string> {
  const page = (await apiClient(url, apiKey).get(`/memories/graph/${memoryID}?limit=200`)) as {
    nodes: Array<{ name: string; mentions: number }>;
  };
  return [...page.nodes].sort((a, b) => b.mentions - a.mentions)[0]?.name ?? '';
}
