/**
 * Published and measured reference figures beside which kmem's rows are printed (from
 * ../shared/bench-data/README.md), and the targets of the retrieval issue. Figures are fractions.
 */
import type { BenchmarkName } from './datasets';

export interface ReferenceRow {
  system: string;
  split: string;
  metrics: Record<string, number>;
}

export const REFERENCES: Record<BenchmarkName, ReferenceRow[]> = {
  scifact: [
    { system: 'all-MiniLM-L6-v2 (MTEB)', split: 'test, published', metrics: { 'nDCG@10': 0.645, 'R@10': 0.783, 'R@100': 0.925 } },
    { system: 'BM25 Anserini multifield', split: 'test, published', metrics: { 'nDCG@10': 0.665 } },
    { system: 'BM25 Anserini flat', split: 'test, published', metrics: { 'nDCG@10': 0.679 } },
    { system: 'target (offline default)', split: 'dev', metrics: { 'nDCG@10': 0.7 } },
  ],
  musique: [
    { system: 'BM25', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.412 } },
    { system: 'Contriever', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.466 } },
    { system: 'ColBERTv2', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.492 } },
    { system: 'HippoRAG (ColBERTv2)', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.519 } },
    { system: 'HippoRAG 2 (70B LLM + 7B embedder, GPU)', split: 'published', metrics: { 'R@5': 0.747 } },
    { system: 'plain BM25, no stemming', split: 'this subset, measured', metrics: { 'R@2': 0.382, 'R@5': 0.489 } },
    { system: 'target (offline default)', split: 'this subset', metrics: { 'R@5': 0.56 } },
  ],
  hotpotqa: [
    { system: 'BM25', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.722 } },
    { system: 'Contriever', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.755 } },
    { system: 'ColBERTv2', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.793 } },
    { system: 'HippoRAG (ColBERTv2)', split: 'HippoRAG 1000-q test, published', metrics: { 'R@5': 0.777 } },
    { system: 'HippoRAG 2 (70B LLM + 7B embedder, GPU)', split: 'published', metrics: { 'R@5': 0.963 } },
    { system: 'plain BM25, no stemming', split: 'this subset, measured', metrics: { 'R@2': 0.565, 'R@5': 0.76 } },
    { system: 'target (offline default)', split: 'this subset', metrics: { 'R@5': 0.82 } },
  ],
};
