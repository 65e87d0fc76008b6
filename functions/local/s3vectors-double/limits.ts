/**
 * The limits the double enforces: AWS's published "Limitations and restrictions" of S3 Vectors (GA) and
 * the API reference's field constraints. Metadata sizes are counted as the JSON text's UTF-8 bytes
 * (AWS does not publish its exact accounting).
 */
export const LIMITS = {
  dimension: 4_096,
  putVectors: 500,
  deleteVectors: 500,
  getVectors: 100,
  topK: 100,
  listVectors: 1_000,
  listIndexes: 500,
  segments: 16,
  keyLength: 1_024,
  filterableMetadataBytes: 2_048,
  totalMetadataBytes: 40 * 1_024,
  metadataKeys: 50,
  nonFilterableKeys: 10,
  indexesPerBucket: 10_000,
  requestBytes: 20 * 1_024 * 1_024,
} as const;

/** Index and vector bucket names: 3-63 lowercase letters, digits, dashes (and dots for indexes), alphanumeric at both ends. */
export const INDEX_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
export const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
