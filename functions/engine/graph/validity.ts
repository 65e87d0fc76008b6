/**
 * When each fact, relation and speaker statement of a graph held: from the time its source stated it
 * (`validFrom`: a message's time, else its file's) to the time a later source gave its single-valued
 * relation another value (`validTo`; null while nothing did). Which relations hold one value at a time
 * comes from the ontology (`singleValued`, see ontology.ts); every other relation is multi-valued and is
 * never superseded (someone who likes tea and coffee keeps both). Nothing is deleted: a superseded fact
 * stays, closed. Worked out again after each build (`refreshValidity`) over the groups the build touched
 * (validity-scope.ts), or over the whole graph, so the order in which sources arrive does not matter.
 */
import type { GraphFact, GraphRelation, KnowledgeGraph, SpeakerStatement } from './graph-model';
import type { OntologySchema, SingleValuedRelation } from './ontology';
import { scopeEntities, type ValidityScope } from './validity-scope';
import { recordChanges, type ValidityChanges, validityOf } from './validity-changes';

/** A statement of a value at a time, within a group that holds one value at a time. */
interface Stated {
  readonly group: string;
  readonly value: string;
  readonly time: string;
}

/**
 * Recomputes `validTo` of every fact (current and closed), relation and speaker statement; with a
 * `scope` (what a sync merged or removed, see validity-scope.ts), only of the groups it could change,
 * with the same result as the whole pass.
 */
export function refreshValidity(graph: KnowledgeGraph, scope?: ValidityScope, changed?: ValidityChanges): void {
  const keys = scope && scopeEntities(graph, scope);
  const { facts, relations, statements } = redoneItems(graph, keys, scope);
  const before = changed && validityOf(facts, relations, statements);
  refreshFacts(graph, facts, keys);
  refreshRelations(graph, relations, keys);
  refreshStatements(statements);
  if (changed && before) recordChanges(graph, changed, before, validityOf(facts, relations, statements), { facts, relations, statements });
}

/** The facts (current and closed), relations and statements of the groups the pass redoes. */
function redoneItems(graph: KnowledgeGraph, keys: ReadonlySet<string> | undefined, scope: ValidityScope | undefined) {
  const touches = (item: Ends) => !keys || keys.has(item.subjectId) || keys.has(item.objectId);
  const facts = [...graph.facts.values()].filter(touches);
  const statements: SpeakerStatement[] = [];
  // plain loops: this runs at every sync over every file
  for (const file of graph.files.values()) {
    for (const fact of file.closedFacts) if (touches(fact)) facts.push(fact);
    for (const statement of file.statements) if (!scope || scope.speakers.has(statement.speaker)) statements.push(statement);
  }
  return { facts, relations: [...graph.relations.values()].filter(touches), statements };
}

/** Whether an item's group is redone: every group in the whole pass, else those keyed by an entity in scope. */
function redone(keys: ReadonlySet<string> | undefined, rule: SingleValuedRelation, ends: Ends): boolean {
  return !keys || keys.has(rule.by === 'object' ? ends.objectId : ends.subjectId);
}

function refreshFacts(graph: KnowledgeGraph, facts: readonly GraphFact[], keys: ReadonlySet<string> | undefined): void {
  const slotted: Array<{ fact: GraphFact; stated: Stated }> = [];
  for (const fact of facts) {
    const relation = graph.relations.get(fact.relationId);
    const rule = relation ? singleValuedRule(graph, relation) : factRule(graph, fact);
    if (rule && !redone(keys, rule, fact)) continue;
    fact.validTo = fact.closedAt ?? null;
    if (rule) slotted.push({ fact, stated: statedBy(rule, fact, fact.validFrom) });
  }
  const ends = supersededAt(
    slotted.map((entry) => entry.stated),
    slotted.map((entry) => entry.stated),
  );
  slotted.forEach(({ fact }, index) => (fact.validTo = earlier(fact.validTo, ends[index] ?? null)));
}

/** A relation holds from its first statement; a single-valued one until another value is stated after its last. */
function refreshRelations(graph: KnowledgeGraph, relations: readonly GraphRelation[], keys: ReadonlySet<string> | undefined): void {
  const events: Stated[] = [];
  const queries: Array<{ relation: GraphRelation; stated: Stated }> = [];
  for (const relation of relations) {
    const [first, last] = relationSpan(graph, relation) ?? ['', ''];
    relation.validFrom = first;
    const rule = singleValuedRule(graph, relation);
    if (rule && !redone(keys, rule, relation)) continue;
    relation.validTo = null;
    if (!rule) continue;
    events.push(statedBy(rule, relation, first), statedBy(rule, relation, last));
    queries.push({ relation, stated: statedBy(rule, relation, last) });
  }
  const ends = supersededAt(
    events,
    queries.map((query) => query.stated),
  );
  queries.forEach(({ relation }, index) => (relation.validTo = ends[index] ?? null));
}

/** The first and last time any file supporting a relation states it. */
function relationSpan(graph: KnowledgeGraph, relation: GraphRelation): [string, string] | undefined {
  let span: [string, string] | undefined;
  for (const fileId of relation.support.keys()) {
    const times = graph.files.get(fileId)?.relationTimes.get(relation.id);
    if (!times) continue;
    span = span ? [earlier(times[0], span[0]) ?? times[0], later(times[1], span[1])] : [times[0], times[1]];
  }
  return span;
}

function refreshStatements(statements: readonly SpeakerStatement[]): void {
  const slotted = statements.filter((statement) => statement.slot !== undefined);
  for (const statement of statements) statement.validTo = null;
  const stated = slotted.map((statement) => ({
    group: `${statement.speaker}\u0000${statement.slot ?? ''}`,
    value: statement.value.toLowerCase(),
    time: statement.validFrom,
  }));
  const ends = supersededAt(stated, stated);
  slotted.forEach((statement, index) => (statement.validTo = ends[index] ?? null));
}

type Ends = Pick<GraphRelation, 'subjectId' | 'objectId'>;

function statedBy(rule: SingleValuedRelation, ends: Ends, time: string): Stated {
  const byObject = rule.by === 'object';
  return {
    group: `${rule.slot}\u0000${byObject ? ends.objectId : ends.subjectId}`,
    value: byObject ? ends.subjectId : ends.objectId,
    time,
  };
}

/** The single-valued rule a relation falls under (SVO relations only), else undefined. */
function singleValuedRule(graph: KnowledgeGraph, relation: GraphRelation): SingleValuedRelation | undefined {
  if (relation.kind !== 'svo') return undefined;
  return singleValuedRelation(graph.schema, relation.predicate, graph.entities.get(relation.objectId)?.type);
}

/** A closed fact whose relation is gone: judged by its own predicate. */
function factRule(graph: KnowledgeGraph, fact: GraphFact): SingleValuedRelation | undefined {
  return singleValuedRelation(graph.schema, fact.predicate, graph.entities.get(fact.objectId)?.type);
}

const NEGATIONS = new Set(['not', 'never', "n't", 'no']);

/** Rule look-ups by schema, predicate and object type: a build asks again for every fact, with few distinct predicates. */
const ruleCache = new WeakMap<OntologySchema, Map<string, SingleValuedRelation | null>>();
const RULE_CACHE_LIMIT = 50_000;

/** The single-valued relation `predicate` states (see `SingleValuedRelation`), if any; negated predicates none. */
export function singleValuedRelation(
  schema: OntologySchema,
  predicate: string,
  objectType: string | undefined,
): SingleValuedRelation | undefined {
  let cache = ruleCache.get(schema);
  if (!cache) ruleCache.set(schema, (cache = new Map()));
  const key = `${predicate}\u0000${objectType ?? ''}`;
  const known = cache.get(key);
  if (known !== undefined) return known ?? undefined;
  const rule = findRule(schema, predicate, objectType);
  if (cache.size >= RULE_CACHE_LIMIT) cache.clear();
  cache.set(key, rule ?? null);
  return rule;
}

function findRule(schema: OntologySchema, predicate: string, objectType: string | undefined): SingleValuedRelation | undefined {
  const words = predicate.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.some((word) => NEGATIONS.has(word))) return undefined;
  const stems = new Set(words.flatMap(stemsOf));
  return (schema.singleValued ?? []).find((rule) => {
    if (!rule.verbs.some((verb) => stems.has(verb))) return false;
    if (rule.words && !rule.words.every((word) => words.includes(word))) return false;
    return !rule.objectTypes || (objectType !== undefined && rule.objectTypes.includes(objectType));
  });
}

const IRREGULAR: Readonly<Record<string, string>> = {
  is: 'be',
  are: 'be',
  was: 'be',
  were: 'be',
  been: 'be',
  being: 'be',
  am: 'be',
  "'s": 'be',
  became: 'become',
  becomes: 'become',
  ran: 'run',
  runs: 'run',
  wed: 'wed',
};

/** The forms a verb may be the inflection of ("lived" → live, "married" → marry): cheap, no lemmatiser. */
function stemsOf(word: string): string[] {
  const irregular = IRREGULAR[word];
  if (irregular) return [irregular];
  const stems = [word];
  const cut = (suffix: string, add = '') => {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) stems.push(word.slice(0, -suffix.length) + add);
  };
  cut('s');
  cut('es');
  cut('ies', 'y');
  cut('ied', 'y');
  cut('ed');
  cut('d');
  cut('ing');
  cut('ing', 'e');
  return stems;
}

/**
 * For each query, the earliest time after its own at which its group states another value (null: never).
 * Events and queries are swept latest first, so this is O(n log n) over any number of statements.
 */
export function supersededAt(events: readonly Stated[], queries: readonly Stated[]): Array<string | null> {
  const answers = new Array<string | null>(queries.length).fill(null);
  const byGroup = new Map<string, { events: Stated[]; queries: number[] }>();
  const groupOf = (group: string) => {
    let entry = byGroup.get(group);
    if (!entry) byGroup.set(group, (entry = { events: [], queries: [] }));
    return entry;
  };
  for (const event of events) groupOf(event.group).events.push(event);
  queries.forEach((query, index) => groupOf(query.group).queries.push(index));
  for (const { events: groupEvents, queries: indexes } of byGroup.values()) {
    if (indexes.length === 0 || groupEvents.length < 2) continue;
    sweepGroup(groupEvents, indexes, queries, answers);
  }
  return answers;
}

/** The latest-first sweep's state: the earliest later statement, and the earliest later time of another value than its. */
interface Sweep {
  best: Stated | undefined;
  other: string | null;
}

/** One group: queries latest first, taking in the statements later than each before answering it. */
function sweepGroup(events: Stated[], indexes: number[], queries: readonly Stated[], answers: Array<string | null>): void {
  events.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
  indexes.sort((a, b) => ((queries[a]?.time ?? '') < (queries[b]?.time ?? '') ? 1 : -1));
  const sweep: Sweep = { best: undefined, other: null };
  let at = 0;
  for (const index of indexes) {
    const query = queries[index] as Stated;
    while (at < events.length && (events[at] as Stated).time > query.time) at = takeBatch(events, at, sweep);
    if (sweep.best) answers[index] = sweep.best.value !== query.value ? sweep.best.time : sweep.other;
  }
}

/** Takes in the statements of one time from `at`; answers where the next time starts. */
function takeBatch(events: readonly Stated[], at: number, sweep: Sweep): number {
  const time = (events[at] as Stated).time;
  const batch: Stated[] = [];
  while (at < events.length && (events[at] as Stated).time === time) batch.push(events[at++] as Stated);
  const first = batch[0] as Stated;
  if (batch.some((event) => event.value !== first.value)) sweep.other = time;
  else if (sweep.best && sweep.best.value !== first.value) sweep.other = sweep.best.time;
  sweep.best = first;
  return at;
}

function later(a: string, b: string): string {
  if (a > b) return a;
  return b;
}

function earlier(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
}
