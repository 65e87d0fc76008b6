/** A bulk import (POST /files/import) as the service records it: its source, its progress, its errors. */
import type { FileType, MetadataEntry } from '../model';

/** Where a bulk import reads: an uploaded archive, or a prefix of an S3 bucket. */
export type ImportSource = { kind: 'archive'; key: string; name: string } | { kind: 's3'; bucket: string; prefix: string };

/** A member the import could not make a ready file of. */
export interface ImportError {
  sourceKey: string;
  error: string;
}

/** A bulk import (POST /files/import): a job with progress, run by the worker. */
export interface FileImport {
  id: string;
  accountId: string;
  source: ImportSource;
  memoryId: string | null;
  fileType: FileType | null;
  prune: boolean;
  /** Metadata every member's file gets (an S3 object's own user metadata on top). */
  metadata: MetadataEntry[];
  state: 'running' | 'completed' | 'failed';
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
  /** The first IMPORT_ERRORS_LISTED problems. */
  errors: ImportError[];
  /** Members already handled, in source order (a redelivered import goes on from there). */
  position: number;
  /** Memories that had ingested a file this import changed: they ingest again when it ends. */
  refreshMemoryIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** The sourceKey of every file an import's source holds starts with this. */
export function importSourcePrefix(source: ImportSource): string {
  return source.kind === 'archive' ? `archive:${source.name}/` : `s3://${source.bucket}/${source.prefix}`;
}
