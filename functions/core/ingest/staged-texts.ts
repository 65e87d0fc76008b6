/**
 * Texts an import stages for the ingestion it starts: each batch of members writes its extracted texts
 * as one object (besides each file's own transcript), and each file names that object in
 * `stagedTextKey`. The ingestion then reads one object per batch instead of one transcript per file.
 *
 * Staged texts are a copy, never the only one: an entry is used only while its content hash is the
 * file's (newer content wins), and a missing or unreadable object means the file's transcript is read
 * as always. The ingestion that read them deletes them when it ends; the bucket expires any left
 * behind (an ingestion that never ran).
 */
import type { FileRecord } from '../model';
import type { ObjectStore } from '../ports';

/** Texts longer than this are not staged: their file's transcript is read alone (a batch stays small). */
const STAGED_TEXT_MAX_CHARS = 64 * 1024;

export interface StagedText {
  fileId: string;
  contentHash: string;
  text: string;
}

type StagedBatch = ReadonlyMap<string, { contentHash: string; text: string }>;

/** Whether a text is staged with its batch. */
export function isStageable(text: string): boolean {
  return text.length <= STAGED_TEXT_MAX_CHARS;
}

/** Writes one batch's texts as one object. */
export async function stageTexts(objects: Pick<ObjectStore, 'put'>, key: string, texts: readonly StagedText[]): Promise<void> {
  if (texts.length === 0) return;
  const entries = Object.fromEntries(texts.map(({ fileId, contentHash, text }) => [fileId, { contentHash, text }]));
  await objects.put(key, JSON.stringify({ texts: entries }), 'application/json');
}

/**
 * One ingestion's reader of staged texts. Files are read in `order()` (those of one batch together), and
 * each batch is held only until its last file is read, so a run holds about as many batches as it reads
 * files at once.
 */
export class StagedTextReader {
  private readonly waiting = new Map<string, number>();
  private readonly loading = new Map<string, Promise<StagedBatch | undefined>>();

  constructor(
    private readonly objects: Pick<ObjectStore, 'get'>,
    files: ReadonlyArray<Pick<FileRecord, 'stagedTextKey'> | undefined>,
  ) {
    for (const key of files.map((file) => file?.stagedTextKey)) if (key) this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
  }

  /** The batches this run was told of (to delete once it ends). */
  keys(): string[] {
    return [...this.waiting.keys()];
  }

  /** Positions of `files`, those of one batch next to each other (where its first file was), otherwise in order. */
  static order(files: ReadonlyArray<Pick<FileRecord, 'stagedTextKey'> | undefined>): number[] {
    const firstOf = new Map<string, number>();
    files.forEach((file, i) => {
      if (file?.stagedTextKey && !firstOf.has(file.stagedTextKey)) firstOf.set(file.stagedTextKey, i);
    });
    const rank = (i: number) => firstOf.get(files[i]?.stagedTextKey ?? '') ?? i;
    return files.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || a - b);
  }

  /** The file's staged text while it is this content's; undefined when it has none (read its transcript). */
  async textOf(file: Pick<FileRecord, 'id' | 'contentHash' | 'stagedTextKey'>): Promise<string | undefined> {
    const key = file.stagedTextKey;
    if (!key) return undefined;
    let batch = this.loading.get(key);
    if (!batch) {
      batch = this.read(key);
      this.loading.set(key, batch);
    }
    const entry = (await batch)?.get(file.id);
    const left = (this.waiting.get(key) ?? 1) - 1;
    this.waiting.set(key, left);
    if (left <= 0) this.loading.delete(key);
    return entry?.contentHash === file.contentHash && typeof entry?.text === 'string' ? entry.text : undefined;
  }

  private async read(key: string): Promise<StagedBatch | undefined> {
    const bytes = await this.objects.get(key);
    if (!bytes) return undefined; // read and deleted by an earlier run, or expired
    try {
      const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as { texts?: Record<string, { contentHash: string; text: string }> };
      return new Map(Object.entries(parsed.texts ?? {}));
    } catch {
      return undefined; // unreadable: every file of the batch reads its own transcript
    }
  }
}
