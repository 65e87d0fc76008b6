/** The worker's dependencies: a container plus the extractors, web readers and index builders, composed once per container. */
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../adapters/aws-clients';
import type { Container } from '../adapters/container';
import { FileContentExtractor } from '../adapters/content/content';
import { SourceImportReader } from '../adapters/content/import-reader';
import { lazySiteReader, lazyWebFetcher } from '../adapters/content/lazy-web-reader';
import { loadGraphWordVectors } from '../adapters/embeddings/word-vector-loader';
import { summarizerFromSettings } from '../adapters/providers/answer-generator-from-settings';
import { embedderFromSettings } from '../adapters/providers/embedder-from-settings';
import { graphExtractorFromSettings } from '../adapters/providers/graph-extractor-from-settings';
import { once } from '../adapters/providers/once';
import { vectorTierSetupFromSettings } from '../adapters/providers/vector-tier-setup';
import type { WorkerDeps } from './dispatch';
import { GraphCache } from '../core/ingest/graph-cache';

/** Graph memories whose graph a warm worker keeps between builds (the last ones it published). */
const WARM_GRAPHS = 8;

/** The worker's deps as composed here: the extractor is the one that holds OCR workers open. */
export type ComposedWorkerDeps = WorkerDeps & { extractor: FileContentExtractor };

/** `s3`: the container's client, for speech transcription's output (a container over memory has none: one is made from the settings). */
export function composeWorkerDeps(base: Container & { s3?: S3Client }): ComposedWorkerDeps {
  const { config } = base;
  return {
    ...base,
    // what building index versions needs: the embedder, the graph's word vectors, the graph extractor
    indexing: {
      embedder: once(() => embedderFromSettings(config.embeddings, config)),
      graphWordVectors: () =>
        config.graphWordVectors ? loadGraphWordVectors(config.wordVectorCache ? {} : { cacheDir: false }) : undefined,
      graphExtractor: once(() => graphExtractorFromSettings(config.graphExtractor, config)),
      graphCache: new GraphCache(WARM_GRAPHS),
    },
    summaries: { model: once(() => summarizerFromSettings(config.answerModel, config)) },
    extractor: new FileContentExtractor(config, base.s3 ?? createS3Client(config)),
    fetcher: lazyWebFetcher(config),
    site: lazySiteReader(config),
    importReader: new SourceImportReader(base.objects, base.bucket, config.imports),
    ...withVectorTier(config),
  };
}

/** The vector tier's deps, when the stage turns it on. */
function withVectorTier(config: ComposedWorkerDeps['config']): Pick<WorkerDeps, 'vectors'> {
  const vectors = vectorTierSetupFromSettings(config.vectorTier, config);
  return vectors ? { vectors } : {};
}

/** Releases what the worker holds open (OCR workers), so a stopping local runtime leaves nothing running. */
export async function releaseWorkerDeps(deps: ComposedWorkerDeps): Promise<void> {
  await deps.extractor.close();
}
