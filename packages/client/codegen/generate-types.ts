/**
 * Turns kmem's OpenAPI document into the client's TypeScript types (openapi-typescript: `paths`,
 * `components`, `operations`) plus a table of every operation's method and path by operation id, which
 * the client's operation methods call. `npm run client:types` writes it; a test regenerates it from the
 * served document and fails when the committed file differs.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** Where the generated module lives, relative to the repository root. */
export const GENERATED_TYPES_PATH = 'packages/client/src/generated/openapi.ts';

const HEADER = `/**
 * Generated from kmem's OpenAPI document by \`npm run client:types\`: do not edit by hand.
 * A test (test/api/client-types.test.ts) fails when the served document no longer matches this file.
 */
/* eslint-disable */
`;

type Document = OpenAPI3 & { paths: Record<string, Record<string, { operationId?: string }>> };

export async function generateClientTypes(document: unknown): Promise<string> {
  const doc = document as Document;
  const types = astToString(await openapiTS(doc, { alphabetize: true }));
  return `${HEADER}\n${types}\n${operationTable(doc)}`;
}

function operationTable(doc: Document): string {
  const rows = Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ id: operation.operationId ?? '', method, path })))
    .filter((row) => row.id !== '')
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((row) => `  ${row.id}: { method: '${row.method}', path: '${row.path}' },`);
  return `/** Every operation's method and path, by operation id. */\nexport const OPERATIONS = {\n${rows.join('\n')}\n} as const;\n`;
}
