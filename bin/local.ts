/** `npm start`: the local runtime, with progress on stderr, until interrupted. */
import { startRuntime } from '../functions/local/runtime';
import { ensureConsoleBuilt } from '../lib/console-build';

const log = (line: string): void => console.error(`[kmem] ${line}`);

async function main(): Promise<void> {
  try {
    ensureConsoleBuilt(log);
  } catch (error) {
    log(`the console could not be built (the API runs without it): ${error instanceof Error ? error.message : String(error)}`);
  }
  const runtime = await startRuntime({ log });
  log(`ready: try  curl ${runtime.url}/healthz`);
  log(`console: ${runtime.consoleUrl}`);
  if (!runtime.config.bootstrapApiKey) {
    log('no KMEM_API_KEY set: create an account with  npm run kmem -- accounts create NAME');
  }
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`stop failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  log(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
