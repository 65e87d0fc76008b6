/**
 * The layering rule (.dependency-cruiser.cjs), checked on a small tree of its own: every forbidden import
 * is caught, and what the rule allows (core's own sub-folders, the engine's surface, config and the
 * logger from adapters) is not. `npm test` runs the same rule over the real tree (`npm run lint`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as IConfiguration;

const TREE: Record<string, string> = {
  'functions/config.ts': 'export const config = 1;',
  'functions/observability.ts': 'export const logger = 1;',
  'functions/files/routes.ts': "import { use } from '../core/use-cases/use';\nexport const routes = use;",
  'functions/engine/index.ts': "export { deep } from './graph/deep';",
  'functions/engine/graph/index.ts': "export { deep } from './deep';",
  'functions/engine/graph/deep.ts':
    "import { kind } from '../../core/files/kinds';\nimport { connect } from 'node:net';\nexport const deep = [kind, connect];",
  'functions/core/files/kinds.ts': 'export const kind = 1;',
  'functions/core/use-cases/use.ts': [
    "import { kind } from '../files/kinds';", // core's own files/ folder: allowed
    "import { deep } from '../../engine';", // the engine's surface: allowed
    "import { deep as built } from '../../engine/graph';", // its graph-building door: allowed
    "import { deep as inner } from '../../engine/graph/deep';", // past the surface
    "import { routes } from '../../files/routes';", // an entry point
    "import { config } from '../../config';",
    "import { store } from '../../adapters/store';",
    "import { readFileSync } from 'node:fs';",
    'export const use = [kind, deep, built, inner, routes, config, store, readFileSync];',
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
