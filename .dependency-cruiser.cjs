/**
 * The layering rule of the product (issue #16): three rooms and the doors between them.
 *
 *   entry points  functions/<endpoint group>/, functions/{http,local,worker,mcp}/, functions/config.ts,
 *                 functions/observability.ts, bin/, lib/: compose and serve; may import anything below.
 *   adapters      functions/adapters/: talk to the outside world (AWS, the network, files, models).
 *   core          functions/core/: the service's use cases, ports and model; plain TypeScript, no I/O.
 *   engine        functions/engine/: search and graph engine; pure, knows nothing of the service.
 *
 * Why dependency-cruiser rather than Biome's noRestrictedImports: Biome matches the import *text*,
 * so `../files/x` cannot be told apart from `../../files/x` (core/files vs the files endpoint)
 * without one override per directory depth; dependency-cruiser resolves every import to the file it
 * reaches and checks the rule on real paths, which reads exactly like the rule above.
 * (17.x: 18.x runs on Node 22+ only, and this project runs on Node 20.)
 */
const ENTRY = '^(?:functions/(?!core/|engine/|adapters/)|bin/|lib/)';
const IO =
  '^(?:node:)?(?:fs|fs/promises|net|http|https|http2|dns|dgram|tls|child_process|cluster|worker_threads)$|^node_modules/@(?:aws-sdk|smithy)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-not-outward',
      comment: 'core imports neither adapters nor entry points nor config: what it needs comes in through its ports',
      severity: 'error',
      from: { path: '^functions/core/' },
      to: { path: ['^functions/adapters/', ENTRY] },
    },
    {
      name: 'core-no-io',
      comment: 'core does no I/O and knows no AWS types: the file system, the network and the AWS SDK belong to adapters',
      severity: 'error',
      from: { path: '^functions/core/' },
      to: { path: IO },
    },
    {
      name: 'engine-alone',
      comment: 'the engine imports nothing of core, adapters or entry points: it is a library the service uses',
      severity: 'error',
      from: { path: '^functions/engine/' },
      to: { path: '^(?:functions/|bin/|lib/)', pathNot: '^functions/engine/' },
    },
    {
      name: 'engine-no-io',
      comment: 'the engine does no I/O: whatever it reads is handed to it',
      severity: 'error',
      from: { path: '^functions/engine/' },
      to: { path: IO },
    },
    {
      name: 'adapters-not-entry',
      comment:
        'adapters do not import entry points (handlers, routes, the local runtime, the worker); the settings ' +
        '(config) and the Powertools logger/metrics/tracer (observability.ts) are shared infrastructure, not entry points',
      severity: 'error',
      from: { path: '^functions/adapters/' },
      to: {
        path: ENTRY,
        pathNot: ['^functions/config(?:\\.ts$|/)', '^functions/observability\\.ts$'],
      },
    },
    {
      name: 'engine-surface',
      comment:
        'outside the engine, code reaches it only through its public surface: functions/engine/index.ts (chunk, index, query) ' +
        'and functions/engine/graph/index.ts (build a knowledge graph: the worker alone, so API bundles carry no NLP model)',
      severity: 'error',
      from: { path: '^(?:functions|bin|lib)/', pathNot: '^functions/engine/' },
      to: { path: '^functions/engine/', pathNot: '^functions/engine/(?:index|graph/index)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
