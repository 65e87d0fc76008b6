/**
 * LoCoMo Recall@k (the data README's protocol): the share of a question's evidence dia_ids found among
 * the top-k retrieved turns of its conversation; a question without evidence counts 1; an evidence id
 * that names no turn (malformed) is simply never found. Averaged over all questions and per category.
 */
export const DEPTHS = [5, 10, 25, 50] as const;
export type Depth = (typeof DEPTHS)[number];
export type Recalls = Record<Depth, number>;

const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface ScoredQuestion {
  category: number;
  recalls: Recalls;
}

export interface RecallRow {
  label: string;
  questions: number;
  recalls: Recalls;
}

/** Recall@k of one question at every depth, from its dia_ids ranked best first. */
export function questionRecalls(evidence: readonly string[], ranked: readonly string[]): Recalls {
  const gold = new Set(evidence);
  return atEveryDepth((depth) => {
    if (gold.size === 0) return 1;
    const top = new Set(ranked.slice(0, depth));
    let found = 0;
    for (const id of gold) if (top.has(id)) found++;
    return found / gold.size;
  });
}

/** The overall row, then one row per category id present (ascending). */
export function recallRows(scored: readonly ScoredQuestion[]): RecallRow[] {
  const categories = [...new Set(scored.map((question) => question.category))].sort((a, b) => a - b);
  return [
    { label: 'all', questions: scored.length, recalls: mean(scored) },
    ...categories.map((category) => {
      const members = scored.filter((question) => question.category === category);
      return { label: `${category} ${CATEGORY_NAMES[category] ?? ''}`.trim(), questions: members.length, recalls: mean(members) };
    }),
  ];
}

function mean(scored: readonly ScoredQuestion[]): Recalls {
  return atEveryDepth((depth) =>
    scored.length === 0 ? 0 : scored.reduce((sum, question) => sum + question.recalls[depth], 0) / scored.length,
  );
}

function atEveryDepth(value: (depth: Depth) => number): Recalls {
  return { 5: value(5), 10: value(10), 25: value(25), 50: value(50) };
}
