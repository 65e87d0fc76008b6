/** The LoCoMo benchmark's printed markdown: reference rows, then kmem overall and per category. */
import { machineFacts } from '../support/report';
import { DEPTHS, type Depth, type Recalls, type RecallRow } from './recall';

interface Reference {
  system: string;
  recalls: Partial<Recalls>;
}

/** Published and measured figures from ../shared/bench-data/README.md (as fractions). */
const REFERENCES: readonly Reference[] = [
  {
    system: 'DRAGON dense retriever (LoCoMo paper, Table 3; all 10 conversations)',
    recalls: { 5: 0.588, 10: 0.675, 25: 0.799, 50: 0.848 },
  },
  { system: 'plain BM25 over turns (measured; dev + held-out, all 10)', recalls: { 5: 0.556, 10: 0.623, 25: 0.694, 50: 0.742 } },
];

/** The issue's targets on the development split. */
const TARGETS: ReadonlyArray<{ depth: Depth; target: number }> = [
  { depth: 5, target: 0.65 },
  { depth: 10, target: 0.75 },
];

/** One system's rows (overall, then per category): memory retrieval or message search, on one load. */
export interface SystemRows {
  name: string;
  rows: readonly RecallRow[];
}

export interface LocomoReport {
  command: string;
  conversations: number;
  turns: number;
  /** The first is held to the targets (memory retrieval, turns spaced apart). */
  systems: readonly SystemRows[];
  importMs: number;
  queryMs: number;
  wallMs: number;
  notes: readonly string[];
}

export function renderReport(report: LocomoReport): string {
  const header = DEPTHS.map((depth) => `R@${depth}`);
  const overall = report.systems[0]?.rows[0]?.recalls;
  const verdict = TARGETS.map(({ depth, target }) => {
    const value = overall?.[depth] ?? 0;
    return `R@${depth} ${fraction(value)} ≥ ${target}: ${value >= target ? 'met' : 'not met'}`;
  }).join('; ');
  return [
    '## kmem on LoCoMo (development split, dialog turns, local runtime)',
    '',
    ...machineFacts(),
    `- command: \`${report.command}\``,
    `- ${report.conversations} conversations, ${report.turns} turns loaded as messages through the API per load; ${report.systems[0]?.rows[0]?.questions ?? 0} questions`,
    '',
    `| system | questions | ${header.join(' | ')} |`,
    `|---|---:|${header.map(() => '---:').join('|')}|`,
    ...REFERENCES.map(
      (reference) => `| ${reference.system} | | ${DEPTHS.map((depth) => fraction(reference.recalls[depth])).join(' | ')} |`,
    ),
    ...report.systems.flatMap((system) =>
      system.rows.map((row, i) => {
        const label = i === 0 ? `**${system.name}, ${row.label}**` : `${system.name}, ${row.label}`;
        return `| ${label} | ${row.questions} | ${DEPTHS.map((depth) => (i === 0 ? `**${fraction(row.recalls[depth])}**` : fraction(row.recalls[depth]))).join(' | ')} |`;
      }),
    ),
    '',
    `Targets (${report.systems[0]?.name ?? ''}): ${verdict}.`,
    '',
    `Wall time: ${seconds(report.wallMs)} s (import and indexing ${seconds(report.importMs)} s, questions ${seconds(report.queryMs)} s).`,
    ...report.notes,
  ].join('\n');
}

function fraction(value: number | undefined): string {
  return value === undefined ? '' : value.toFixed(3);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
