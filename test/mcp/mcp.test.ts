/**
 * kmem's MCP server through the official MCP clients (@modelcontextprotocol/sdk 1.x, which speaks the
 * 2025 protocol most MCP hosts use, and @modelcontextprotocol/client 2.x, the current one), over both
 * transports against the local runtime: streamable HTTP at POST /mcp with the caller's key, and stdio through
 * `npm run --silent kmem -- mcp` with KMEM_URL and KMEM_API_KEY. Each lists the tools, searches a memory
 * and gets passages with their sources, remembers text and then finds it, explores an entity, keeps to
 * its account, and refuses a caller without a valid key.
 */
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKmemClient, unwrap, type KmemClient } from '../../packages/client/src';

const { url, keyA, keyB, kmemCommand } = inject('kmem');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOOLS = [
  'add_message',
  'add_source',
  'explore_entity',
  'export_memory',
  'forget_file',
  'get_memory',
  'ingestion_status',
  'list_memories',
  'remember_text',
  'restore_memory',
  'search_memory',
  'search_messages',
];

/** A transport, and the client generation speaking over it. */
type Transport = 'http' | 'stdio' | 'http, client v2';
type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> };
type Tool = {
  name: string;
  description?: string;
  inputSchema: { type: string; required?: string[] };
  annotations?: Record<string, unknown>;
};
interface McpClient {
  listTools(): Promise<{ tools: Tool[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * How a stdio server is started: `npm run --silent kmem -- mcp`, as an MCP host configured from the docs
 * starts it, or the same command from the run's bundle of bin/kmem.ts (test/support/kmem-cli-bundle.ts),
 * which starts without tsx compiling its modules again (seconds of CPU on a loaded machine).
 */
type Launcher = 'npm run' | 'bundle';

async function connect(kind: Transport, key: string | null, launcher: Launcher = 'npm run'): Promise<McpClient> {
  const info = { name: 'kmem-test', version: '1.0.0' };
  const address = new URL(`${url}/mcp`);
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  const requestInit = { headers };
  const stdio = {
    ...(launcher === 'npm run'
      ? { command: 'npm', args: ['run', '--silent', 'kmem', '--', 'mcp'] }
      : { command: process.execPath, args: [kmemCommand, 'mcp'] }),
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), KMEM_URL: url, KMEM_API_KEY: key ?? '' },
    stderr: 'ignore' as const,
  };
  if (kind === 'http, client v2') {
    const client = new ClientV2(info);
    await client.connect(new HttpTransportV2(address, { requestInit }));
    return client as unknown as McpClient;
  }
  const client = new Client(info);
  await client.connect(kind === 'http' ? new StreamableHTTPClientTransport(address, { requestInit }) : new StdioClientTransport(stdio));
  return client as unknown as McpClient;
}

const textOf = (answer: ToolAnswer) => answer.content.map((part) => part.text ?? '').join('\n');

async function readyMemory(kmem: KmemClient, body: Parameters<KmemClient['createMemory']>[0]['body'], text: string, name: string) {
  const memory = unwrap(await kmem.createMemory({ body })).data;
  const file = unwrap(await kmem.addFile(text, { name, fileType: 'text' }));
  unwrap(await kmem.addMemoryFiles({ body: { memoryID: memory.id, files: [file.id] } }));
  unwrap(await kmem.startIngestion({ body: { memoryID: memory.id } }));
  for (let i = 0; i < 200; i++) {
    const step = unwrap(await kmem.getMemory({ params: { path: { id: memory.id } } })).data.step;
    if (step === 'ready') return { memory, file };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`memory ${memory.id} not ready`);
}

const MOONS_TEXT = 'Titan is the largest moon of Saturn. Its thick atmosphere is mostly nitrogen.';

let moons: { memory: { id: string }; file: { id: string } };
let graph: { memory: { id: string }; file: { id: string } };
let foreignMemoryId: string;

beforeAll(async () => {
  const kmemA = createKmemClient({ baseUrl: url, apiKey: keyA });
  moons = await readyMemory(kmemA, { name: 'mcp moons', memoryType: 'vector' }, MOONS_TEXT, 'saturn-moons.txt');
  graph = await readyMemory(
    kmemA,
    { name: 'mcp graph', memoryType: 'graph', ontology: 'essays', factExtraction: true },
    'International Business Machines (IBM) built the first hard disk drive in San Jose. IBM sold the RAMAC drive to many companies.',
    'ibm.txt',
  );
  foreignMemoryId = unwrap(
    await createKmemClient({ baseUrl: url, apiKey: keyB }).createMemory({ body: { name: 'b private', memoryType: 'vector' } }),
  ).data.id;
}, 90_000);

describe.each<Transport>(['http', 'stdio', 'http, client v2'])('MCP over %s', (kind) => {
  let client: McpClient;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;

  beforeAll(async () => {
    client = await connect(kind, keyA);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists the ten tools with descriptions, input schemas and hints', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('search_memory')?.inputSchema.required).toEqual(['memoryID', 'query']);
    expect(byName.get('search_memory')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('forget_file')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('remember_text')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('searches a memory and answers passages with their sources', async () => {
    const answer = await call('search_memory', { memoryID: moons.memory.id, query: 'largest moon of Saturn', topK: 2 });
    expect(answer.isError).toBeFalsy();
    expect(textOf(answer)).toMatch(/\[1\] score [\d.]+, source: saturn-moons\.txt \(/);
    expect(textOf(answer)).toMatch(/Titan is the largest moon/);
    const [first] = answer.structuredContent?.passages ?? [];
    // each passage once: its text in the content, its rank, score and source as structured data
    expect(first).toMatchObject({ rank: 1, score: expect.any(Number), source: { id: moons.file.id, name: 'saturn-moons.txt' } });
    expect(first).not.toHaveProperty('content');
  });

  it('remembers text and then finds it', async () => {
    const place = { http: 'Frankfurt', stdio: 'Dublin', 'http, client v2': 'Lisbon' }[kind];
    const fact = `The kmem cluster number ${place.length}${place[0]} runs in ${place}.`;
    const title = `${kind.replace(/\W+/g, '-')}-note.txt`;
    const remembered = await call('remember_text', { memoryID: moons.memory.id, text: fact, title, waitSeconds: 20 });
    expect(remembered.isError, textOf(remembered)).toBeFalsy();
    expect(textOf(remembered)).toMatch(/it is searchable now/);
    const status = await call('ingestion_status', { memoryID: moons.memory.id });
    expect(status.structuredContent).toMatchObject({ step: 'ready', ready: true });
    const found = await call('search_memory', {
      memoryID: moons.memory.id,
      query: `where does cluster number ${place.length}${place[0]} run`,
      topK: 1,
    });
    expect(textOf(found)).toContain(fact);
    expect(textOf(found)).toContain(`source: ${title}`);
  }, 40_000);

  it('explores an entity of a graph memory', async () => {
    const answer = await call('explore_entity', { memoryID: graph.memory.id, name: 'IBM', limit: 1 });
    expect(answer.isError).toBeFalsy();
    expect(textOf(answer)).toMatch(/^International Business Machines \(/);
    expect(textOf(answer)).toMatch(/Relations:\n- /);
    expect(answer.structuredContent?.entities[0].passages[0]).toMatchObject({ fileID: graph.file.id });
    // each passage's text once, in the content; the structured entity names its file
    expect(answer.structuredContent?.entities[0].passages[0]).not.toHaveProperty('content');
  });

  it("keeps to its account: another account's memory answers not_found in the API words", async () => {
    const answer = await call('search_memory', { memoryID: foreignMemoryId, query: 'anything' });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(/^kmem answered 404 not_found: .*memory/);
    const listed = await call('list_memories', { limit: 100 });
    expect(textOf(listed)).not.toContain(foreignMemoryId);
    expect(textOf(listed)).toContain(moons.memory.id);
  });

  it('refuses a caller without a valid key', async () => {
    if (kind.startsWith('http')) {
      await expect(connect(kind, null)).rejects.toThrow(/401|unauthorized|X-API-Key/i);
      await expect(connect(kind, 'nope-nope-nope')).rejects.toThrow(/403|forbidden/i);
      return;
    }
    // the launcher is the suite client's (npm run); the refusal is the server's, from the bundle
    const stranger = await connect(kind, 'nope-nope-nope', 'bundle');
    try {
      const answer = (await stranger.callTool({ name: 'list_memories', arguments: {} })) as ToolAnswer;
      expect(answer.isError).toBe(true);
      expect(textOf(answer)).toMatch(/^kmem answered 403 forbidden: X-API-Key: is not a valid API key/);
    } finally {
      await stranger.close();
    }
  }, 60_000);
});

describe('MCP conversation and file tools over HTTP', () => {
  it('adds messages to a new session, finds them, and forgets a file', async () => {
    const client = await connect('http', keyA);
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
      const sessionID = `mcp-session-${Date.now()}`;
      const added = await call('add_message', { sessionID, role: 'user', content: 'My parcel 7781 arrived with a cracked screen.' });
      expect(added.isError, textOf(added)).toBeFalsy();
      expect(added.structuredContent?.message).toMatchObject({ sessionID, role: 'user' });
      // message search ranks over the account's message index, which the worker brings up to date within moments
      let found = await call('search_messages', { query: 'cracked screen parcel', sessionID });
      for (let i = 0; i < 100 && !/My parcel 7781/.test(textOf(found)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        found = await call('search_messages', { query: 'cracked screen parcel', sessionID });
      }
      expect(textOf(found)).toMatch(/session mcp-session-\d+ user: My parcel 7781/);
      expect(found.structuredContent?.messages[0]).toMatchObject({ sessionID, role: 'user', contentTruncated: false });
      expect(found.structuredContent?.messages[0]).not.toHaveProperty('content');
      const bad = await call('add_message', { sessionID: 'bad id!', role: 'user', content: 'x' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^kmem answered 400 bad_request: sessionID: /);
      // a memory of its own to forget from: the other tests search the shared one for this passage, in any order
      const kmemA = createKmemClient({ baseUrl: url, apiKey: keyA });
      const own = await readyMemory(kmemA, { name: 'mcp forget', memoryType: 'vector' }, MOONS_TEXT, 'saturn-moons.txt');
      const forgot = await call('forget_file', { fileID: own.file.id, memoryID: own.memory.id });
      expect(forgot.isError, textOf(forgot)).toBeFalsy();
      const after = await call('search_memory', {
        memoryID: own.memory.id,
        query: 'largest moon of Saturn atmosphere nitrogen',
        topK: 5,
      });
      expect(textOf(after)).not.toMatch(/Titan is the largest moon/);
    } finally {
      await client.close();
    }
  }, 40_000);
});
