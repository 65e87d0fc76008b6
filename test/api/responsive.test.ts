/**
 * The API stays responsive while the worker works: the worker runs in a thread of its own on the local
 * runtime, so extracting a large page, indexing it and building its graph never hold the API's event loop.
 */
import { cpus, loadavg } from 'node:os';
import { expect, it } from 'vitest';
import { env, post, upload, waitFor } from '../support/api';
import { percentile, startProbe } from '../support/probe';

/** An HTML page of about `megabytes` MB of varied prose: seconds of parsing, then real text to index. */
function largePage(megabytes: number): string {
  const words = 'river lantern orchard copper meadow harbour violin glacier pepper saddle thunder velvet'.split(' ');
  const paragraphs: string[] = [];
  for (let i = 0, size = 0; size < megabytes * 1024 * 1024; i++) {
    const sentence = Array.from({ length: 14 }, (_, j) => words[(i * 7 + j * 5) % words.length]).join(' ');
    const paragraph = `<p>Entry ${i}: the ${sentence} of chapter ${i % 97}.</p>\n`;
    paragraphs.push(paragraph);
    size += paragraph.length;
  }
  return `<html><head><title>Large page</title></head><body><article>${paragraphs.join('')}</article></body></html>`;
}

/**
 * p99 under 100 ms on a machine with a core to spare; on one already oversubscribed (a shared CI box
 * running the whole suite), where every thread waits its turn, no reading may still take a second.
 */
function p99Bound(): number {
  return (loadavg()[0] ?? 0) < cpus().length ? 100 : 1_000;
}

it('answers /healthz and a user get within 100 ms (p99) while the worker extracts and processes a large page', async () => {
  const key = env().keyA;
  const bound = p99Bound();
  const user = await post('/users/create', {
    firstName: 'Responsive',
    lastName: 'Reader',
    email: 'reader@example.com',
    phone: '+1 555 0100',
  });
  expect(user.status).toBe(200);
  const probe = startProbe(env().url, ['/healthz', `/users/get/${user.body.data.id}`], key);
  try {
    const uploaded = await upload('large.html', largePage(0.4), key, 'text/html');
    expect(uploaded).toMatchObject({ status: 200 });
    const created = await post('/files/create', { name: 'large.html', key: uploaded.body.data.key, fileType: 'document' });
    expect(created).toMatchObject({ status: 200 });
    await waitFor(`/files/get/${created.body.data.id}`, (b) => b.data?.state === 'ready', key, 110_000);
  } finally {
    const readings = await probe.stop();
    expect(readings.length).toBeGreaterThan(20);
    expect(readings.filter((reading) => reading.status !== 200)).toEqual([]);
    expect(Math.max(...readings.map((reading) => reading.ms))).toBeLessThan(1_000);
    expect(percentile(readings, 99), `bound ${bound} ms at load ${loadavg()[0]}`).toBeLessThan(bound);
  }
}, 150_000);
