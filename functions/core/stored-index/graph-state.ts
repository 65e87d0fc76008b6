/** The stored graph state of an index version (a GraphSnapshot as JSON), read without loading the NLP model. */
import type { GraphSnapshot } from '../../engine';

export function parseGraphState(bytes: Uint8Array | undefined): GraphSnapshot | undefined {
  return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as GraphSnapshot) : undefined;
}
