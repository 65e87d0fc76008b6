/** The word lists the built-in ontologies type mentions by: titles, roles, head nouns, cues and exemplars. */
export const words = (list: string, type: string): Record<string, string> =>
  Object.fromEntries(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => [word, type]),
  );

export const PERSON_TITLES =
  'mr mrs ms miss dr doctor president king queen prince princess sir lord lady saint pope emperor empress general captain colonel professor prof senator governor bishop archbishop cardinal judge justice chancellor minister mayor sheikh sultan tsar czar duke duchess count countess baron rabbi imam reverend rev father sister brother uncle aunt';
export const PERSON_ROLES =
  'singer songwriter actor actress author writer poet composer painter artist director producer musician rapper novelist philosopher journalist player coach footballer politician scientist physicist chemist economist historian photographer architect sculptor dancer comedian guitarist drummer pianist';
export const ORG_HEADS =
  'university college institute school academy company corporation corp inc ltd llc plc co group association society council committee party organization organisation agency department ministry bank foundation club fc records studios network league federation union orchestra army navy parliament congress senate airlines press publishers gmbh ag sa';
export const PLACE_HEADS =
  'museum gallery library theatre theater city county river lake mountain mount mountains island islands province district street avenue road bridge park valley bay sea ocean desert kingdom republic region village town airport station square forest peninsula coast hills falls canyon castle palace cathedral temple stadium arena state states';
export const EVENT_HEADS =
  'war battle revolution election elections festival olympics games championship championships cup tournament summit crisis massacre rebellion uprising siege awards expo';
export const WORK_HEADS = 'symphony concerto sonata opera album trilogy saga chronicles journal magazine gazette';
export const WORK_CUES =
  'album film movie song single novel book play opera painting poem series show sitcom documentary musical magazine newspaper episode track ep novella memoir essay anthology videogame';

/** Exemplar words per type for word-vector typing (`word-vector-typing.ts` takes the top-3 mean cosine). */
export const PROTOTYPES = {
  person: words(
    'john mary david michael robert james george elizabeth william charles anna maria peter paul smith johnson williams brown singer actor politician writer',
    'x',
  ),
  place: words(
    'london paris berlin moscow tokyo rome madrid chicago texas california germany france india china ohio toronto sydney village province county',
    'x',
  ),
  organization: words('microsoft google ibm sony ford company university corporation bank party club agency ministry council airline', 'x'),
  work: words('album film song novel movie series single opera sitcom episode soundtrack poem', 'x'),
};
export const exemplars = (type: keyof typeof PROTOTYPES): readonly string[] => Object.keys(PROTOTYPES[type]);
