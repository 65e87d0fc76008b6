/**
 * Soak: twenty hostile files of every kind uploaded at once beside honest ones, to a runtime of its own
 * (`npm start`'s entry, bundled, in a child process, so the client's work here is not the server's), while a client
 * reads /healthz and a user every 100 ms. No request may take over a second, the service
 * stays up, every hostile file ends `failed` with its reason and every honest file `ready`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDocx } from '../extract/support/office';
import { buildTextPdf } from '../extract/support/pdf';
import {
  deepHtml,
  giantPagePdf,
  type HostileFile,
  largeHtml,
  longToneOpus,
  manyPagePdf,
  pixelBombPng,
  zipBombDocx,
} from '../support/hostile-files';
import { bundleEntry } from '../support/kmem-cli-bundle';
import { startProbe } from '../support/probe';

const KEY = 'kmem_soak_test_key_0123456789abcdef';
const utf8 = (text: string) => new TextEncoder().encode(text);
let child: ChildProcess;
let dataDir: string;
let entry: string | undefined;
const runtime = { url: '' };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kmem-soak-'));
  const env = {
    ...process.env,
    KMEM_DATA_DIR: dataDir,
    KMEM_PORT: '0',
    KMEM_API_KEY: KEY,
    KMEM_EXTRACT_MAX_MEDIA_MINUTES: '1',
    KMEM_EXTRACT_MAX_MEGAPIXELS: '2',
  };
  // `npm start`'s entry bundled (as the operator command is for the run): a plain node process loads it in
  // about half the CPU that tsx takes to compile and load its modules (2.3 against 4.6 s, load 25 to 29, 11-28)
  entry = await bundleEntry('local.ts');
  child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  runtime.url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const url = seen.match(/kmem API listening on (http:\S+)/)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`the runtime exited (${code}): ${seen}`)));
  });
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  rmSync(dataDir, { recursive: true, force: true });
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
}, 30_000);

async function hostileFiles(): Promise<HostileFile[]> {
  const bomb = zipBombDocx(40);
  const pages = manyPagePdf(2_500);
  const tone = await longToneOpus(75);
  const png = pixelBombPng(15_000);
  const large = utf8(largeHtml(6));
  const deep = utf8(deepHtml(5_000));
  const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  const kinds: Array<Omit<HostileFile, 'name'> & { count: number; extension: string }> = [
    { label: 'ZIP bomb', count: 4, extension: 'docx', bytes: bomb, fileType: 'document', contentType: docx, reason: /ZIP bomb/ },
    {
      label: 'PDF pages',
      count: 3,
      extension: 'pdf',
      bytes: pages,
      fileType: 'document',
      contentType: 'application/pdf',
      reason: /2,500 pages, more than/,
    },
    {
      label: 'giant page',
      count: 2,
      extension: 'pdf',
      bytes: giantPagePdf(15_000),
      fileType: 'document',
      contentType: 'application/pdf',
      reason: /no text/,
    },
    {
      label: 'pixel bomb',
      count: 3,
      extension: 'png',
      bytes: png,
      fileType: 'image',
      contentType: 'image/png',
      reason: /megapixels that can be read safely/,
    },
    {
      label: 'long audio',
      count: 2,
      extension: 'ogg',
      bytes: tone,
      fileType: 'audio',
      contentType: 'audio/ogg',
      reason: /lasts more than a minute/,
    },
    {
      label: 'large HTML',
      count: 3,
      extension: 'html',
      bytes: large,
      fileType: 'document',
      contentType: 'text/html',
      reason: /HTML page is 6 MB/,
    },
    {
      label: 'deep HTML',
      count: 3,
      extension: 'html',
      bytes: deep,
      fileType: 'document',
      contentType: 'text/html',
      reason: /nests its elements 5001 deep/,
    },
  ];
  return kinds.flatMap(({ count, extension, ...kind }) =>
    Array.from({ length: count }, (_, i) => ({ ...kind, name: `hostile-${kind.label.replace(' ', '-')}-${i}.${extension}` })),
  );
}

function honestFiles(): Array<Omit<HostileFile, 'reason' | 'label'>> {
  return [
    { name: 'notes.txt', bytes: utf8('The lighthouse keeper logs the tides every morning.'), fileType: 'text', contentType: 'text/plain' },
    {
      name: 'brief.docx',
      bytes: buildDocx(['The orchard ships apples in October.']),
      fileType: 'document',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    },
    {
      name: 'report.pdf',
      bytes: buildTextPdf([['Quarterly revenue grew by 12 percent.']]),
      fileType: 'document',
      contentType: 'application/pdf',
    },
    {
      name: 'page.html',
      bytes: utf8('<html><head><title>Ferry</title></head><body><p>The ferry leaves at noon.</p></body></html>'),
      fileType: 'document',
      contentType: 'text/html',
    },
  ];
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, any> }> {
  const headers: Record<string, string> = { 'X-API-Key': KEY };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${runtime.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, data: ((await response.json()) as { data: Record<string, any> }).data };
}

async function submit(file: Omit<HostileFile, 'reason' | 'label'>): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([file.bytes], { type: file.contentType }), file.name);
  const uploaded = await fetch(`${runtime.url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': KEY }, body: form });
  const key = ((await uploaded.json()) as { data: { key: string } }).data.key;
  const created = await api('POST', '/files/create', { name: file.name, key, fileType: file.fileType });
  expect(created.status, file.name).toBe(200);
  return created.data.id as string;
}

/**
 * The files as they settle (ready or failed), by id: one listing a round (every file's state and error, this
 * runtime holds only these), not a request per file, which made the poll itself a load beside the probe's.
 */
async function settled(ids: string[], deadline: number): Promise<Map<string, Record<string, any>>> {
  const done = new Map<string, Record<string, any>>();
  while (done.size < ids.length && Date.now() < deadline) {
    const listed = await fetch(`${runtime.url}/files/list?limit=100`, { headers: { 'X-API-Key': KEY } });
    const { files, nextToken } = (await listed.json()) as { files: Array<Record<string, any>>; nextToken: string | null };
    expect(nextToken, 'every file on one page').toBeNull();
    for (const file of files) if (ids.includes(file.id) && (file.state === 'ready' || file.state === 'failed')) done.set(file.id, file);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return done;
}

it('keeps answering within a second while twenty hostile files fail with their reasons and honest ones succeed', async () => {
  const hostile = await hostileFiles();
  expect(hostile).toHaveLength(20);
  const user = await api('POST', '/users/create', {
    firstName: 'Soak',
    lastName: 'Reader',
    email: 'soak@example.com',
    phone: '+1 555 0101',
  });
  const probe = startProbe(runtime.url, ['/healthz', `/users/get/${user.data.id}`], KEY);
  let readings: Awaited<ReturnType<typeof probe.stop>> = [];
  let files: Map<string, Record<string, any>>;
  const hostileIds: string[] = [];
  const honestIds: string[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // readings of the idle service first
    const honest = honestFiles();
    const ids = await Promise.all([...hostile, ...honest].map(submit));
    hostileIds.push(...ids.slice(0, hostile.length));
    honestIds.push(...ids.slice(hostile.length));
    files = await settled(ids, Date.now() + 75_000);
  } finally {
    readings = await probe.stop();
  }
  hostile.forEach((file, i) => {
    const got = files.get(hostileIds[i] ?? '');
    expect(got?.state, `${file.name}: ${got?.state} ${got?.error}`).toBe('failed');
    expect(got?.error, file.name).toMatch(file.reason);
  });
  for (const id of honestIds) expect(files.get(id)?.state, `${id}: ${files.get(id)?.error}`).toBe('ready');
  expect(readings.length).toBeGreaterThan(50);
  const slow = readings.filter((reading) => reading.status !== 200 || reading.ms > 1_000);
  expect(slow, `of ${readings.length} readings from ${readings[0]?.at} ms`).toEqual([]);
  expect((await fetch(`${runtime.url}/healthz`)).status).toBe(200);
}, 150_000);
