import { describe, expect, it } from 'vitest';
import { call, del, env, get, listAll, post, textFile, upload, waitFor } from '../support/api';

describe('files', () => {
  it('uploads, creates, processes, gets, lists and deletes a text file', async () => {
    const uploaded = await upload('notes.md', '# Notes\n\nThe lighthouse keeper counts ships at dawn.');
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data).toMatchObject({ name: 'notes.md', size: 52, contentType: 'text/plain' });
    const key = uploaded.body.data.key as string;
    expect(key).toMatch(/^bronze\//);

    const created = await post('/files/create', { name: 'notes.md', key, fileType: 'text' });
    expect(created.status).toBe(200);
    const file = created.body.data;
    expect(file).toMatchObject({
      name: 'notes.md',
      extension: 'md',
      fileType: 'text',
      category: 'document',
      bronzeKey: key,
      externalURI: null,
      originRegion: 'local',
      numSpeakers: null,
    });
    expect(file.organisationID).toMatch(/^[0-9a-f-]{36}$/);

    const ready = await waitFor(`/files/get/${file.id}`, (b) => b.data?.state === 'ready');
    expect(ready.data).toMatchObject({
      id: file.id,
      size: 52,
      length: (ready.data.content as string).length,
      source: 'upload',
      memoryID: null,
      userID: file.organisationID,
      hiddenFilesTotal: 0,
    });
    expect(ready.data.content).toMatch(/^Notes\s+The lighthouse keeper counts ships at dawn\.$/); // Markdown read as text
    expect(ready.data.tokens).toBeGreaterThan(5);
    expect(ready.data.silverTranscriptKey).toMatch(/^silver\//);

    const listed = await listAll('/files/list?limit=100', 'files');
    const row = listed.find((f) => f.id === file.id);
    expect(row).toMatchObject({ tokens: ready.data.tokens, size: 52, length: ready.data.length, category: 'document' });
    expect(row?.content).toBeUndefined();
    const web = await listAll('/files/list?category=web&limit=100', 'files');
    expect(web.map((f) => f.id)).not.toContain(file.id);

    expect((await del(`/files/delete/${file.id}`)).status).toBe(200);
    expect((await get(`/files/get/${file.id}`)).status).toBe(404);
    const reuse = await post('/files/create', { name: 'notes.md', key, fileType: 'text' });
    expect(reuse.status).toBe(400);
  });

  it('lists ten files by default', async () => {
    for (let i = 0; i < 11; i++) await textFile(`page-${i}.txt`, `page ${i}`, env().keyB);
    const page = await get('/files/list', env().keyB);
    expect(page.body.count).toBe(10);
    expect(page.body.nextToken).toEqual(expect.any(String));
  });

  it('refuses keys no upload of this account returned, and reused keys', async () => {
    const forged = await post('/files/create', { name: 'a.txt', key: 'bronze/x/y/a.txt', fileType: 'text' });
    expect(forged).toMatchObject({ status: 400, body: { status: 'bad_request' } });
    expect(forged.body.error).toMatch(/^key: /);
    const mine = await upload('b.txt', 'b');
    const foreign = await post('/files/create', { name: 'b.txt', key: mine.body.data.key, fileType: 'text' }, env().keyB);
    expect(foreign.status).toBe(400);
    const first = await post('/files/create', { name: 'b.txt', key: mine.body.data.key, fileType: 'text' });
    expect(first.status).toBe(200);
    const second = await post('/files/create', { name: 'b.txt', key: mine.body.data.key, fileType: 'text' });
    expect(second.body.error).toBe('key: is already used by another file');
  });

  it('refuses bad names, types, addresses and missing parts with the field named', async () => {
    const path = await upload('../etc/passwd', 'x');
    expect(path.status).toBe(400);
    expect(path.body.error).toMatch(/^file: /);
    const noPart = await call('POST', '/files/upload', { rawBody: 'plain', headers: { 'content-type': 'text/plain' } });
    expect(noPart.body).toMatchObject({ status: 'bad_request' });
    const badType = await post('/files/create', { name: 'a', fileType: 'pdf', external_uri: 'https://x.test/a' });
    expect(badType.body.error).toMatch(/^fileType: must be one of/);
    const noUri = await post('/files/create', { name: 'site', fileType: 'website' });
    expect(noUri.body.error).toBe("external_uri: is required for a 'website' file");
    const ftp = await post('/files/create', { name: 'site', fileType: 'website', external_uri: 'ftp://x.test/' });
    expect(ftp.body.error).toBe('external_uri: must be an http or https address');
    const slash = await post('/files/create', { name: 'a/b.txt', fileType: 'text', external_uri: 'https://x.test/b' });
    expect(slash.body.error).toMatch(/^name: must be a file name/);
    const badCategory = await get('/files/list?category=pictures');
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.error).toMatch(/^category: /);
  });

  it("refuses a file id that would read as a session's source, and the upload stays usable", async () => {
    const uploaded = await upload('c.txt', 'c');
    const key = uploaded.body.data.key as string;
    const id = `session:files-test-${Date.now()}`;
    const reserved = await post('/files/create', { id, name: 'c.txt', key, fileType: 'text' });
    expect(reserved).toMatchObject({ status: 400, body: { status: 'bad_request' } });
    expect(reserved.body.error).toBe("id: must not start with 'session:' (kmem names a session's messages so)");
    expect((await get(`/files/get/${id}`)).status).toBe(404);
    const near = await post('/files/create', { id: `notes:session:${Date.now()}`, name: 'c.txt', key, fileType: 'text' });
    expect(near.status, JSON.stringify(near.body)).toBe(200);
  });

  it('answers 413 for uploads over the limit and stores nothing', async () => {
    const huge = await upload('big.txt', new Uint8Array(51 * 1024 * 1024).fill(65));
    expect(huge.status).toBe(413);
    expect(huge.body.status).toBe('bad_request');
  });

  it('keeps accounts apart', async () => {
    const file = await textFile('private.txt', 'only for A');
    expect((await get(`/files/get/${file.id}`, env().keyB)).status).toBe(404);
    expect((await del(`/files/delete/${file.id}`, env().keyB)).status).toBe(404);
    const theirs = await listAll('/files/list?limit=100', 'files', env().keyB);
    expect(theirs.map((f) => f.id)).not.toContain(file.id);
  });

  it('hands out a presigned upload address whose key files/create accepts once the bytes are there', async () => {
    const asked = await post('/files/upload-url', { name: 'big.csv', contentType: 'text/csv', size: 8 });
    expect(asked.status).toBe(200);
    const { key, uploadUrl } = asked.body.data;
    const early = await post('/files/create', { name: 'big.csv', key, fileType: 'text' });
    expect(early.body.error).toBe('key: nothing has been uploaded to this key yet');
    const put = await fetch(uploadUrl, { method: 'PUT', body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv' } });
    expect(put.status).toBe(200);
    const created = await post('/files/create', { name: 'big.csv', key, fileType: 'text' });
    expect(created.status).toBe(200);
    const ready = await waitFor(`/files/get/${created.body.data.id}`, (b) => b.data?.state === 'ready');
    expect(ready.data).toMatchObject({ content: 'a,b\n1,2', size: 8 });
  });
});
