/**
 * Graph benchmark: builds a graph memory from the HippoRAG MuSiQue corpus with the graph library.
 *
 *   npx tsx bench/graph.ts [corpus.json] [--ontology culture] [--no-vectors] [--no-facts] [--no-titles] [--samples N]
 *
 * Default corpus: ../shared/bench-data/hipporag/musique_train_corpus.json (relative to the project
 * root; `[{title, text}]`, 1,890 passages; read in place, never copied). Each passage is one file
 * ("title.\ntext", as HippoRAG indexes title and text; --no-titles for the text alone), chunked with
 * GRAPH_CHUNK_DEFAULTS, then extracted and merged file by file, as the worker will call it.
 * Prints a markdown report: stage times, passages/s, entities, relations, facts, merges, peak RSS,
 * published indexing times for comparison, the precision/recall of the entity-matching thresholds on
 * the labelled pairs, a delete check (cascade + invariants), and a retrieval sanity check with the
 * corpus's questions (graph-only PPR recall of supporting passages) when `musique_train.json` lies
 * beside the corpus.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chunkText, GRAPH_CHUNK_DEFAULTS } from '../functions/engine/text/chunker';
import { DEFAULT_MATCH_THRESHOLDS, matchReason, type MatchThresholds } from '../functions/engine/graph/entity-match';
import { explainPairs, scorePairs, thresholdGrid, type CalibrationOptions, type PairScore } from '../functions/engine/graph/calibrate';
import {
  createMemoryGraph,
  extractFile,
  mergeFile,
  removeFile,
  type FileExtraction,
  type MemoryGraph,
} from '../functions/engine/graph/graph-build';
import { graphInvariantViolations } from '../functions/engine/graph/graph-invariants';
import {
  buildGraphSegment,
  deserializeGraphSegment,
  linkQueryToEntities,
  personalizedPageRank,
  serializeGraphSegment,
  topChunks,
  type GraphSegment,
} from '../functions/engine/graph/graph-segment';
import { parseText } from '../functions/engine/graph/nlp';
import { isOntologyName, organizationHeads, personTypes, type OntologyName } from '../functions/engine/graph/ontology';
import { loadGraphWordVectors } from '../functions/adapters/embeddings/word-vector-loader';
import type { WordVectors } from '../functions/engine/graph/word-vector-typing';
import { machineFacts } from './support/report';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_CORPUS = resolve(ROOT, '../shared/bench-data/hipporag/musique_train_corpus.json');
const PUBLISHED = [
  ['HippoRAG 2', 99.5],
  ['LightRAG', 235],
  ['GraphRAG', 277],
] as const;
const DELETE_FILES = 100;

interface Passage {
  title: string;
  text: string;
}

interface Options {
  corpus: string;
  ontology: OntologyName;
  vectors: boolean;
  facts: boolean;
  titles: boolean;
  samples: number;
}

function parseOptions(): Options {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ontology: { type: 'string', default: 'culture' },
      'no-vectors': { type: 'boolean', default: false },
      'no-facts': { type: 'boolean', default: false },
      'no-titles': { type: 'boolean', default: false },
      samples: { type: 'string', default: '0' },
    },
  });
  const ontology = values.ontology ?? 'culture';
  if (!isOntologyName(ontology)) throw new Error(`--ontology must be culture, essays or support_requests, got ${ontology}`);
  return {
    corpus: positionals[0] === undefined ? DEFAULT_CORPUS : resolve(positionals[0]),
    ontology,
    vectors: !values['no-vectors'],
    facts: !values['no-facts'],
    titles: !values['no-titles'],
    samples: Number(values.samples) || 0,
  };
}

/** Runs `work` and records its wall time in milliseconds under `name`. */
function timed<T>(stages: Map<string, number>, name: string, work: () => T): T {
  const started = performance.now();
  const result = work();
  stages.set(name, (stages.get(name) ?? 0) + performance.now() - started);
  return result;
}

function main(): void {
  const options = parseOptions();
  const stages = new Map<string, number>();
  const passages = JSON.parse(readFileSync(options.corpus, 'utf8')) as Passage[];
  timed(stages, 'load NLP model', () => parseText('Warm up.'));
  const vectors = options.vectors ? timed(stages, 'load word vectors', () => loadGraphWordVectors()) : undefined;
  const memory = createMemoryGraph({ ontology: options.ontology, factExtraction: options.facts, ...(vectors ? { vectors } : {}) });
  const files = timed(stages, 'chunk', () =>
    passages.map((passage, index) => {
      const text = options.titles ? `${passage.title}.\n${passage.text}` : passage.text;
      const chunks = chunkText(text, GRAPH_CHUNK_DEFAULTS).map((chunk) => ({ id: `p${index}#${chunk.index}`, text: chunk.text }));
      return { fileId: `p${index}`, chunks };
    }),
  );
  const extractOptions = {
    schema: memory.graph.schema,
    factExtraction: options.facts,
    ...(memory.vectorTyper ? { vectorTyper: memory.vectorTyper } : {}),
  };
  const extractions: FileExtraction[] = timed(stages, 'extract (parse, mentions, relations)', () =>
    files.map((file) => extractFile(file, extractOptions)),
  );
  const merges = new Map<string, number>();
  let newEntities = 0;
  timed(stages, 'merge (resolve, record)', () => {
    for (const extraction of extractions) {
      const summary = mergeFile(memory, extraction);
      newEntities += summary.newEntities;
      for (const [reason, count] of Object.entries(summary.resolvedBy)) merges.set(reason, (merges.get(reason) ?? 0) + count);
    }
  });
  const segmentBytes = timed(stages, 'segment (build, serialize)', () => serializeGraphSegment(buildGraphSegment(memory.graph)));
  const segment = timed(stages, 'segment load (deserialize)', () => deserializeGraphSegment(segmentBytes));
  const peakAfterBuild = process.resourceUsage().maxRSS / 1024;
  const report = [
    '# Graph benchmark',
    '',
    ...machineFacts(),
    `- command: \`npx tsx bench/graph.ts${process.argv
      .slice(2)
      .map((arg) => ` ${arg}`)
      .join('')}\``,
    `- corpus: ${options.corpus} (${passages.length} passages)`,
    `- ontology: ${options.ontology}; facts: ${options.facts}; word vectors: ${options.vectors}; titles: ${options.titles}`,
    '',
    ...resultTable(memory, {
      passages: passages.length,
      files,
      stages,
      merges,
      newEntities,
      segmentBytes: segmentBytes.length,
      peakRss: peakAfterBuild,
    }),
    '',
    ...publishedTable(stages),
    '',
    ...typeTable(memory),
    '',
    ...calibrationTables(vectors, memory),
    '',
    ...retrievalCheck(options.corpus, passages, segment, options),
    '',
    ...deleteCheck(memory),
    ...(options.samples > 0 ? ['', ...samples(memory, options.samples, vectors)] : []),
  ];
  console.log(report.join('\n'));
}

interface BuildFacts {
  passages: number;
  files: ReadonlyArray<{ chunks: readonly unknown[] }>;
  stages: Map<string, number>;
  merges: Map<string, number>;
  newEntities: number;
  segmentBytes: number;
  peakRss: number;
}

function indexingMs(stages: Map<string, number>): number {
  return ['chunk', 'extract (parse, mentions, relations)', 'merge (resolve, record)', 'segment (build, serialize)'].reduce(
    (sum, name) => sum + (stages.get(name) ?? 0),
    0,
  );
}

function resultTable(memory: MemoryGraph, facts: BuildFacts): string[] {
  const { graph } = memory;
  const relations = [...graph.relations.values()];
  const svo = relations.filter((relation) => relation.kind === 'svo').length;
  const mentions = [...graph.files.values()].reduce((sum, file) => sum + file.mentions.length, 0);
  const chunks = facts.files.reduce((sum, file) => sum + file.chunks.length, 0);
  const nonExact = [...facts.merges].filter(([reason]) => reason !== 'exact');
  const merged = nonExact.reduce((sum, [, count]) => sum + count, 0);
  const indexing = indexingMs(facts.stages);
  const total = [...facts.stages.values()].reduce((sum, ms) => sum + ms, 0);
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  return [
    '| measure | value |',
    '|---|---:|',
    `| passages (files) | ${facts.passages} |`,
    `| chunks | ${chunks} |`,
    `| passages/s (indexing: chunk + extract + merge + segment) | ${(facts.passages / (indexing / 1000)).toFixed(0)} |`,
    `| mentions | ${mentions} |`,
    `| entities | ${graph.entities.size} |`,
    `| relations (SVO / co-occurrence) | ${relations.length} (${svo} / ${relations.length - svo}) |`,
    `| facts | ${graph.facts.size} |`,
    `| merges: mentions joined to an existing node by exact key | ${facts.merges.get('exact') ?? 0} |`,
    `| merges: by alias rules (${nonExact.map(([reason, count]) => `${reason} ${count}`).join(', ') || 'none'}) | ${merged} |`,
    ...[...facts.stages].map(([name, ms]) => `| time: ${name} | ${seconds(ms)} |`),
    `| time: indexing (chunk + extract + merge + segment) | ${seconds(indexing)} |`,
    `| time: wall, all stages incl. model and vector loading | ${seconds(total)} |`,
    `| segment size | ${(facts.segmentBytes / 2 ** 20).toFixed(2)} MiB |`,
    `| peak RSS | ${facts.peakRss.toFixed(0)} MiB |`,
  ];
}

function publishedTable(stages: Map<string, number>): string[] {
  const total = [...stages.values()].reduce((sum, ms) => sum + ms, 0) / 1000;
  return [
    '| system (same corpus) | indexing time | hardware |',
    '|---|---:|---|',
    `| kmem graph (this run, wall incl. model loading) | ${total.toFixed(1)} s | ${machineFacts()[0]?.slice(8) ?? ''}, no GPU, no LLM |`,
    ...PUBLISHED.map(([name, minutes]) => `| ${name} (published) | ${minutes} min (${(minutes * 60).toFixed(0)} s) | GPU + LLM |`),
  ];
}

function typeTable(memory: MemoryGraph): string[] {
  const counts = new Map<string, number>();
  for (const entity of memory.graph.entities.values())
    counts.set(`${entity.kind}:${entity.type}`, (counts.get(`${entity.kind}:${entity.type}`) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  return ['| entity kind:type | nodes |', '|---|---:|', ...sorted.map(([type, count]) => `| ${type} | ${count} |`)];
}

function calibrationTables(vectors: WordVectors | undefined, memory: MemoryGraph): string[] {
  const { schema } = memory.graph;
  const options: CalibrationOptions = {
    organizationHeads: organizationHeads(schema),
    personTypes: personTypes(schema),
    ...(vectors ? { vectors } : {}),
  };
  const row = (label: string, score: PairScore): string =>
    `| ${label} | ${score.precision.toFixed(2)} | ${score.recall.toFixed(2)} | ${score.f1.toFixed(2)} | ${score.truePositives} | ${score.falsePositives} | ${score.falseNegatives} |`;
  const chosen = scorePairs(DEFAULT_MATCH_THRESHOLDS, options);
  const describe = (thresholds: MatchThresholds): string =>
    `JW ${thresholds.jaroWinkler}, Dice ${thresholds.trigramDice}, cosine ${thresholds.vectorCosine}`;
  const errors = explainPairs(DEFAULT_MATCH_THRESHOLDS, options).filter((pair) => (pair.reason !== undefined) !== pair.same);
  return [
    `Entity matching on ${explainPairs(DEFAULT_MATCH_THRESHOLDS, options).length} labelled pairs (functions/engine/graph/alias-pairs.ts); one threshold varied at a time, others at the defaults:`,
    '',
    '| thresholds | precision | recall | F1 | TP | FP | FN |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...thresholdGrid(options).flatMap(({ axis, scores }) => scores.map((score) => row(`${axis} = ${score.thresholds[axis]}`, score))),
    row(`**chosen: ${describe(DEFAULT_MATCH_THRESHOLDS)}**`, chosen),
    '',
    `Errors at the chosen thresholds: ${errors.map((pair) => `${pair.same ? 'missed' : 'wrongly merged'} "${pair.a}" / "${pair.b}"${pair.reason ? ` (${pair.reason})` : ''}`).join('; ') || 'none'}.`,
  ];
}

interface Question {
  question: string;
  paragraphs: Array<{ title: string; paragraph_text: string; is_supporting: boolean }>;
}

/** Graph-only retrieval: link the question to entities, PPR, then recall of supporting passages. */
function retrievalCheck(corpusPath: string, passages: readonly Passage[], segment: GraphSegment, options: Options): string[] {
  const questionsPath = join(dirname(corpusPath), 'musique_train.json');
  if (!existsSync(questionsPath)) return ['(no musique_train.json beside the corpus: retrieval check skipped)'];
  const questions = JSON.parse(readFileSync(questionsPath, 'utf8')) as Question[];
  const passageIndex = new Map(passages.map((passage, index) => [`${passage.title}\u0000${passage.text}`, index]));
  const recalls = { 2: 0, 5: 0 };
  let linked = 0;
  const started = performance.now();
  for (const question of questions) {
    const gold = new Set(
      question.paragraphs
        .filter((paragraph) => paragraph.is_supporting)
        .map((paragraph) => passageIndex.get(`${paragraph.title}\u0000${paragraph.paragraph_text}`)),
    );
    const links = linkQueryToEntities(segment, question.question);
    if (links.length > 0) linked++;
    const seeds = new Map(links.map((link) => [link.entity, link.weight]));
    const ranked = topChunks(segment, personalizedPageRank(segment, seeds).chunkScores, 50);
    const passagesRanked = [...new Set(ranked.map((hit) => Number(/^p(\d+)#/.exec(hit.chunkId)?.[1])))];
    for (const k of [2, 5] as const)
      recalls[k] += passagesRanked.slice(0, k).filter((index) => gold.has(index)).length / Math.max(1, gold.size);
  }
  const perQuery = (performance.now() - started) / Math.max(1, questions.length);
  return [
    `Retrieval sanity check, graph only (query → entities by alias n-grams → PPR, damping 0.5; no dense retriever, no LLM), ${questions.length} MuSiQue questions, titles ${options.titles ? 'indexed' : 'not indexed'}:`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| questions linked to ≥ 1 entity | ${linked} / ${questions.length} |`,
    `| recall@2 of supporting passages | ${((100 * recalls[2]) / questions.length).toFixed(1)}% |`,
    `| recall@5 of supporting passages | ${((100 * recalls[5]) / questions.length).toFixed(1)}% |`,
    `| time per query (link + PPR + top-k) | ${perQuery.toFixed(2)} ms |`,
    '',
    'For scale: HippoRAG 2 reports MuSiQue recall@5 of 74.7 with NV-Embed-v2 and Llama-3.3-70B (full 11,656-passage corpus).',
  ];
}

/** Removes the first files and checks no orphan is left. */
function deleteCheck(memory: MemoryGraph): string[] {
  const before = { entities: memory.graph.entities.size, relations: memory.graph.relations.size, facts: memory.graph.facts.size };
  const fileIds = [...memory.graph.files.keys()].slice(0, DELETE_FILES);
  const started = performance.now();
  let removedEntities = 0;
  for (const fileId of fileIds) removedEntities += removeFile(memory, fileId).entities;
  const ms = performance.now() - started;
  const violations = graphInvariantViolations(memory.graph);
  return [
    `Delete check: removed ${fileIds.length} files in ${ms.toFixed(0)} ms (${(ms / fileIds.length).toFixed(2)} ms/file);`,
    `entities ${before.entities} → ${memory.graph.entities.size} (${removedEntities} dropped), relations ${before.relations} → ${memory.graph.relations.size}, facts ${before.facts} → ${memory.graph.facts.size};`,
    `invariant violations after the deletes: ${violations.length}${violations.length ? ` (first: ${violations[0]})` : ''}.`,
  ];
}

/** Alias pairs of one node that only fuzzy or word-vector matching joins. */
function similarityMerges(memory: MemoryGraph, vectors: WordVectors | undefined): string[] {
  const { schema } = memory.graph;
  const context = {
    thresholds: DEFAULT_MATCH_THRESHOLDS,
    organizationHeads: organizationHeads(schema),
    personTypes: personTypes(schema),
    ...(vectors ? { vectors } : {}),
  };
  const out: string[] = [];
  for (const entity of memory.graph.entities.values()) {
    const aliases = [...entity.aliases];
    for (let a = 0; a < aliases.length; a++) {
      for (let b = a + 1; b < aliases.length; b++) {
        const [aKey, aAlias] = aliases[a] as (typeof aliases)[number];
        const [bKey, bAlias] = aliases[b] as (typeof aliases)[number];
        const form = (key: string, acronymShaped: boolean) => ({ key, kind: entity.kind, acronymShaped, type: entity.type });
        const reason = matchReason(form(aKey, aAlias.acronymShaped), form(bKey, bAlias.acronymShaped), context);
        if (reason === 'fuzzy' || reason === 'vector') out.push(`- ${reason}: ${aAlias.surface} | ${bAlias.surface}`);
      }
    }
  }
  return out;
}

function samples(memory: MemoryGraph, count: number, vectors: WordVectors | undefined): string[] {
  const similar = similarityMerges(memory, vectors);
  const merged = [...memory.graph.entities.values()].filter((entity) => entity.aliases.size > 1);
  const facts = [...memory.graph.facts.values()];
  const name = (id: string): string => memory.graph.entities.get(id)?.name ?? id;
  const step = Math.max(1, Math.floor(merged.length / count));
  const factStep = Math.max(1, Math.floor(facts.length / count));
  return [
    `Alias pairs joined only by fuzzy or word-vector similarity (${similar.length}; up to ${count} shown):`,
    ...similar.slice(0, count),
    '',
    `Sample of ${count} nodes with several aliases (of ${merged.length}):`,
    ...merged
      .filter((_, index) => index % step === 0)
      .slice(0, count)
      .map((entity) => `- ${entity.type}: ${[...entity.aliases.values()].map((alias) => alias.surface).join(' | ')}`),
    '',
    `Sample of ${count} facts (of ${facts.length}):`,
    ...facts
      .filter((_, index) => index % factStep === 0)
      .slice(0, count)
      .map((fact) => `- (${name(fact.subjectId)}; ${fact.predicate}; ${name(fact.objectId)}) ← "${fact.text}"`),
  ];
}

main();
