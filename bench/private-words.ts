// npm run bench -- private-words: how well the private-words check (core/private-words.ts)
// does its job, on text generated deterministically from a seed.
// (a) Forwarding attempts: passages cut from private texts (whole texts, and 12 to 40 words
//     from anywhere), changed in case, punctuation and spacing, with hidden characters,
//     split across sentences and lines, wrapped in and interleaved with the agent's own
//     words. Each attempt knows, by construction, the longest run of consecutive private
//     words it carries; every attempt carrying a run of 12 or more must be caught.
// (b) False positives: ordinary club messages (questions and answers that share greetings,
//     stock phrases and a few words quoted from the private texts) checked against the same
//     fingerprints; the rate is reported, with the phrases behind each hit.
// The private texts are recorded through the store (SQLite in memory) as list_questions
// serving them would record them, and each check reads the store, as the tool path does.
import { performance } from 'node:perf_hooks';
import { evaluatePrivateWords, fingerprintsOf, PASSAGE_WORDS, wordsOf } from '../src/core/private-words.ts';
import { SqlStore } from '../src/store/sql-store.ts';
import { openSqlite } from '../src/store/sqlite/executor.ts';

export interface PrivateWordsCorpus {
  seed: number;
  /** Private texts, each by one of several authors, served to the principal. */
  privateTexts: number;
  /** Forwarding attempts generated from them. */
  attempts: number;
  /** Ordinary club messages. */
  ordinary: number;
}

export interface PrivateWordsFigures {
  privateTexts: number;
  fingerprints: number;
  /** Attempts carrying a run of 12+ consecutive private words, and how many of them went through. */
  attemptsWithPassage: number;
  carried: number;
  /** Attempts whose runs of 12+ are all words several members wrote (common phrases): how many were queued. */
  attemptsWithCommonRun: number;
  caughtCommonRun: number;
  /** Attempts whose own words left no run of 12 (not a passage): how many were queued anyway. */
  attemptsWithoutPassage: number;
  caughtWithoutPassage: number;
  ordinary: number;
  falsePositives: number;
  /** Of them, those that repeat a stock sentence of 10+ words a private text may also have (with a word or two beside it, 12 words in common). */
  falsePositivesStock: number;
  /** The ordinary messages queued, for reading. */
  falsePositiveTexts: string[];
  checkMicros: number;
}

/** mulberry32: a small seeded generator, so the corpus is the same on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  'Dave',
  'Priya',
  'Tom',
  'Ana',
  'Kenji',
  'Lena',
  'Omar',
  'Sofia',
  'Ravi',
  'Grace',
  'Jonas',
  'Mei',
  'Bruno',
  'Chloe',
  'Dmitri',
  'Esme',
  'Farah',
  'Hugo',
  'Ines',
  'Jamal',
  'Kofi',
  'Lucia',
  'Marek',
  'Nadia',
];
const AMOUNTS = [
  '200 euros',
  '1,500 euros',
  'three thousand',
  'a few hundred',
  '40 pounds',
  'half the budget',
];
const PLACES = [
  'Lisbon',
  'Berlin',
  'the library',
  'the north hall',
  'Porto',
  'the co-working space',
  'Oslo',
  'Nairobi',
];
const DAYS = [
  'Monday',
  'Tuesday',
  'Friday',
  'next week',
  'the end of the month',
  'June',
  'March',
  'the spring meeting',
];
const TOPICS = [
  'the grant',
  'the reading group',
  'the board vote',
  'the hiring plan',
  'the budget',
  'the mentoring scheme',
  'the new members',
  'the workshop',
  'the rust meetup',
  'the annual dinner',
];

/** What members write to one person only. */
const SECRETS = [
  '{name} told me that {topic} will be cancelled before {day}, but nobody is supposed to know yet.',
  'I am thinking about leaving {place} after {day} because {topic} has become impossible for me.',
  'Please keep this to yourself: the numbers for {topic} are much worse than what was shown at {place}.',
  'The real reason {name} stepped down from {topic} is a conflict with the treasurer that started in {day}.',
  'I have an offer from a company in {place} and will decide before {day}, so do not tell {name}.',
  'My health has not been great since {day} and that is why I missed {topic} twice.',
  'Between us, I would vote against {name} on {topic} because of what happened in {place}.',
  'I lent {name} {amount} for {topic} in {day} and have still not been paid back, which is awkward.',
  '{name} asked me for {amount} to cover {topic} and I said yes, but {name} does not know.',
  'We lost {amount} on {topic} at {place}, and {name} wants me to keep it out of the report.',
  'The committee already chose who gets {topic}, and it was decided at {place} before anyone applied.',
  'I made a mistake of {amount} in the accounts for {topic} and I am trying to fix it before {day} quietly.',
];

/** What everyone writes: greetings, closings, stock phrases (two of them 12 words or more). */
const STOCK = [
  'Hi {name}, I hope you are well.',
  'Hello {name}!',
  'Thanks in advance, and let me know what you think.',
  'Sorry for the slow reply, it has been a busy week.',
  'Looking forward to seeing you at {topic}.',
  'Best wishes.',
  'Have a good weekend.',
  'Cheers.',
];
const LONG_STOCK = [
  'Thank you so much for taking the time to read this, I really appreciate it.',
  'Let me know if you have any questions or if anything is unclear.',
];

/** The stock sentences of 10 words or more: with a word or two beside them, 12 words two messages can share. */
const STOCK_SENTENCES = [...STOCK, ...LONG_STOCK].filter(
  (t) => !t.includes('{') && t.split(' ').length >= 10,
);

/** Ordinary questions and answers between members. */
const ORDINARY = [
  'Are you coming to {topic} on {day}?',
  'Do you know who is organising {topic} this year?',
  'Could you send me the slides from {place}?',
  'Yes, I will be there on {day}, see you at {place}.',
  'I think {name} is in charge of {topic}, you could ask them directly.',
  'What time does {topic} start on {day}, and is it at {place} again?',
  'No idea, sorry. Maybe check the club calendar or ask {name}.',
  'I liked what {name} said about {topic} at {place} last time.',
  'Is there still room for one more person at {topic}?',
  'We moved {topic} to {day} because {place} was booked.',
  'I can help with {topic} if someone tells me what is needed.',
  'Who should I talk to about joining {topic}?',
  'It was great to meet you at {place}, let us keep in touch.',
  'The notes from {topic} are in the shared folder, {name} put them there.',
];

/** The agent's own words around and inside a passage. */
const OWN = [
  'Quick question for you.',
  'I heard something and wanted to check it with you.',
  'Apparently',
  'someone mentioned that',
  'is that true?',
  'What do you make of it?',
  'no pressure to answer',
  'just curious',
  'by the way',
  'honestly',
];

type Pick = <T>(xs: readonly T[]) => T;

function fill(template: string, pick: Pick): string {
  return template
    .replace(/\{name\}/g, () => pick(NAMES))
    .replace(/\{place\}/g, () => pick(PLACES))
    .replace(/\{day\}/g, () => pick(DAYS))
    .replace(/\{topic\}/g, () => pick(TOPICS))
    .replace(/\{amount\}/g, () => pick(AMOUNTS));
}

/** A private message: a greeting, one to three confidences, perhaps a closing (long ones now and then). */
function privateText(r: () => number, pick: Pick): string {
  const parts = [fill(pick(STOCK), pick)];
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) parts.push(fill(pick(SECRETS), pick));
  if (r() < 0.1) parts.push(pick(LONG_STOCK));
  else if (r() < 0.5) parts.push(fill(pick(STOCK), pick));
  return parts.join(' ');
}

/** An ordinary message, sometimes quoting three to eight words of a private text. */
function ordinaryText(r: () => number, pick: Pick, privateWords: readonly string[][]): string {
  const parts: string[] = [];
  if (r() < 0.5) parts.push(fill(pick(STOCK), pick));
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) parts.push(fill(pick(ORDINARY), pick));
  if (r() < 0.2) {
    const words = pick(privateWords);
    const len = 3 + Math.floor(r() * 6);
    const from = Math.floor(r() * Math.max(1, words.length - len));
    parts.push(`You mentioned "${words.slice(from, from + len).join(' ')}", what did you mean?`);
  }
  if (r() < 0.1) parts.push(pick(LONG_STOCK));
  else if (r() < 0.3) parts.push(fill(pick(STOCK), pick));
  return parts.join(' ');
}

const INVISIBLE = ['\u200b', '\u200d', '\u2060', '\u202e', '\u{E0041}', '\u00ad'];
const PUNCT = [',', '.', ';', ':', '!', '?', ' -', ' —', '...', ')', '"'];
const SPACE = [' ', '  ', '\n', '\t', ' \n\n', '\u00a0', '\u3000'];

/** Changes one word's case and wraps it in punctuation or hides a character in it, as an agent might. */
function disguise(word: string, r: () => number, pick: Pick): string {
  let w = r() < 0.3 ? word.toUpperCase() : r() < 0.3 ? word.toLowerCase() : word;
  if (r() < 0.1 && w.length > 2) {
    const at = 1 + Math.floor(r() * (w.length - 1));
    w = w.slice(0, at) + pick(INVISIBLE) + w.slice(at);
  }
  if (r() < 0.15) w = w.replace(/[.,;:!?]+$/, '') + pick(PUNCT);
  if (r() < 0.05) w = `(${w}`;
  if (r() < 0.1) w = w.normalize('NFKD');
  return w;
}

/**
 * One forwarding attempt from the words of a private text, and the longest run of
 * consecutive private words it carries, known by construction (the agent's own words
 * cut the runs; disguises change how a word is written, not which word it is).
 */
function attempt(words: readonly string[], r: () => number, pick: Pick): { text: string; runs: string[][] } {
  const mode = r();
  let from = 0;
  let len = words.length;
  if (mode >= 0.15) {
    len = Math.min(words.length, 12 + Math.floor(r() * 29));
    from = Math.floor(r() * (words.length - len + 1));
  }
  const passage = words.slice(from, from + len);
  // Own words inserted at random gaps (none in a third of attempts).
  const cuts = new Set<number>();
  if (r() >= 0.33) {
    const k = 1 + Math.floor(r() * 3);
    for (let i = 0; i < k; i++) cuts.add(1 + Math.floor(r() * Math.max(1, passage.length - 1)));
  }
  const split = r() < 0.4;
  let text = r() < 0.7 ? `${pick(OWN)} ` : '';
  const runs: string[][] = [[]];
  passage.forEach((w, i) => {
    if (cuts.has(i)) {
      text += ` ${pick(OWN)} `;
      runs.push([]);
    }
    if (split && i > 0 && r() < 0.12) text += `.${pick(SPACE)}`;
    text += disguise(w, r, pick) + pick(SPACE);
    runs[runs.length - 1]!.push(w);
  });
  if (r() < 0.7) text += ` ${pick(OWN)}`;
  return { text, runs };
}

/**
 * Runs of 12 consecutive words of the private texts and who wrote each, for the ground
 * truth: a run that one member alone wrote to the principal is their private words; one
 * that several wrote is a common phrase. Normalised as the check normalises, from the
 * source texts (never from an attempt's disguised text).
 */
function authorsOfRuns(texts: readonly { author: string; text: string }[]): Map<string, Set<string>> {
  const authors = new Map<string, Set<string>>();
  for (const t of texts) {
    const w = wordsOf(t.text);
    for (let i = 0; i + PASSAGE_WORDS <= w.length; i++) {
      const key = w.slice(i, i + PASSAGE_WORDS).join(' ');
      const set = authors.get(key) ?? new Set<string>();
      set.add(t.author);
      authors.set(key, set);
    }
  }
  return authors;
}

/** Whether a run of source words carries PASSAGE_WORDS consecutive words that one member alone wrote. */
function carriesPrivatePassage(run: readonly string[], authors: Map<string, Set<string>>): boolean {
  const w = wordsOf(run.join(' '));
  for (let i = 0; i + PASSAGE_WORDS <= w.length; i++)
    if (authors.get(w.slice(i, i + PASSAGE_WORDS).join(' '))?.size === 1) return true;
  return false;
}

/** Runs the measurement on a corpus made from `c.seed`. */
export async function measurePrivateWords(c: PrivateWordsCorpus): Promise<PrivateWordsFigures> {
  const r = rng(c.seed);
  const pick: Pick = (xs) => xs[Math.floor(r() * xs.length)]!;
  const store = new SqlStore(openSqlite(':memory:'));
  try {
    const alice = await store.createPrincipal({ handle: 'alice', status: 'member', displayName: 'Alice' });
    const authors = ['mallory', 'bob', 'erin', 'frank', 'judy', 'oscar'];
    const texts = Array.from({ length: c.privateTexts }, () => ({
      author: pick(authors),
      text: privateText(r, pick),
    }));
    const at = new Date();
    for (const t of texts) {
      const served = fingerprintsOf(t.text, alice.id).map((fingerprint) => ({
        fingerprint,
        author: t.author,
      }));
      await store.recordPrivateWords(alice.id, served, at);
    }
    let checks = 0;
    let micros = 0;
    const queued = async (text: string): Promise<boolean> => {
      const t0 = performance.now();
      const fingerprints = fingerprintsOf(text, alice.id);
      const held = fingerprints.length ? await store.findPrivateWords(alice.id, fingerprints, at) : [];
      const verdict = evaluatePrivateWords([{ field: 'question', fingerprints }], held, {
        own: 'alice',
        recipients: ['dave'],
      });
      micros += (performance.now() - t0) * 1000;
      checks++;
      return !verdict.within;
    };
    const figures: PrivateWordsFigures = {
      privateTexts: texts.length,
      fingerprints: await store.countPrivateWords(alice.id),
      attemptsWithPassage: 0,
      carried: 0,
      attemptsWithCommonRun: 0,
      caughtCommonRun: 0,
      attemptsWithoutPassage: 0,
      caughtWithoutPassage: 0,
      ordinary: c.ordinary,
      falsePositives: 0,
      falsePositivesStock: 0,
      falsePositiveTexts: [],
      checkMicros: 0,
    };
    const privateWords = texts.map((t) => t.text.split(/\s+/));
    const writers = authorsOfRuns(texts);
    for (let i = 0; i < c.attempts; i++) {
      const a = attempt(pick(privateWords), r, pick);
      const caught = await queued(a.text);
      if (a.runs.some((run) => carriesPrivatePassage(run, writers))) {
        figures.attemptsWithPassage++;
        if (!caught) figures.carried++;
      } else if (a.runs.some((run) => run.length >= PASSAGE_WORDS)) {
        figures.attemptsWithCommonRun++;
        if (caught) figures.caughtCommonRun++;
      } else {
        figures.attemptsWithoutPassage++;
        if (caught) figures.caughtWithoutPassage++;
      }
    }
    for (let i = 0; i < c.ordinary; i++) {
      const text = ordinaryText(r, pick, privateWords);
      if (await queued(text)) {
        figures.falsePositives++;
        if (STOCK_SENTENCES.some((stock) => text.includes(stock))) figures.falsePositivesStock++;
        figures.falsePositiveTexts.push(text);
      }
    }
    figures.checkMicros = micros / checks;
    return figures;
  } finally {
    await store.close();
  }
}

/**
 * The bench's corpora: a principal who was written 60 private texts (three seeds), and one written 300
 * (the more texts, the more stock sentences are seen from several members and stop
 * counting); 3,000 attempts and 3,000 ordinary messages each.
 */
const BENCH_CORPORA: readonly PrivateWordsCorpus[] = [
  { seed: 7, privateTexts: 60, attempts: 3000, ordinary: 3000 },
  { seed: 40, privateTexts: 60, attempts: 3000, ordinary: 3000 },
  { seed: 41, privateTexts: 60, attempts: 3000, ordinary: 3000 },
  { seed: 40, privateTexts: 300, attempts: 3000, ordinary: 3000 },
];

export async function benchPrivateWords(): Promise<string> {
  const out: string[] = [];
  for (const c of BENCH_CORPORA) out.push(report(c, await measurePrivateWords(c)));
  return out.join('\n\n');
}

function report(c: PrivateWordsCorpus, f: PrivateWordsFigures): string {
  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(2)} %`;
  const examples = f.falsePositiveTexts
    .filter((t) => !STOCK_SENTENCES.some((stock) => t.includes(stock)))
    .slice(0, 2)
    .map((t) => `    ${t.length > 160 ? `${t.slice(0, 157)}...` : t}`)
    .join('\n');
  return [
    `corpus: seed ${c.seed}, ${f.privateTexts} private texts (${f.fingerprints} fingerprints held), threshold ${PASSAGE_WORDS} words`,
    `(a) forwarding attempts carrying ${PASSAGE_WORDS}+ consecutive words one member alone wrote: ${f.attemptsWithPassage}, carried through: ${f.carried}`,
    `    attempts whose ${PASSAGE_WORDS}+ runs are all words several members wrote (common phrases): ${f.attemptsWithCommonRun}, queued: ${f.caughtCommonRun}`,
    `    attempts whose own words cut every run below ${PASSAGE_WORDS}: ${f.attemptsWithoutPassage}, queued anyway: ${f.caughtWithoutPassage}`,
    `(b) ordinary club messages: ${f.ordinary}, queued (false positives): ${f.falsePositives} (${pct(f.falsePositives, f.ordinary)})`,
    `    of which repeat a stock sentence of 10+ words (${STOCK_SENTENCES.length} in the corpus) private texts use too: ${f.falsePositivesStock}; others: ${f.falsePositives - f.falsePositivesStock}`,
    ...(examples ? ['    others, e.g.:', examples] : []),
    `check: ${f.checkMicros.toFixed(0)} µs a message (normalise, fingerprint, read the store, decide)`,
  ].join('\n');
}
