/** The worker's dependencies: the container plus the extractors and fetcher, created once per container. */
import type { Container } from '../adapters/container';
import { FileProcessingError, type RemoteFetcher } from '../core/ingest/ports';
import { TextContentExtractor } from './content';
import type { WorkerDeps } from './dispatch';

const built = new WeakMap<Container, WorkerDeps>();

export function workerDeps(base: Container): WorkerDeps {
  let deps = built.get(base);
  if (!deps) {
    deps = { ...base, extractor: new TextContentExtractor(), fetcher: refusingFetcher };
    built.set(base, deps);
  }
  return deps;
}

const refusingFetcher: RemoteFetcher = {
  fetch: async (url) => {
    throw new FileProcessingError(`fetching ${url} is not available in this deployment`);
  },
};
