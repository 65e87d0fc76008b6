/**
 * k-fold cross-validation of the ranking constants on LoCoMo (`bench:locomo -- --cv K`), over the first
 * load's memories; `--cv-grid time` cross-validates the time prior's weights instead
 * (engine/retrieval/time-prior.ts: only questions that name or ask for a time are ranked again). Question `position mod K` (in the order asked, all conversations) is its fold. Every
 * grid point ranks every question once (engine.ts, the API's `retrieve`); folds are arithmetic over the
 * per-question R@5:
 * - fitted: the defaults over all questions;
 * - defaults, held-out folds: the defaults' R@5 per fold, mean ± standard deviation over the folds;
 * - refit per fold: the grid point with the best all-questions R@5 on the other K-1 folds, scored on
 *   the held-out fold.
 * Rows: all questions, then each category (refit chooses by all questions, as a tuner would).
 */
import type { RankParamOverrides } from '../../functions/engine/retrieval/params';
import { DEFAULT_TIME_PRIOR, type TimePriorParams } from '../../functions/engine/retrieval/time-prior';
import { asksForTime, timeSpansIn } from '../../functions/engine/text/time-expressions';
import type { Engine } from './engine';
import type { ImportedConversation } from './import-conversation';
import { questionRecalls } from './recall';

interface GridPoint {
  label: string;
  params: RankParamOverrides;
  timePrior?: Partial<TimePriorParams>;
}

export type CrossValidationGrid = 'rank' | 'time';

const SEMANTIC_WEIGHTS = [0.2, 0.35, 0.5];
const SENTENCE_WEIGHTS = [0.2, 0.4, 0.6];
const TEXT_B = [0.3, 0.5, 0.75];
const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

const HALF_AT = [1, 0.5, 0.25];
const NEAR_WEIGHTS = [0.5, 1, 2];
const STATES_WEIGHTS = [0.5, 1, 2];

function timeGrid(): GridPoint[] {
  const points: GridPoint[] = [{ label: 'defaults', params: {} }];
  for (const halfAt of HALF_AT)
    for (const nearWeight of NEAR_WEIGHTS)
      for (const statesWeight of STATES_WEIGHTS)
        points.push({
          label: `halfAt ${halfAt}, nearWeight ${nearWeight}, statesWeight ${statesWeight}`,
          params: {},
          timePrior: { halfAt, nearWeight, statesWeight },
        });
  return points;
}

function grid(): GridPoint[] {
  const points: GridPoint[] = [{ label: 'defaults', params: {} }];
  for (const semanticWeight of SEMANTIC_WEIGHTS)
    for (const weight of SENTENCE_WEIGHTS)
      for (const b of TEXT_B)
        points.push({
          label: `semanticWeight ${semanticWeight}, sentences.weight ${weight}, text.b ${b}`,
          params: { semanticWeight, sentences: { weight }, text: { b } },
        });
  return points;
}

interface Question {
  memory: ImportedConversation;
  text: string;
  evidence: readonly string[];
  category: number;
}

/** Each question's R@5 at `point`; `same` (the defaults') for the questions the point cannot change. */
async function recallsAtFive(
  engine: Engine,
  questions: readonly Question[],
  point: GridPoint,
  same?: { recalls: readonly number[]; changes: (question: Question) => boolean },
): Promise<number[]> {
  const recalls: number[] = [];
  for (const [position, question] of questions.entries()) {
    const { memory, text, evidence } = question;
    if (same && !same.changes(question)) {
      recalls.push(same.recalls[position] ?? 0);
      continue;
    }
    const ranked = await engine.rank(memory.accountId, memory.memoryId, text, 5, point.params, point.timePrior);
    const diaIds = ranked.messageIds.map((id) => memory.diaIdOf.get(id) ?? id);
    recalls.push(questionRecalls(evidence, diaIds)[5]);
  }
  return recalls;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

function meanAndSpread(values: readonly number[]): string {
  const average = mean(values);
  return `${average.toFixed(3)} ± ${Math.sqrt(mean(values.map((value) => (value - average) ** 2))).toFixed(3)}`;
}

/** The cross-validation table's lines (see the module comment). */
export async function crossValidateLocomo(
  engine: Engine,
  imported: readonly ImportedConversation[],
  folds: number,
  which: CrossValidationGrid = 'rank',
): Promise<string[]> {
  const questions: Question[] = imported.flatMap((memory) =>
    memory.conversation.questions.map((question) => ({
      memory,
      text: question.question,
      evidence: question.evidence,
      category: question.category,
    })),
  );
  const points = which === 'time' ? timeGrid() : grid();
  const recalls: number[][] = [];
  // a time prior changes only the ranking of a question that names or asks for a time
  const timed = (question: Question) => asksForTime(question.text) || timeSpansIn(question.text, new Date()).length > 0;
  for (const point of points) {
    const defaults = recalls[0];
    const same = which === 'time' && defaults ? { recalls: defaults, changes: timed } : undefined;
    recalls.push(await recallsAtFive(engine, questions, point, same));
  }
  const fold = (position: number): number => position % folds;
  const groups: Array<{ label: string; member: (question: Question) => boolean }> = [
    { label: 'all', member: () => true },
    ...[...new Set(questions.map((question) => question.category))]
      .sort((a, b) => a - b)
      .map((category) => ({
        label: `${category} ${CATEGORY_NAMES[category] ?? ''}`.trim(),
        member: (question: Question) => question.category === category,
      })),
  ];
  const scoreOf = (point: number, keep: (position: number) => boolean, group: (question: Question) => boolean): number =>
    mean((recalls[point] ?? []).filter((_, position) => keep(position) && group(questions[position]!)));
  const chosen = Array.from({ length: folds }, (_, held) => {
    let best = 0;
    points.forEach((_, point) => {
      if (
        scoreOf(
          point,
          (p) => fold(p) !== held,
          () => true,
        ) >
        scoreOf(
          best,
          (p) => fold(p) !== held,
          () => true,
        ) +
          1e-9
      )
        best = point;
    });
    return best;
  });
  const lines = [
    `### ${folds}-fold cross-validation of R@5 (memory retrieval, first load)`,
    '',
    '| questions | count | fitted (defaults, all questions) | defaults, held-out folds | refit per fold, held-out folds |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const group of groups) {
    const heldDefaults = chosen.map((_, held) => scoreOf(0, (p) => fold(p) === held, group.member));
    const heldRefit = chosen.map((point, held) => scoreOf(point, (p) => fold(p) === held, group.member));
    const count = questions.filter(group.member).length;
    lines.push(
      `| ${group.label} | ${count} | ${scoreOf(0, () => true, group.member).toFixed(3)} | ${meanAndSpread(heldDefaults)} | ${meanAndSpread(heldRefit)} |`,
    );
  }
  lines.push(
    '',
    which === 'time'
      ? `Refit grid (time prior; defaults ${JSON.stringify(DEFAULT_TIME_PRIOR)}): halfAt ${HALF_AT.join('/')}, nearWeight ${NEAR_WEIGHTS.join('/')}, statesWeight ${STATES_WEIGHTS.join('/')}; chosen by all-questions R@5 on the other folds:`
      : `Refit grid: semanticWeight ${SEMANTIC_WEIGHTS.join('/')}, sentences.weight ${SENTENCE_WEIGHTS.join('/')}, text.b ${TEXT_B.join('/')}; chosen by all-questions R@5 on the other folds:`,
  );
  chosen.forEach((point, held) => lines.push(`- fold ${held + 1}: ${points[point]?.label ?? ''}`));
  lines.push('', '| grid point (fitted: all questions) | ' + groups.map((group) => group.label).join(' | ') + ' |');
  lines.push(`|---|${groups.map(() => '---:').join('|')}|`);
  points.forEach((point, index) =>
    lines.push(`| ${point.label} | ${groups.map((group) => scoreOf(index, () => true, group.member).toFixed(3)).join(' | ')} |`),
  );
  return [...lines, ''];
}
