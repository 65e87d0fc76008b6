/** A small hand-written corpus for the graph tests: three short "files" per ontology. */
import type { GraphFileInput } from '../../../functions/engine/graph/graph-build';

const file = (fileId: string, ...texts: string[]): GraphFileInput => ({
  fileId,
  chunks: texts.map((text, index) => ({ id: `${fileId}#${index}`, text })),
});

/** Culture: Curie and Warsaw; IBM; a later file that mentions Curie and IBM again. */
export const CULTURE_FILES = {
  curie: file(
    'f-curie',
    'Physicist Marie Curie was born in Warsaw in 1867. Curie moved to Paris and taught at the University of Paris.',
    'In 1903, Curie won the Nobel Prize in Physics. The Curie Museum in Warsaw celebrates her work.',
  ),
  ibm: file(
    'f-ibm',
    'International Business Machines (IBM) was founded in New York in 1911. IBM later built the Watson computer.',
    'President Barack Obama visited the World Health Organization in Geneva. Obama praised the WHO for its work.',
  ),
  later: file(
    'f-later',
    'Curie was the first woman to win a Nobel Prize. Her daughter studied in Paris.',
    'IBM opened a laboratory in Zurich. The singer Madonna released the album Like a Virgin in 1984.',
  ),
} as const;

/** Two people named Curie in one file: the bare surname is ambiguous there. */
export const TWO_CURIES = file('f-two', 'Physicist Marie Curie met physicist Pierre Curie in Paris. Curie was a teacher.');

/** A two-hop chain for PageRank: Alpha links to Bravo (chunk a), Bravo to Charlie (chunk b); chunk c is unrelated. */
export const CHAIN_FILES = [
  file('f-a', 'Alphonse Rigaud founded Bravura Industries in Lyon.'),
  file('f-b', 'Bravura Industries built the Charlemagne Tower in Marseille.'),
  file('f-c', 'Delphine Ostrova painted the Orchard Gate in Riga.'),
] as const;

export const SUPPORT_FILE = file(
  'f-ticket',
  'Customer Globex Corp reported ERR_SYNC_TIMEOUT in the Export dashboard after upgrading to version 4.2.1. The workaround is to restart the sync service.',
);

export const ESSAY_FILE = file('f-essay', 'Philosopher Hannah Arendt argues that totalitarian movements depend on mass loneliness.');
