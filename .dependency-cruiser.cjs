/**
 * The layering rule of the product (issues #16 and #22): the rooms and the doors between them, top down.
 *
 *   composition   functions/local/ (the local runtime), bin/, lib/: compose everything.
 *   catalog       functions/catalog.ts: every route, by group (imports each group's schemas).
 *   entry points  functions/<endpoint group>/ (files, memories, messages, meta, retrieval, sessions, users,
 *                 mcp), functions/worker/: serve; none imports another group.
 *   http          functions/http/: the plumbing every group shares (middy chain, wire errors, OpenAPI);
 *                 imports no endpoint group.
 *   shared infra  functions/config/, functions/observability.ts: settings and Powertools, read by all above.
 *   adapters      functions/adapters/: talk to the outside world (AWS, the network, files, models).
 *   core          functions/core/: the service's use cases, ports and model; plain TypeScript, no I/O.
 *                 Inside, top down: use-cases/ and ingest/ (the worker pipeline), which do not import each
 *                 other; the rooms below both (files/, webhooks/, stored-index/, answers/, net/); core's
 *                 root modules (model, errors, ports, work, object keys, ...), which import no room.
 *   engine        functions/engine/: search and graph engine; pure, knows nothing of the service.
 *
 * One import goes up on purpose: functions/meta/routes.ts reads the catalog to serve the OpenAPI document
 * (rule catalog-for-openapi, reported as info so `depcruise` shows it).
 *
 * Why dependency-cruiser rather than Biome's noRestrictedImports: Biome matches the import *text*,
 * so `../files/x` cannot be told apart from `../../files/x` (core/files vs the files endpoint)
 * without one override per directory depth; dependency-cruiser resolves every import to the file it
 * reaches and checks the rule on real paths, which reads exactly like the rule above.
 * (17.x: 18.x runs on Node 22+ only, and this project runs on Node 20.)
 */
const ENTRY = '^(?:functions/(?!core/|engine/|adapters/)|bin/|lib/)';
/** The endpoint groups: every folder of functions/ that is not one of the rooms named here. */
const GROUP = '^functions/(?!(?:core|engine|adapters|config|http|local|worker)/)([^/]+)/';
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
    {
      name: 'pipeline-not-use-cases',
      comment:
        'the worker pipeline (core/ingest) imports no use case: what both need lives in a room below them (files/, webhooks/, stored-index/)',
      severity: 'error',
      from: { path: '^functions/core/ingest/' },
      to: { path: '^functions/core/use-cases/' },
    },
    {
      name: 'use-cases-not-pipeline',
      comment: 'use cases import nothing of the worker pipeline (core/ingest): what both need lives in a room below them',
      severity: 'error',
      from: { path: '^functions/core/use-cases/' },
      to: { path: '^functions/core/ingest/' },
    },
    {
      name: 'core-rooms-below',
      comment:
        "core's rooms below the use cases and the pipeline (files/, webhooks/, stored-index/, answers/, net/, the root modules) import neither",
      severity: 'error',
      from: { path: '^functions/core/', pathNot: '^functions/core/(?:use-cases|ingest)/' },
      to: { path: '^functions/core/(?:use-cases|ingest)/' },
    },
    {
      name: 'core-root-below-rooms',
      comment: "core's root modules (model, errors, ports, work, object keys, ...) are the floor: they import no room of core",
      severity: 'error',
      from: { path: '^functions/core/[^/]+$' },
      to: { path: '^functions/core/[^/]+/' },
    },
    {
      name: 'shared-infra-below-adapters',
      comment: 'the settings (config) and observability.ts are read by adapters and entry points alike, so they import neither',
      severity: 'error',
      from: { path: ['^functions/config(?:\\.ts$|/)', '^functions/observability\\.ts$'] },
      to: { path: ['^functions/adapters/', ENTRY], pathNot: ['^functions/config(?:\\.ts$|/)', '^functions/observability\\.ts$'] },
    },
    {
      name: 'http-no-endpoint-group',
      comment: 'functions/http/ is the plumbing every endpoint group shares: it imports no group, no catalog, no runtime',
      severity: 'error',
      from: { path: '^functions/http/' },
      to: {
        path: ENTRY,
        pathNot: ['^functions/http/', '^functions/config(?:\\.ts$|/)', '^functions/observability\\.ts$'],
      },
    },
    {
      name: 'groups-apart',
      comment: 'an endpoint group imports no other group: what two groups share lives in functions/http/ or below',
      severity: 'error',
      from: { path: GROUP },
      to: { path: GROUP, pathNot: '^functions/$1/' },
    },
    {
      name: 'catalog-above-groups',
      comment: 'the route catalog sits above the endpoint groups: only the composition (local/, bin/, lib/) reads it',
      severity: 'error',
      from: { path: '^functions/', pathNot: ['^functions/local/', '^functions/meta/routes\\.ts$'] },
      to: { path: '^functions/catalog\\.ts$' },
    },
    {
      name: 'catalog-for-openapi',
      comment: 'the one upward import, on purpose: the meta group serves the OpenAPI document of the whole catalog',
      severity: 'info',
      from: { path: '^functions/meta/routes\\.ts$' },
      to: { path: '^functions/catalog\\.ts$' },
    },
    {
      name: 'runtimes-on-top',
      comment: 'the local runtime composes everything and the worker entry is composed by it: nothing below imports them',
      severity: 'error',
      from: { path: '^functions/', pathNot: '^functions/(?:local|worker)/' },
      to: { path: '^functions/(?:local|worker)/' },
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
