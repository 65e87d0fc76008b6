/** Reads the one `file` part of a multipart/form-data body (POST /files/upload). */
import busboy from 'busboy';
import { BadRequestError, PayloadTooLargeError } from '../core/errors';

export interface FilePart {
  name: string;
  contentType: string;
  bytes: Buffer;
}

export function readFilePart(body: Buffer | undefined, contentType: string | undefined, maxBytes: number): Promise<FilePart> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.reject(BadRequestError.forField('body', "must be multipart/form-data with a part named 'file'"));
  }
  if (!body?.length) return Promise.reject(BadRequestError.forField('file', 'is required'));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fileSize: maxBytes, parts: 20 },
        preservePath: true,
      });
    } catch {
      reject(BadRequestError.forField('body', 'is not a valid multipart/form-data body (check the boundary)'));
      return;
    }
    let found: Promise<FilePart> | undefined;
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || found) {
        stream.resume();
        return;
      }
      found = collect(stream, info, maxBytes);
    });
    parser.on('error', () => reject(BadRequestError.forField('body', 'is not a valid multipart/form-data body')));
    parser.on('close', () => {
      if (!found) reject(BadRequestError.forField('file', "is required: send one part named 'file'"));
      else found.then(resolve, reject);
    });
    parser.end(body);
  });
}

function collect(stream: NodeJS.ReadableStream & { truncated?: boolean }, info: busboy.FileInfo, maxBytes: number): Promise<FilePart> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => reject(new PayloadTooLargeError(`file: is larger than the ${maxBytes / 1048576} MB upload limit`)));
    stream.on('end', () =>
      resolve({
        name: info.filename ?? '',
        contentType: info.mimeType || 'application/octet-stream',
        bytes: Buffer.concat(chunks),
      }),
    );
  });
}
