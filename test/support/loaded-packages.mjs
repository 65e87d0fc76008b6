/**
 * `node --import ./loaded-packages.mjs`: records the npm packages the process's ES module graph resolves
 * (through a resolve hook in the loader's thread), so a test can tell which parts a module graph loads.
 * `globalThis.loadedPackages()` answers them, once the hook's messages have arrived.
 */
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const packages = new Set();
port1.on('message', (name) => packages.add(name));
port1.unref();
register('./loaded-packages-hook.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

globalThis.loadedPackages = async () => {
  await new Promise((resolve) => setTimeout(resolve, 100)); // the hook's last messages
  return [...packages].sort();
};
