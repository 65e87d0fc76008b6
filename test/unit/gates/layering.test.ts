/**
 * The layering rule (.dependency-cruiser.cjs), checked on a small tree of its own: every forbidden import
 * is caught, and what the rule allows (core's own sub-folders, the engine's surface, config and the
 * logger from adapters, the rooms below core's use cases and pipeline, http plumbing from a group, the
 * catalog from the local runtime) is not; the one upward import on purpose (meta's OpenAPI document
 * reads the catalog) is reported as info. `npm test` runs the same rule over the real tree (`npm run lint`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as IConfiguration;

const TREE: Record<string, string> = {
  'functions/config.ts': "import { store } from './adapters/store';\nexport const config = [store];", // config reads no adapter
  'functions/observability.ts': 'export const logger = 1;',
  'functions/files/routes.ts': "import { use } from '../core/use-cases/use';\nexport const routes = use;",
  'functions/memories/routes.ts': [
    "import { handler } from '../http/handler';", // the shared plumbing: allowed
    "import { routes } from '../files/routes';", // another endpoint group
    "import { catalog } from '../catalog';", // the catalog sits above the groups
    "import { dispatch } from '../worker/dispatch';", // the worker entry is composed, not imported
    'export const memories = [handler, routes, catalog, dispatch];',
  ].join('\n'),
  'functions/meta/routes.ts': "import { catalog } from '../catalog';\nexport const meta = catalog;", // the OpenAPI document: info
  'functions/catalog.ts': "import { routes } from './files/routes';\nexport const catalog = [routes];", // the catalog reads the groups: allowed
  'functions/http/handler.ts': [
    "import { config } from '../config';", // allowed
    "import { routes } from '../files/routes';", // http/ imports no endpoint group
    'export const handler = [config, routes];',
  ].join('\n'),
  'functions/worker/dispatch.ts': "import { step } from '../core/ingest/step';\nexport const dispatch = step;",
  'functions/local/runtime.ts':
    "import { catalog } from '../catalog';\nimport { dispatch } from '../worker/dispatch';\nexport const run = [catalog, dispatch];",
  'functions/core/model.ts': "import { kind } from './files/kinds';\nexport const model = kind;", // the root imports no room
  'functions/core/stored-index/format.ts': [
    "import { kind } from '../files/kinds';", // a room beside it: allowed
    "import { step } from '../ingest/step';", // a room below reaches up into the pipeline
    'export const format = [kind, step];',
  ].join('\n'),
  'functions/core/ingest/step.ts': [
    "import { format } from '../stored-index/format';", // a room below: allowed
    "import { use } from '../use-cases/use';", // the pipeline imports no use case
    'export const step = [format, use];',
  ].join('\n'),
  'functions/engine/index.ts': "export { deep } from './graph/deep';",
  'functions/engine/graph/index.ts': "export { deep } from './deep';",
  'functions/engine/graph/deep.ts':
    "import { kind } from '../../core/files/kinds';\nimport { connect } from 'node:net';\nexport const deep = [kind, connect];",
  'functions/core/files/kinds.ts': 'export const kind = 1;',
  'functions/core/use-cases/use.ts': [
    "import { kind } from '../files/kinds';", // core's own files/ folder: allowed
    "import { step } from '../ingest/step';", // use cases import nothing of the pipeline
    "import { deep } from '../../engine';", // the engine's surface: allowed
    "import { deep as built } from '../../engine/graph';", // its graph-building door: allowed
    "import { deep as inner } from '../../engine/graph/deep';", // past the surface
    "import { routes } from '../../files/routes';", // an entry point
    "import { config } from '../../config';",
    "import { store } from '../../adapters/store';",
    "import { readFileSync } from 'node:fs';",
    'export const use = [kind, step, deep, built, inner, routes, config, store, readFileSync];',
  ].join('\n'),
  'functions/adapters/store.ts': [
    "import { config } from '../config';", // allowed
    "import { logger } from '../observability';", // allowed
    "import { routes } from '../files/routes';",
    'export const store = [config, logger, routes];',
  ].join('\n'),
};

let root: string;
let violations: string[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'kmem-layering-'));
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `${text}\n`);
  }
  const { tsConfig: _tsConfig, ...options } = config.options ?? {};
  const result = await cruise(['functions'], { ...options, baseDir: root, validate: true, ruleSet: { forbidden: config.forbidden ?? [] } });
  const output = result.output as ICruiseResult;
  violations = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the layering rule', () => {
  it('catches every upward import and every import past the engine surface, and nothing else', () => {
    expect(violations).toEqual(
      [
        'catalog-above-groups: functions/memories/routes.ts -> functions/catalog.ts',
        'catalog-for-openapi: functions/meta/routes.ts -> functions/catalog.ts',
        'core-root-below-rooms: functions/core/model.ts -> functions/core/files/kinds.ts',
        'core-rooms-below: functions/core/stored-index/format.ts -> functions/core/ingest/step.ts',
        'groups-apart: functions/memories/routes.ts -> functions/files/routes.ts',
        'http-no-endpoint-group: functions/http/handler.ts -> functions/files/routes.ts',
        'pipeline-not-use-cases: functions/core/ingest/step.ts -> functions/core/use-cases/use.ts',
        'runtimes-on-top: functions/memories/routes.ts -> functions/worker/dispatch.ts',
        'shared-infra-below-adapters: functions/config.ts -> functions/adapters/store.ts',
        'use-cases-not-pipeline: functions/core/use-cases/use.ts -> functions/core/ingest/step.ts',
        'adapters-not-entry: functions/adapters/store.ts -> functions/files/routes.ts',
        'core-no-io: functions/core/use-cases/use.ts -> fs',
        'core-not-outward: functions/core/use-cases/use.ts -> functions/adapters/store.ts',
        'core-not-outward: functions/core/use-cases/use.ts -> functions/config.ts',
        'core-not-outward: functions/core/use-cases/use.ts -> functions/files/routes.ts',
        'engine-alone: functions/engine/graph/deep.ts -> functions/core/files/kinds.ts',
        'engine-no-io: functions/engine/graph/deep.ts -> net',
        'engine-surface: functions/core/use-cases/use.ts -> functions/engine/graph/deep.ts',
      ].sort(),
    );
  });
});
