/** The worker's dependencies: the container plus the extractors and web readers, created once per container. */
import type { Container } from '../adapters/container';
import { createIndexingSettings } from './indexing';
import { FileContentExtractor } from '../adapters/content/content';
import type { WorkerDeps } from './dispatch';
import { SourceImportReader } from '../adapters/content/import-reader';
import { WebFetcher, WebSiteReader } from '../adapters/content/web-reader';

type Built = WorkerDeps & { extractor: FileContentExtractor };

const built = new WeakMap<Container, Built>();

export function workerDeps(base: Container): WorkerDeps {
  let deps = built.get(base);
  if (!deps) {
    deps = {
      ...base,
      indexing: createIndexingSettings(base.config),
      extractor: new FileContentExtractor(base.config, base.s3),
      fetcher: new WebFetcher(base.config),
      site: new WebSiteReader(base.config),
      importReader: new SourceImportReader(base.objects, base.bucket, base.config.imports),
    };
    built.set(base, deps);
  }
  return deps;
}

/** Releases what the worker holds open (OCR workers), so a stopping local runtime leaves nothing running. */
export async function releaseWorkerDeps(base: Container): Promise<void> {
  const deps = built.get(base);
  built.delete(base);
  await deps?.extractor.close();
}
