/** Content sniffing, text flavours and charset decoding: the decisions made before any parser runs. */
import { describe, expect, it } from 'vitest';
import { sniffContent } from '../../functions/adapters/extract/sniff';
import { decodeText } from '../../functions/adapters/readable-text/charset';
import { textFlavour } from '../../functions/adapters/extract/text-flavour';
import { fixture } from './support/deps';
import { buildDocx, buildEpub, buildOdt, buildPptx, buildXlsx } from './support/office';
import { buildTextPdf } from './support/pdf';
import { buildZip } from './support/zip';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('sniffContent', () => {
  it('tells documents apart by their bytes and ZIP entries', () => {
    expect(sniffContent(buildTextPdf([['hello']]))).toEqual({ family: 'pdf' });
    expect(sniffContent(buildDocx(['a']))).toEqual({ family: 'package', kind: 'docx' });
    expect(sniffContent(buildPptx([['a']]))).toEqual({ family: 'package', kind: 'pptx' });
    expect(sniffContent(buildXlsx([['a', 1]]))).toEqual({ family: 'package', kind: 'xlsx' });
    expect(sniffContent(buildEpub('t', [['h', 'p']]))).toEqual({ family: 'package', kind: 'epub' });
    expect(sniffContent(buildOdt(['a']))).toEqual({ family: 'package', kind: 'odt' });
  });

  it('recognises images, audio and video containers', () => {
    expect(sniffContent(fixture('ocr-text.png'))).toEqual({ family: 'image', format: 'png' });
    expect(sniffContent(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toEqual({ family: 'image', format: 'jpeg' });
    expect(sniffContent(ascii('GIF89a\u0001\u0000'))).toEqual({ family: 'image', format: 'gif' });
    expect(sniffContent(fixture('speech.ogg'))).toMatchObject({ family: 'media', container: 'ogg', hint: 'either' });
    expect(sniffContent(ascii('RIFF\u0000\u0000\u0000\u0000WAVEfmt '))).toMatchObject({
      family: 'media',
      hint: 'audio',
    });
    expect(sniffContent(ascii('ID3\u0004\u0000'))).toMatchObject({ family: 'media', container: 'mp3' });
    expect(sniffContent(ascii('ID3 tags hold the artist name'))).toEqual({ family: 'text' });
    expect(sniffContent(ascii('\u0000\u0000\u0000\u0018ftypM4A \u0000'))).toMatchObject({
      family: 'media',
      hint: 'audio',
    });
    expect(sniffContent(ascii('\u0000\u0000\u0000\u0018ftypisom\u0000'))).toMatchObject({
      family: 'media',
      hint: 'either',
    });
  });

  it('gives reasons for what it cannot handle', () => {
    expect(sniffContent(new Uint8Array())).toEqual({ family: 'unknown', reason: 'the file is empty' });
    const ole = sniffContent(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0));
    expect(ole).toMatchObject({ family: 'unsupported', reason: expect.stringContaining('.docx') });
    const zip = sniffContent(buildZip([['notes/a.txt', 'hello']]));
    expect(zip).toMatchObject({ family: 'unsupported', reason: expect.stringContaining('ZIP archive') });
    const binary = sniffContent(bytes(0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08));
    expect(binary).toMatchObject({
      family: 'unknown',
      reason: expect.stringMatching(/^unrecognised content: .*00 01 02/),
    });
    expect(sniffContent(ascii('\u0000\u0000\u0000\u0018ftypheic'))).toMatchObject({ family: 'unsupported' });
  });

  it('does not go by the sizes a package declares (extraction counts the real ones)', () => {
    const docx = Buffer.from(buildDocx(['tiny']));
    const central = docx.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    docx.writeUInt32LE(0xfff00000, central + 24); // the first entry's uncompressed size
    expect(sniffContent(new Uint8Array(docx))).toEqual({ family: 'package', kind: 'docx' });
  });

  it('takes text, including UTF-16 with and without a BOM, as text', () => {
    expect(sniffContent(ascii('plain words\nand lines'))).toEqual({ family: 'text' });
    expect(sniffContent(new Uint8Array(Buffer.from('\ufeffhello', 'utf16le')))).toEqual({ family: 'text' });
    expect(sniffContent(new Uint8Array(Buffer.from('hello there', 'utf16le')))).toEqual({ family: 'text' });
  });
});

describe('textFlavour', () => {
  const hints = { name: 'upload', contentType: null };

  it('finds HTML and RTF by content', () => {
    expect(textFlavour('<!DOCTYPE html><html><body>x</body></html>', hints)).toBe('html');
    expect(textFlavour('  <html lang="en"><p>x</p></html>', hints)).toBe('html');
    expect(textFlavour('{\\rtf1\\ansi hello}', hints)).toBe('rtf');
    expect(textFlavour('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><text>x</text></svg>', hints)).toBe('svg');
  });

  it('uses the name or Content-Type for Markdown, and Markdown signs when neither says', () => {
    expect(textFlavour('plain', { name: 'notes.md', contentType: null })).toBe('markdown');
    expect(textFlavour('plain', { name: 'x', contentType: 'text/markdown; charset=utf-8' })).toBe('markdown');
    expect(textFlavour('# Title\n\n- one\n- two', hints)).toBe('markdown');
    expect(textFlavour('# Title\n\n- one', { name: 'data.csv', contentType: null })).toBe('text');
    expect(textFlavour('just a sentence.', hints)).toBe('text');
  });
});

describe('decodeText', () => {
  it('honours byte-order marks', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...ascii('café')]))).toEqual({
      text: 'café',
      encoding: 'utf-8',
    });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('naïve', 'utf16le')]);
    expect(decodeText(new Uint8Array(le))).toEqual({ text: 'naïve', encoding: 'utf-16le' });
    const be = Buffer.from('naïve', 'utf16le').swap16();
    expect(decodeText(new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), be])))).toEqual({
      text: 'naïve',
      encoding: 'utf-16be',
    });
  });

  it('uses a declared charset, then UTF-8, then Windows-1252', () => {
    const latin1 = new Uint8Array(Buffer.from('déjà vu', 'latin1'));
    expect(decodeText(latin1, { declaredCharset: 'iso-8859-1' }).text).toBe('déjà vu');
    expect(decodeText(latin1)).toEqual({ text: 'déjà vu', encoding: 'windows-1252' });
    expect(decodeText(ascii('déjà vu'))).toEqual({ text: 'déjà vu', encoding: 'utf-8' });
    expect(decodeText(ascii('ok'), { declaredCharset: 'no-such-charset' }).text).toBe('ok');
  });
});
