/**
 * Measures entity-matching thresholds on the labelled pairs of `alias-pairs.ts`: precision and
 * recall of `matchReason` (see `entity-match.ts`) over a grid of Jaro-Winkler, trigram-Dice and
 * word-vector thresholds, and at the chosen defaults with a count per rule.
 */
import { DEFAULT_MATCH_THRESHOLDS, matchReason, type MatchReason, type MatchThresholds, type NameForm } from './entity-match';
import { ALIAS_PAIRS, type LabelledPair } from './alias-pairs';
import { looksLikeAcronym, normalizeKey, singularKey } from './normalize';
import { createSurnameTest, type WordVectors } from './word-vector-typing';

export interface PairScore {
  readonly thresholds: MatchThresholds;
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

export interface CalibrationOptions {
  readonly vectors?: WordVectors;
  readonly organizationHeads: ReadonlySet<string>;
  readonly personTypes: ReadonlySet<string>;
  readonly pairs?: readonly LabelledPair[];
}

/** Name form of a labelled surface, keyed the way extraction keys it. */
export function formOf(surface: string, kind: LabelledPair['kind'], type?: string): NameForm {
  const key = kind === 'phrase' ? singularKey(surface) : normalizeKey(surface);
  return { key, kind, acronymShaped: kind === 'name' && looksLikeAcronym(surface), ...(type === undefined ? {} : { type }) };
}

/** Precision and recall of matching at `thresholds`. */
export function scorePairs(thresholds: MatchThresholds, options: CalibrationOptions): PairScore {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  for (const pair of options.pairs ?? ALIAS_PAIRS) {
    const predicted = decide(pair, thresholds, options) !== undefined;
    if (predicted && pair.same) truePositives++;
    else if (predicted) falsePositives++;
    else if (pair.same) falseNegatives++;
  }
  const precision = truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives);
  const recall = truePositives + falseNegatives === 0 ? 1 : truePositives / (truePositives + falseNegatives);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { thresholds, truePositives, falsePositives, falseNegatives, precision, recall, f1 };
}

function decide(pair: LabelledPair, thresholds: MatchThresholds, options: CalibrationOptions): MatchReason | undefined {
  const vectors = options.vectors ? { vectors: options.vectors, isSurnameLike: surnameTest(options.vectors) } : {};
  const context = { thresholds, organizationHeads: options.organizationHeads, personTypes: options.personTypes, ...vectors };
  return matchReason(formOf(pair.a, pair.kind, pair.type), formOf(pair.b, pair.kind, pair.type), context);
}

const surnameTests = new WeakMap<WordVectors, (word: string) => boolean>();

function surnameTest(vectors: WordVectors): (word: string) => boolean {
  let test = surnameTests.get(vectors);
  if (test === undefined) surnameTests.set(vectors, (test = createSurnameTest(vectors)));
  return test;
}

/** Scores over a grid around the defaults: one axis varied at a time. */
export function thresholdGrid(options: CalibrationOptions): { axis: keyof MatchThresholds; scores: PairScore[] }[] {
  const axes: Array<[keyof MatchThresholds, number[]]> = [
    ['jaroWinkler', [0.85, 0.88, 0.9, 0.92, 0.93, 0.94, 0.96, 0.98]],
    ['trigramDice', [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]],
    ['vectorCosine', [0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]],
  ];
  return axes.map(([axis, values]) => ({
    axis,
    scores: values.map((value) => scorePairs({ ...DEFAULT_MATCH_THRESHOLDS, [axis]: value }, options)),
  }));
}

/** Every labelled pair with the rule that matched it (or undefined), at `thresholds`. */
export function explainPairs(
  thresholds: MatchThresholds,
  options: CalibrationOptions,
): Array<LabelledPair & { reason: MatchReason | undefined }> {
  return (options.pairs ?? ALIAS_PAIRS).map((pair) => ({ ...pair, reason: decide(pair, thresholds, options) }));
}
