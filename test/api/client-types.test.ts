/**
 * The client's committed types are the served OpenAPI document's: regenerating them from GET /openapi.json
 * gives the committed file byte for byte. A change to a route's schemas that is not followed by
 * `npm run client:types` fails here.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_TYPES_PATH, generateClientTypes } from '../../packages/client/codegen/generate-types';
import { get } from '../support/api';

it('the committed client types match the served OpenAPI document (run `npm run client:types` after changing a route)', async () => {
  const served = (await get('/openapi.json', null)).body;
  const committed = readFileSync(new URL(`../../${GENERATED_TYPES_PATH}`, import.meta.url), 'utf8');
  const fresh = await generateClientTypes(served);
  expect(fresh === committed, 'packages/client types are stale: run `npm run client:types`').toBe(true);
});

it('notices a drift: a document with one more field gives different types', async () => {
  const served = (await get('/openapi.json', null)).body;
  served.components.schemas.Memory.properties.extraField = { type: 'string' };
  const committed = readFileSync(new URL(`../../${GENERATED_TYPES_PATH}`, import.meta.url), 'utf8');
  expect(await generateClientTypes(served)).not.toBe(committed);
});
