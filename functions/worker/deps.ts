/** The worker's dependencies: a container plus the extractors and web readers, composed once per container. */
import type { Container } from '../adapters/container';
import { createIndexingSettings } from './indexing';
import { FileContentExtractor } from '../adapters/content/content';
import type { WorkerDeps } from './dispatch';
import { SourceImportReader } from '../adapters/content/import-reader';
import { WebFetcher, WebSiteReader } from '../adapters/content/web-reader';

/** The worker's deps as composed here: the extractor is the one that holds OCR workers open. */
export type ComposedWorkerDeps = WorkerDeps & { extractor: FileContentExtractor };

export function composeWorkerDeps(base: Container): ComposedWorkerDeps {
  return {
    ...base,
    indexing: createIndexingSettings(base.config),
    extractor: new FileContentExtractor(base.config, base.s3),
    fetcher: new WebFetcher(base.config),
    site: new WebSiteReader(base.config),
    importReader: new SourceImportReader(base.objects, base.bucket, base.config.imports),
  };
}

/** Releases what the worker holds open (OCR workers), so a stopping local runtime leaves nothing running. */
export async function releaseWorkerDeps(deps: ComposedWorkerDeps): Promise<void> {
  await deps.extractor.close();
}
