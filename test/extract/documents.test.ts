/** Documents through extractText: PDF, Word, PowerPoint, Excel, EPUB, OpenDocument, RTF, HTML, Markdown, text. */
import { describe, expect, it } from 'vitest';
import { ExtractionError, extractText } from '../../functions/adapters/extract';
import { documentDeps, input } from './support/deps';
import { buildDocx, buildEpub, buildOdt, buildPptx, buildXlsx } from './support/office';
import { buildTextPdf } from './support/pdf';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ExtractionError);
  return error as ExtractionError;
}

describe('PDF', () => {
  it('reads the text layer of every page, and the title', async () => {
    const pdf = buildTextPdf([['Quarterly revenue grew by 12 percent.'], ['Second page mentions the Lisbon office.']], {
      title: 'Board Report',
    });
    const result = await extractText(input(pdf, 'document', 'report.pdf'), documentDeps);
    expect(result).toMatchObject({ kind: 'pdf', title: 'Board Report', warnings: [] });
    expect(result.text).toContain('Quarterly revenue grew by 12 percent.');
    expect(result.text).toContain('Lisbon office');
    expect(result.text.indexOf('Quarterly')).toBeLessThan(result.text.indexOf('Lisbon'));
  });

  it('fails with a reason on a corrupt PDF', async () => {
    const corrupt = utf8('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> garbage');
    const error = await failure(extractText(input(corrupt, 'document', 'broken.pdf'), documentDeps));
    expect(error.message).toMatch(/the PDF is corrupt/);
    expect(error.retryable).toBe(false);
  });

  it('fails with a reason on a password-protected PDF', async () => {
    const locked = buildTextPdf([['secret']], { passwordProtected: true });
    const error = await failure(extractText(input(locked, 'document', 'locked.pdf'), documentDeps));
    expect(error.message).toMatch(/encrypted \(password-protected\)/);
  });
});

describe('Office and e-book packages', () => {
  it('reads a Word document and its title', async () => {
    const docx = buildDocx(['The onboarding guide explains badges.', 'Ask the front desk for a visitor pass.'], 'Onboarding & Badges');
    const result = await extractText(input(docx, 'document', 'guide.docx'), documentDeps);
    expect(result).toMatchObject({ kind: 'docx', title: 'Onboarding & Badges' });
    expect(result.text).toBe('The onboarding guide explains badges.\n\nAsk the front desk for a visitor pass.');
  });

  it('reads PowerPoint slides, Excel cells, EPUB chapters and OpenDocument text', async () => {
    const pptx = await extractText(input(buildPptx([['Roadmap for the memory service'], ['Launch in March']]), 'document'), documentDeps);
    expect(pptx.kind).toBe('pptx');
    expect(pptx.text).toContain('Roadmap for the memory service');
    expect(pptx.text).toContain('Launch in March');

    const xlsx = await extractText(
      input(
        buildXlsx([
          ['Marketing spend', 1200],
          ['Cloud hosting', 3400],
        ]),
        'document',
      ),
      documentDeps,
    );
    expect(xlsx.kind).toBe('xlsx');
    expect(xlsx.text).toMatch(/Marketing spend\s+1200/);
    expect(xlsx.text).toMatch(/Cloud hosting\s+3400/);

    const epub = await extractText(
      input(buildEpub('The Lighthouse Keeper', [['Chapter One', 'The keeper counted ships.']]), 'document'),
      documentDeps,
    );
    expect(epub).toMatchObject({ kind: 'epub', title: 'The Lighthouse Keeper' });
    expect(epub.text).toContain('The keeper counted ships.');

    const odt = await extractText(input(buildOdt(['An OpenDocument paragraph.']), 'document'), documentDeps);
    expect(odt).toMatchObject({ kind: 'odt', text: 'An OpenDocument paragraph.' });
  });

  it('fails with a reason on a damaged package', async () => {
    const docx = buildDocx(['text']);
    const truncated = docx.slice(0, docx.length - 30);
    const error = await failure(extractText(input(truncated, 'document', 'cut.docx'), documentDeps));
    expect(error.message).toMatch(/damaged or truncated ZIP|corrupt/);
  });

  it('refuses legacy Office files and plain ZIP archives with advice', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array<number>(504).fill(0)]);
    expect((await failure(extractText(input(ole, 'document', 'old.doc'), documentDeps))).message).toMatch(/save it as \.docx/);
  });
});

describe('HTML', () => {
  it('keeps the article and drops navigation, scripts and styles', async () => {
    const paragraph = 'Lighthouses guided ships along the rocky coast for two centuries, and their keepers logged every passing vessel. ';
    const html = `<!DOCTYPE html><html><head><title>Coastal History</title><style>p{color:red}</style>
      <script>var tracking = "should not appear";</script></head><body>
      <nav><a href="/">Home</a> | <a href="/shop">Shop the store</a></nav>
      <article><h1>Keepers of the light</h1><p>${paragraph.repeat(4)}</p><p>The last keeper retired in 1987.</p></article>
      <footer>Copyright footer text</footer></body></html>`;
    const result = await extractText(input(utf8(html), 'document', 'page.html', 'text/html'), documentDeps);
    expect(result.kind).toBe('html');
    expect(result.title).toMatch(/Coastal History|Keepers of the light/);
    expect(result.text).toContain('The last keeper retired in 1987.');
    expect(result.text).not.toContain('should not appear');
    expect(result.text).not.toContain('color:red');
    expect(result.text).not.toContain('Shop the store');
  });

  it('keeps the whole body of a short page with block structure as lines', async () => {
    const html = '<html><body><h2>Opening hours</h2><ul><li>Monday 9-17</li><li>Tuesday 9-17</li></ul></body></html>';
    const result = await extractText(input(utf8(html), 'other', 'hours'), documentDeps);
    expect(result.text).toMatch(/Opening hours\n+Monday 9-17\nTuesday 9-17/);
  });

  it('separates table cells with tabs and rows with lines', async () => {
    const html = '<html><body><table><tr><th>City</th><th>Visitors</th></tr><tr><td>Porto</td><td>1200</td></tr></table></body></html>';
    const result = await extractText(input(utf8(html), 'document', 'table.html'), documentDeps);
    expect(result.text).toBe('City\tVisitors\nPorto\t1200');
  });

  it('honours the charset an HTML page declares', async () => {
    const html = Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>Café crème à Genève</p></body></html>', 'latin1');
    const result = await extractText(input(new Uint8Array(html), 'document', 'cafe.html'), documentDeps);
    expect(result.text).toContain('Café crème à Genève');
  });
});

describe('Markdown, RTF and plain text', () => {
  it('strips Markdown syntax and takes the first heading as title', async () => {
    const markdown = '# Release notes\n\nThe **importer** now reads [EPUB](https://example.org) files.\n\n- faster OCR\n- fewer errors\n';
    const result = await extractText(input(utf8(markdown), 'text', 'NOTES.md'), documentDeps);
    expect(result).toMatchObject({ kind: 'markdown', title: 'Release notes' });
    expect(result.text).toContain('The importer now reads EPUB files.');
    expect(result.text).not.toContain('**');
    expect(result.text).not.toContain('https://example.org');
  });

  it('reads RTF', async () => {
    const rtf = '{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Helvetica;}\\f0\\pard Minutes of the budget meeting.\\par}';
    expect(await extractText(input(utf8(rtf), 'document', 'minutes.rtf'), documentDeps)).toMatchObject({
      kind: 'rtf',
      text: 'Minutes of the budget meeting.',
    });
  });

  it('reads UTF-8, UTF-16 and Latin-1 text, CSV and JSON', async () => {
    const utf16 = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Zoë’s notes\r\nline two', 'utf16le')]));
    expect(await extractText(input(utf16, 'text', 'notes.txt'), documentDeps)).toMatchObject({
      kind: 'text',
      text: 'Zoë’s notes\nline two',
    });

    const latin1 = new Uint8Array(Buffer.from('Prix: 12 €? non, 12 francs. Déjà payé.', 'latin1'));
    const decoded = await extractText(input(latin1, 'text', 'prix.txt', 'text/plain; charset=iso-8859-1'), documentDeps);
    expect(decoded.text).toContain('Déjà payé.');

    const csv = await extractText(input(utf8('name,city\nAda,London\n'), 'text', 'people.csv', 'text/csv'), documentDeps);
    expect(csv).toMatchObject({ kind: 'text', text: 'name,city\nAda,London' });

    const json = await extractText(input(utf8('{"title": "kmem", "tags": ["memory"]}'), 'text', 'meta.json'), documentDeps);
    expect(json.text).toContain('"tags": ["memory"]');
  });

  it('fails on empty and blank files', async () => {
    expect((await failure(extractText(input(new Uint8Array(), 'text', 'empty.txt'), documentDeps))).message).toBe('the file is empty');
    expect((await failure(extractText(input(utf8(' \n\t\n'), 'text', 'blank.txt'), documentDeps))).message).toMatch(/empty/);
  });
});

describe('declared type versus content', () => {
  it('follows the content and warns when the declared type is wrong', async () => {
    const pdf = buildTextPdf([['A PDF uploaded as an image.']]);
    const result = await extractText(input(pdf, 'image', 'photo.jpg', 'image/jpeg'), documentDeps);
    expect(result.kind).toBe('pdf');
    expect(result.warnings[0]).toBe('declared as image, but the content is pdf: extracted as pdf');
  });

  it('fails on unrecognised binary content with a reason', async () => {
    const binary = new Uint8Array([0x00, 0x13, 0x37, 0x00, 0x42, 0x00, 0x99, 0x01, 0x02, 0x03]);
    const error = await failure(extractText(input(binary, 'other', 'blob.bin'), documentDeps));
    expect(error.message).toMatch(/^unrecognised content: /);
  });
});
