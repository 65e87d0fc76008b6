/**
 * The bounds every extractor keeps (ExtractLimits), with the reasons a person reads when a file is past
 * one. Each is measured on what the file really holds as it is read, so a small file that explodes (a ZIP
 * bomb, a PDF of 20,000 pages, a page the size of a wall, hours of silence) fails early and cheaply.
 */
import { formatBytes } from '../wording';
import { ExtractionError } from './errors';
import { DEFAULT_EXTRACT_LIMITS, type ExtractDeps, type ExtractLimits } from './types';
import { measureInflated, openZip } from './zip-entries';

/** A package inflating past this many bytes is held to the ratio limit as well. */
const RATIO_FLOOR_BYTES = 10 * 1024 * 1024;

export function limitsOf(deps: Pick<ExtractDeps, 'limits'>): ExtractLimits {
  return { ...DEFAULT_EXTRACT_LIMITS, ...deps.limits };
}

/** Throws unless the package's entries really inflate to at most the limits (total and ratio). */
export async function assertPackageBounded(bytes: Uint8Array, limits: ExtractLimits): Promise<void> {
  const archive = openZip(bytes);
  if (!archive) return; // the parser reports the damage
  const budget = Math.min(limits.maxUnzippedBytes, Math.max(RATIO_FLOOR_BYTES, bytes.length * limits.maxZipRatio));
  const inflated = await measureInflated(archive, budget);
  if (!inflated.overBudget) return;
  if (inflated.bytes > limits.maxUnzippedBytes) {
    throw new ExtractionError(
      `the file's compressed parts expand to more than ${formatBytes(limits.maxUnzippedBytes)}, ` +
        'too large to extract safely (a ZIP bomb?)',
      { refused: true },
    );
  }
  throw new ExtractionError(
    `the file's compressed parts expand more than ${limits.maxZipRatio} times (${formatBytes(bytes.length)} ` +
      `to over ${formatBytes(inflated.bytes)}), which documents never do: refused as a ZIP bomb`,
    { refused: true },
  );
}
