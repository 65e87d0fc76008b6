/**
 * The probe's reading loop, in a thread of its own so the test's other work (building and sending
 * uploads) does not delay the readings. workerData: {baseUrl, paths, key, intervalMs}; on any message,
 * stops and posts every reading taken.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { baseUrl, paths, key, intervalMs } = workerData;
const readings = [];
let running = true;
parentPort.once('message', () => {
  running = false;
});

while (running) {
  for (const path of paths) {
    const started = performance.now();
    let status = 0;
    try {
      const response = await fetch(`${baseUrl}${path}`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0; // no answer within 10 s, or none at all
    }
    readings.push({ path, status, ms: performance.now() - started, at: Math.round(started) });
  }
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
}
parentPort.postMessage(readings);
