/** `npm run client:types`: writes the typed client's types from the API's OpenAPI document (built from the route catalog). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_VERSION } from '../functions/http/api-version';
import { catalog } from '../functions/catalog';
import { openApiDocument } from '../functions/http/openapi';
import { GENERATED_TYPES_PATH, generateClientTypes } from '../packages/client/codegen/generate-types';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, GENERATED_TYPES_PATH);
writeFileSync(target, await generateClientTypes(openApiDocument(catalog, API_VERSION)));
console.error(`[kmem] wrote ${GENERATED_TYPES_PATH}`);
