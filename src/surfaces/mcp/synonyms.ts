/**
 * How people in a studio say things, mapped to the words the catalog uses. Applied to search queries only (the index
 * keeps the catalog's own words), so "remove the oak chair" also finds archive_line, and "PO" finds purchase orders.
 * Keys are single query words after lower-casing and plural folding (see `fold`); values are catalog words.
 */
export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // places
  room: ['section'],
  space: ['section'],
  area: ['section'],
  zone: ['section'],
  group: ['section'],
  heading: ['section', 'line'],
  // what is specified
  item: ['line'],
  product: ['line'],
  piece: ['line'],
  thing: ['line'],
  furniture: ['line'],
  fixture: ['line'],
  fitting: ['line'],
  sofa: ['line'],
  chair: ['line'],
  armchair: ['line'],
  lamp: ['line'],
  light: ['line'],
  pendant: ['line'],
  rug: ['line'],
  cushion: ['line'],
  curtain: ['line'],
  mirror: ['line'],
  bed: ['line'],
  desk: ['line'],
  stool: ['line'],
  cabinet: ['line'],
  wardrobe: ['line'],
  // rooms, named when someone means the section
  kitchen: ['section'],
  bedroom: ['section'],
  bathroom: ['section'],
  lounge: ['section'],
  hall: ['section'],
  row: ['line'],
  entry: ['line'],
  ffe: ['line', 'schedule'],
  // pictures
  photo: ['photograph'],
  picture: ['photograph'],
  image: ['photograph'],
  pic: ['photograph'],
  shot: ['photograph'],
  // money and documents
  quote: ['estimate'],
  quotation: ['estimate'],
  proposal: ['estimate'],
  po: ['purchase', 'order'],
  buy: ['purchase', 'order'],
  order: ['purchase'],
  invoice: ['accounting', 'invoice'],
  budget: ['total'],
  sum: ['total'],
  cost: ['price', 'trade', 'line'],
  price: ['price', 'line'],
  pricing: ['price', 'line'],
  spend: ['total'],
  rate: ['price'],
  // a line's fields, named when someone wants to change one
  quantity: ['quantity', 'line', 'field'],
  qty: ['quantity', 'line', 'field'],
  finish: ['finish', 'line', 'field'],
  colour: ['finish', 'line', 'field'],
  color: ['finish', 'line', 'field'],
  fabric: ['finish', 'line'],
  size: ['dimension', 'line', 'field'],
  dimension: ['dimension', 'line', 'field'],
  lead: ['lead', 'line', 'field'],
  brand: ['brand', 'line', 'field'],
  another: ['create', 'duplicate'],
  put: ['add', 'move'],
  fee: ['charge'],
  vendor: ['supplier'],
  manufacturer: ['supplier'],
  maker: ['supplier'],
  customer: ['client'],
  pdf: ['document'],
  spec: ['specification'],
  // acts
  delete: ['archive'],
  remove: ['archive', 'remove'],
  trash: ['archive'],
  bin: ['archive'],
  hide: ['archive'],
  drop: ['archive'],
  undelete: ['restore'],
  unarchive: ['restore'],
  undo: ['restore'],
  recover: ['restore'],
  revive: ['restore'],
  bring: ['restore'],
  copy: ['duplicate', 'copy'],
  clone: ['duplicate'],
  rename: ['update'],
  edit: ['update'],
  change: ['update'],
  modify: ['update'],
  tweak: ['update'],
  fix: ['update'],
  correct: ['update'],
  add: ['create', 'add'],
  new: ['create'],
  make: ['create'],
  start: ['create'],
  open: ['get'],
  show: ['list', 'get'],
  see: ['list', 'get'],
  view: ['list', 'get'],
  find: ['list', 'search'],
  look: ['get'],
  fetch: ['get'],
  detail: ['get'],
  relocate: ['move'],
  shift: ['move'],
  transfer: ['move', 'transfer'],
  reorder: ['reorder', 'move'],
  rearrange: ['reorder'],
  sort: ['reorder'],
  renumber: ['renumber', 'code'],
  number: ['code', 'renumber'],
  numbering: ['code', 'renumber'],
  mark: ['status', 'set'],
  stage: ['status'],
  progress: ['status'],
  approve: ['status'],
  // people and access
  team: ['member'],
  colleague: ['member'],
  staff: ['member'],
  people: ['member'],
  person: ['member'],
  teammate: ['member'],
  user: ['member', 'user'],
  invite: ['invitation'],
  access: ['grant', 'access'],
  permission: ['permission', 'grant'],
  right: ['permission'],
  role: ['role', 'permission'],
  key: ['token'],
  apikey: ['api', 'token'],
  password: ['token'],
  me: ['current', 'user'],
  signed: ['current', 'user'],
  logged: ['current', 'user'],
  login: ['current', 'user'],
  own: ['owner'],
  owns: ['owner'],
  downgrade: ['update', 'level', 'role'],
  upgrade: ['update', 'level', 'role'],
  promote: ['update', 'role'],
  demote: ['update', 'role'],
  myself: ['current', 'user'],
  profile: ['current', 'user'],
  workspace: ['studio'],
  company: ['studio'],
  practice: ['studio'],
  firm: ['studio'],
  business: ['studio'],
  // records of change
  history: ['history', 'audit', 'event'],
  log: ['audit', 'event'],
  activity: ['audit', 'event'],
  trail: ['audit'],
  recorded: ['audit', 'event'],
  changed: ['audit', 'history'],
  // project words
  job: ['project'],
  scheme: ['project'],
  column: ['custom', 'property'],
  // how a person arranges their own screens (interface state)
  wider: ['width', 'layout'],
  widen: ['width', 'layout'],
  narrower: ['width', 'layout'],
  resize: ['width', 'layout'],
  onboarding: ['first', 'run'],
  tour: ['first', 'run'],
  walkthrough: ['first', 'run'],
  welcome: ['first', 'run'],
  field: ['custom', 'property'],
  attribute: ['custom', 'property'],
  setting: ['setting'],
  preference: ['setting'],
  default: ['setting', 'default'],
  usage: ['usage'],
  limit: ['usage'],
  share: ['share'],
  link: ['share'],
  template: ['template'],
  // where a project is: studios name jobs by the home they furnish
  flat: ['project'],
  apartment: ['project'],
  house: ['project'],
  home: ['project'],
  paperwork: ['document'],
  // what a supplier sends back
  reply: ['response'],
  replied: ['response'],
  answer: ['response'],
  // stopping and taking back
  halt: ['cancel'],
  abort: ['cancel'],
  retract: ['withdraw', 'void'],
  allowed: ['permission'],
  allow: ['permission'],
  permitted: ['permission'],
  compact: ['density', 'layout'],
  dense: ['density', 'layout'],
  spacious: ['density', 'layout'],
};

const STOP_WORDS = new Set(
  'a an the to of for in on at by with from into onto and or but is are be been was were it its this that these those my our your their his her i we you they me us them can could would should will shall do does did please want need let lets all every each some any just also then than so up out as about what which when where how there here one two now have has had having being doing'.split(
    ' ',
  ),
);

/** Plural and simple inflection folding, the same on both sides so "rooms", "room" and "room's" meet. */
export function fold(term: string): string {
  let t = term.toLowerCase().replace(/'s$/, '');
  if (t.length > 4 && t.endsWith('ies')) t = `${t.slice(0, -3)}y`;
  else if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) t = t.slice(0, -1);
  return t;
}

/** A term as indexed: folded, or dropped when it is a stop word. */
export function indexTerm(term: string): string | null {
  // A stop word is dropped before folding too: folded, "this" and "does" would be the terms "thi" and "doe".
  if (STOP_WORDS.has(term.toLowerCase())) return null;
  const t = fold(term);
  return t.length < 2 || STOP_WORDS.has(t) ? null : t;
}

/** A term as searched: folded, plus the catalog words it stands for. */
export function queryTerms(term: string): string[] | null {
  const t = indexTerm(term);
  if (!t) return null;
  // hasOwn: "constructor" is a word a person may type, not a synonym entry.
  return Object.hasOwn(SYNONYMS, t) ? [t, ...SYNONYMS[t]!] : [t];
}
