/** Relevance of short texts to a query (sentence-scorer.ts): idf coverage of distinct terms, kept per text. */
import { describe, expect, it } from 'vitest';
import { buildSegment } from '../../../functions/engine/lexical/segment';
import { termIdf } from '../../../functions/engine/retrieval/lexical-scorer';
import { queryModel, textRelevance } from '../../../functions/engine/retrieval/sentence-scorer';

const docs = [
  { id: 'a', fileId: 'f', text: 'Aspirin lowers the risk of stroke in older adults.' },
  { id: 'b', fileId: 'f', text: 'Statins lower cholesterol.' },
  { id: 'c', fileId: 'f', text: 'Exercise improves sleep and mood.' },
];

describe('textRelevance', () => {
  const segment = buildSegment(docs, { language: 'en' });
  const model = queryModel(segment, 'aspirin stroke risk');
  const idf = (term: string) => Math.max(termIdf(segment, term), 0.1);
  const total = idf('aspirin') + idf('stroke') + idf('risk');

  it('is the share of the query idf whose terms the text holds, each term once', () => {
    expect(textRelevance(model, 'Aspirin and stroke.')).toBeCloseTo((idf('aspirin') + idf('stroke')) / total, 12);
    expect(textRelevance(model, 'Aspirin, aspirin, aspirin: stroke risk!')).toBeCloseTo(1, 12);
    expect(textRelevance(model, 'Nothing in common here.')).toBe(0);
  });

  it('gives the same value when a text is scored again, and for another index read the same way', () => {
    const text = 'Stroke risk fell with aspirin use, and stroke deaths too.';
    const first = textRelevance(model, text);
    expect(textRelevance(model, text)).toBe(first);
    // a later version of the memory: one more doc, so other idf values; the text's terms are the kept ones
    const later = buildSegment([...docs, { id: 'd', fileId: 'g', text: 'Stroke units save lives.' }], { language: 'en' });
    const laterModel = queryModel(later, 'aspirin stroke risk');
    const laterIdf = (term: string) => Math.max(termIdf(later, term), 0.1);
    const laterTotal = laterIdf('aspirin') + laterIdf('stroke') + laterIdf('risk');
    expect(textRelevance(laterModel, text)).toBeCloseTo(1, 12);
    expect(textRelevance(laterModel, 'aspirin only')).toBeCloseTo(laterIdf('aspirin') / laterTotal, 12);
  });

  it('reads a text with the analyzer of the index, not one kept for another analyzer', () => {
    const text = 'Strokes and risks of aspirins';
    const stemmed = queryModel(segment, 'stroke risk aspirin');
    expect(textRelevance(stemmed, text)).toBeCloseTo(1, 12);
    const unstemmed = buildSegment(docs, { language: 'en', stem: false });
    const plain = queryModel(unstemmed, 'stroke risk aspirin');
    expect(textRelevance(plain, text)).toBe(0);
  });
});
