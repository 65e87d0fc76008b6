/** Minimal Office Open XML, OpenDocument and EPUB packages, zipped from hand-written XML parts. */
import { buildZip } from './zip';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const escapeXml = (text: string): string => text.replace(/[<>&"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot' }[c]};`);

function contentTypes(overrides: Array<[part: string, type: string]>): string {
  const items = overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('');
  return `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${items}</Types>`;
}

function relationships(items: Array<[id: string, type: string, target: string]>): string {
  const body = items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${OFFICE_REL}/${type}" Target="${target}"/>`).join('');
  return `${XML}<Relationships xmlns="${RELS_NS}">${body}</Relationships>`;
}

function coreProperties(title: string): string {
  return `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${escapeXml(title)}</dc:title></cp:coreProperties>`;
}

export function buildDocx(paragraphs: string[], title?: string): Uint8Array {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`).join('');
  const rootRels: Array<[string, string, string]> = [['rId1', 'officeDocument', 'word/document.xml']];
  if (title) rootRels.push(['rId2', 'metadata/core-properties', 'docProps/core.xml']);
  return buildZip(
    [
      [
        '[Content_Types].xml',
        contentTypes([['/word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml']]),
      ],
      ['_rels/.rels', relationships(rootRels)],
      [
        'word/document.xml',
        `${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
      ],
      ...(title ? [['docProps/core.xml', coreProperties(title)] as [string, string]] : []),
    ],
    { deflate: true },
  );
}

export function buildPptx(slides: string[][]): Uint8Array {
  const slideParts = slides.map((lines, index): [string, string] => {
    const paragraphs = lines.map((line) => `<a:p><a:r><a:t>${escapeXml(line)}</a:t></a:r></a:p>`).join('');
    return [
      `ppt/slides/slide${index + 1}.xml`,
      `${XML}<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${paragraphs}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    ];
  });
  const ids = slides.map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${index + 2}"/>`).join('');
  return buildZip([
    [
      '[Content_Types].xml',
      contentTypes([
        ['/ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'],
        ...slides.map((_, index): [string, string] => [
          `/ppt/slides/slide${index + 1}.xml`,
          'application/vnd.openxmlformats-officedocument.presentationml.slide+xml',
        ]),
      ]),
    ],
    ['_rels/.rels', relationships([['rId1', 'officeDocument', 'ppt/presentation.xml']])],
    [
      'ppt/presentation.xml',
      `${XML}<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="${OFFICE_REL}"><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>`,
    ],
    [
      'ppt/_rels/presentation.xml.rels',
      relationships(slides.map((_, index) => [`rId${index + 2}`, 'slide', `slides/slide${index + 1}.xml`])),
    ],
    ...slideParts,
  ]);
}

export function buildXlsx(rows: Array<[label: string, amount: number]>): Uint8Array {
  const strings = rows.map(([label]) => `<si><t>${escapeXml(label)}</t></si>`).join('');
  const cells = rows
    .map(
      ([, amount], index) =>
        `<row r="${index + 1}"><c r="A${index + 1}" t="s"><v>${index}</v></c><c r="B${index + 1}"><v>${amount}</v></c></row>`,
    )
    .join('');
  const main = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return buildZip([
    [
      '[Content_Types].xml',
      contentTypes([
        ['/xl/workbook.xml', `${main}.sheet.main+xml`],
        ['/xl/worksheets/sheet1.xml', `${main}.worksheet+xml`],
        ['/xl/sharedStrings.xml', `${main}.sharedStrings+xml`],
      ]),
    ],
    ['_rels/.rels', relationships([['rId1', 'officeDocument', 'xl/workbook.xml']])],
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE_REL}"><sheets><sheet name="Budget" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      relationships([
        ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
        ['rId2', 'sharedStrings', 'sharedStrings.xml'],
      ]),
    ],
    [
      'xl/sharedStrings.xml',
      `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${rows.length}" uniqueCount="${rows.length}">${strings}</sst>`,
    ],
    [
      'xl/worksheets/sheet1.xml',
      `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${cells}</sheetData></worksheet>`,
    ],
  ]);
}

export function buildEpub(title: string, chapters: Array<[heading: string, text: string]>): Uint8Array {
  const manifest = chapters.map((_, index) => `<item id="c${index}" href="ch${index}.xhtml" media-type="application/xhtml+xml"/>`).join('');
  const spine = chapters.map((_, index) => `<itemref idref="c${index}"/>`).join('');
  return buildZip(
    [
      ['mimetype', 'application/epub+zip'],
      [
        'META-INF/container.xml',
        `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
      ],
      [
        'OEBPS/content.opf',
        `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">kmem-test</dc:identifier><dc:title>${escapeXml(title)}</dc:title><dc:language>en</dc:language></metadata><manifest>${manifest}</manifest><spine>${spine}</spine></package>`,
      ],
      ...chapters.map(([heading, text], index): [string, string] => [
        `OEBPS/ch${index}.xhtml`,
        `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${escapeXml(heading)}</title></head><body><h1>${escapeXml(heading)}</h1><p>${escapeXml(text)}</p></body></html>`,
      ]),
    ],
    { deflate: true },
  );
}

export function buildOdt(paragraphs: string[]): Uint8Array {
  const body = paragraphs.map((text) => `<text:p>${escapeXml(text)}</text:p>`).join('');
  return buildZip([
    ['mimetype', 'application/vnd.oasis.opendocument.text'],
    [
      'META-INF/manifest.xml',
      `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    ],
    [
      'content.xml',
      `${XML}<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    ],
  ]);
}
