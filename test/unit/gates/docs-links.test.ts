/**
 * The README is a front door: every page of docs/ is linked from it, and every relative link of the
 * README and docs/ reaches a file, and a heading of it when the link names one (anchors as GitHub makes
 * them from headings). Every repository path the pages name (`functions/...`, `test/...`, and inside
 * functions/ `core/...`, `adapters/...`, `engine/...`) exists, so a file moved without its docs fails.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const PAGES = ['README.md', ...DOCS];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (page: string): Set<string> =>
  new Set(
    readFileSync(join(ROOT, page), 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchorOf(line.replace(/^#+ /, ''))),
  );

/** The relative links of a page (outside code blocks), as [target path from the root, anchor]. */
function linksOf(page: string): { target: string; anchor: string | undefined }[] {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [path = '', anchor] = href.split('#');
      return { target: path ? relative(ROOT, join(ROOT, dirname(page), path)) : page, anchor };
    });
}

/** Paths the pages name: from the repository root, or (in backticks) from functions/. */
function pathsOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const fromRoot = [...text.matchAll(/(?:^|[^\w./:-])((?:functions|lib|bin|test|bench|scripts|packages|console|docs)\/[\w./@-]*)/gm)].map(
    (match) => match[1] ?? '',
  );
  const inFunctions = [...text.matchAll(/`((?:core|adapters|engine)\/[\w./-]*)`/g)].map((match) => `functions/${match[1] ?? ''}`);
  return [...fromRoot, ...inFunctions].map((path) => path.replace(/[.,]+$/, '')).filter((path) => !BUILT.has(path));
}

/** Built, never committed. */
const BUILT = new Set(['console/dist']);

describe('the README and docs/', () => {
  it('link every page of docs/ from the README', () => {
    const linked = new Set(linksOf('README.md').map((link) => link.target));
    expect(DOCS.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('have no broken relative links or anchors', () => {
    const broken = PAGES.flatMap((page) =>
      linksOf(page)
        .filter(({ target, anchor }) => !existsSync(join(ROOT, target)) || (anchor !== undefined && !anchorsOf(target).has(anchor)))
        .map(({ target, anchor }) => `${page}: ${target}${anchor === undefined ? '' : `#${anchor}`}`),
    );
    expect(broken).toEqual([]);
  });

  it('name only paths that exist', () => {
    const missing = PAGES.flatMap((page) =>
      pathsOf(page)
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${page}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('make anchors as GitHub does', () => {
    expect(anchorOf('The graph at 10,000 nodes')).toBe('the-graph-at-10000-nodes');
    expect(anchorOf('Scheduled re-sync (AWS)')).toBe('scheduled-re-sync-aws');
    expect(anchorOf('One text pipeline: uploaded and fetched pages read alike')).toBe(
      'one-text-pipeline-uploaded-and-fetched-pages-read-alike',
    );
  });
});
