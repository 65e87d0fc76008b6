/**
 * Which kind of text a decoded file is. HTML and RTF show themselves in their first bytes; Markdown
 * and plain text often look alike, so the name and the Content-Type break the tie.
 */

export type TextFlavour = 'html' | 'rtf' | 'markdown' | 'text' | 'svg';

export interface FlavourHints {
  name: string;
  contentType: string | null;
}

export function textFlavour(text: string, hints: FlavourHints): TextFlavour {
  const head = text.slice(0, 2048).trimStart();
  if (/^\{\\rtf/.test(head)) return 'rtf';
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'svg';
  if (looksLikeHtml(head)) return 'html';
  const mime = hints.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = hints.name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return head.startsWith('<') ? 'html' : 'text';
  if (mime === 'text/markdown' || ['md', 'markdown', 'mdx', 'mkd'].includes(extension)) return 'markdown';
  if (PLAIN_EXTENSIONS.has(extension) || (mime !== '' && mime !== 'text/plain' && mime !== 'application/octet-stream')) {
    return 'text';
  }
  return looksLikeMarkdown(text.slice(0, 8192)) ? 'markdown' : 'text';
}

const PLAIN_EXTENSIONS = new Set(['txt', 'text', 'csv', 'tsv', 'json', 'jsonl', 'ndjson', 'log', 'xml', 'yaml', 'yml']);

function looksLikeHtml(head: string): boolean {
  const start = head.replace(/^<\?xml[^>]*>\s*/i, '').replace(/^<!--[\s\S]*?-->\s*/, '');
  if (/^<!doctype html/i.test(start) || /^<html[\s>]/i.test(start)) return true;
  return /^<(head|body|article|main|div|p|h[1-6])[\s>]/i.test(start) && /<\/(p|div|body|h[1-6]|article)>/i.test(head);
}

/** At least two Markdown signs: headings, fences, links, emphasis, list items. */
function looksLikeMarkdown(text: string): boolean {
  const signs = [/^#{1,6} \S/m, /^```/m, /\[[^\]\n]+\]\([^)\s]+\)/, /(\*\*|__)\S[^\n]*?\S\1/, /^\s*[-*+] \S/m, /^>\s\S/m];
  return signs.filter((sign) => sign.test(text)).length >= 2;
}
