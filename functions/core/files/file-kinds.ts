/** Rules about file kinds, names and addresses, in one place. */
import { BadRequestError } from '../errors';
import type { FileCategory, FileType } from '../model';

/** Types whose content the service fetches from `external_uri`. */
export const WEB_FILE_TYPES: ReadonlySet<FileType> = new Set(['website', 'sitemap', 'website_bulk']);

const CATEGORY_OF: Record<FileType, FileCategory> = {
  website: 'web',
  sitemap: 'web',
  website_bulk: 'web',
  document: 'document',
  text: 'document',
  image: 'other',
  audio: 'audio',
  video: 'video',
  other: 'other',
};

export const categoryOf = (fileType: FileType): FileCategory => CATEGORY_OF[fileType];

const MAX_NAME_LENGTH = 255;

/** A file name is a name, never a path: no separators, no `.`/`..`, no control characters. */
export function checkFileName(field: string, name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw BadRequestError.forField(field, 'must not be empty');
  if (trimmed.length > MAX_NAME_LENGTH) throw BadRequestError.forField(field, `must be at most ${MAX_NAME_LENGTH} characters`);
  if (/[/\\]/.test(trimmed)) throw BadRequestError.forField(field, 'must be a file name, not a path (no / or \\)');
  if (trimmed === '.' || trimmed === '..') throw BadRequestError.forField(field, 'must be a file name');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw BadRequestError.forField(field, 'must not contain control characters');
  return trimmed;
}

/** The extension of a name or address path, lower case, without the dot ('' when there is none). */
export function extensionOf(nameOrPath: string): string {
  const last = nameOrPath.split(/[/\\]/).pop() ?? '';
  const dot = last.lastIndexOf('.');
  return dot > 0
    ? last
        .slice(dot + 1)
        .toLowerCase()
        .slice(0, 16)
    : '';
}

/** Parses an http(s) address given by a client; anything else is a bad request naming the field. */
export function checkWebAddress(field: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw BadRequestError.forField(field, 'must be an absolute http or https address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw BadRequestError.forField(field, 'must be an http or https address');
  }
  if (url.username || url.password) throw BadRequestError.forField(field, 'must not carry credentials');
  return url;
}

/** The archive formats a bulk import reads. */
export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz';

/** An archive's format from its name; undefined when the name says none of them. */
export function archiveFormatOfName(name: string): ArchiveFormat | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.tar')) return 'tar';
  return undefined;
}
