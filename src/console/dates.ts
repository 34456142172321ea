import { html, type Html } from './html.ts';

/**
 * Dates as a person reads them. The server does not know the reader's time zone, so a
 * page says the moment in UTC, naming the zone, and how long ago it was; the console's
 * `local-time.js` then rewrites the date in the reader's own zone. Without JavaScript
 * the UTC text stays, still true.
 */
const UTC = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** The largest unit that reads naturally, with how many seconds it holds and where the next one starts. */
const UNITS: { unit: Intl.RelativeTimeFormatUnit; seconds: number; below: number }[] = [
  { unit: 'minute', seconds: 60, below: 45 * 60 },
  { unit: 'hour', seconds: 3600, below: 22 * 3600 },
  { unit: 'day', seconds: 86_400, below: 45 * 86_400 },
  { unit: 'month', seconds: 30.44 * 86_400, below: 320 * 86_400 },
  { unit: 'year', seconds: 365.25 * 86_400, below: Infinity },
];

/** The formatter's own month names ("Jan", …, "Sept", …), read once. */
const MONTHS = Array.from(
  { length: 12 },
  (_, m) => UTC.formatToParts(Date.UTC(2000, m, 15)).find((p) => p.type === 'month')?.value ?? String(m + 1),
);
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));
const threeDigits = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/**
 * `toISOString()`'s text, put together from the date's fields: on the Node this serves,
 * toISOString costs more than a microsecond, a page's rows draw one each, and the
 * getters are a tenth of that. A year outside 1000–9999 goes through toISOString.
 */
export function isoText(at: Date): string {
  const year = at.getUTCFullYear();
  if (year < 1000 || year > 9999) return at.toISOString();
  return `${year}-${twoDigits(at.getUTCMonth() + 1)}-${twoDigits(at.getUTCDate())}T${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())}:${twoDigits(at.getUTCSeconds())}.${threeDigits(at.getUTCMilliseconds())}Z`;
}

/**
 * "12 Mar 2026, 14:05 UTC": the formatter's text, put together from its month names (a
 * page draws dozens of dates, and formatting each through Intl cost more than the rest
 * of its row). A year outside 1000–9999 (another era, another width) goes through Intl.
 */
export function utcText(at: Date): string {
  const year = at.getUTCFullYear();
  if (year < 1000 || year > 9999) return `${UTC.format(at)} UTC`;
  return utcWords(
    at.getUTCDate(),
    at.getUTCMonth(),
    year,
    `${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())}`,
  );
}

/** The words of a UTC moment, "12 Mar 2026, 14:05 UTC", from its day, month (0–11), year and "hh:mm". */
function utcWords(day: number, month: number, year: number | string, time: string): string {
  return `${day} ${MONTHS[month]!} ${year}, ${time} UTC`;
}

/** Each "3 hours ago" once, by unit and number: few values recur, and Intl formats each anew. */
const RELATIVE_SAID = new Map<Intl.RelativeTimeFormatUnit, Map<number, string>>();

function relative(n: number, unit: Intl.RelativeTimeFormatUnit): string {
  let said = RELATIVE_SAID.get(unit);
  if (said === undefined) RELATIVE_SAID.set(unit, (said = new Map()));
  let text = said.get(n);
  if (text === undefined) {
    text = RELATIVE.format(n, unit);
    // Bounded: minutes, hours and days stop below 45, months below 11; years rarely vary.
    if (said.size < 1_000) said.set(n, text);
  }
  return text;
}

/** "3 hours ago", "in 29 days", "yesterday", "just now". */
export function relativeText(at: Date, now: Date): string {
  return relativeOf(at.getTime() - now.getTime());
}

/** `relativeText` of a moment `ms` milliseconds from now (negative: ago). */
function relativeOf(ms: number): string {
  const seconds = ms / 1000;
  if (Math.abs(seconds) < 45) return 'just now';
  const u = UNITS.find((x) => Math.abs(seconds) < x.below) ?? UNITS[UNITS.length - 1]!;
  // Rounded half away from zero, the same way into the past as into the future.
  return relative(Math.sign(seconds) * Math.round(Math.abs(seconds) / u.seconds), u.unit);
}

/** What the store writes: `toISOString()`'s text for a year of four digits. */
const STORED = /^[1-9]\d{3}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The number written in `text` at `at`, two digits. */
const twoAt = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * The moment stored text names, when it is just what `toISOString()` gives (the text a
 * store keeps): its milliseconds, read from its digits; NaN for any other text, even one
 * `Date` would read (a 30 February or a 24:00 it carries over, a lower-case `z`). Such text
 * is its own `datetime`, and its UTC text is read from it too: a page draws dozens of
 * dates, and putting each in a `Date` to ask for its fields cost more than a microsecond.
 */
function storedMs(iso: string): number {
  if (!STORED.test(iso)) return NaN;
  const year = twoAt(iso, 0) * 100 + twoAt(iso, 2);
  const month = twoAt(iso, 5);
  const day = twoAt(iso, 8);
  const hour = twoAt(iso, 11);
  const minute = twoAt(iso, 14);
  const second = twoAt(iso, 17);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]! + leap) return NaN;
  if (hour > 23 || minute > 59 || second > 59) return NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second, twoAt(iso, 20) * 10 + iso.charCodeAt(22) - 48);
}

/**
 * A stored moment (ISO text) as a `<time>` element with the UTC text, then how long
 * ago; `none` when there is no moment. Text that is not a date is shown as it is.
 */
export function when(iso: string | null, now: Date, none = 'never'): Html {
  if (iso === null) return html`${none}`;
  let datetime: string, utc: string, ago: string;
  const ms = storedMs(iso);
  if (!Number.isNaN(ms)) {
    datetime = iso;
    utc = utcWords(twoAt(iso, 8), twoAt(iso, 5) - 1, iso.slice(0, 4), iso.slice(11, 16));
    ago = relativeOf(ms - now.getTime());
  } else {
    const at = new Date(iso);
    if (Number.isNaN(at.getTime())) return html`${iso}`;
    datetime = isoText(at);
    utc = utcText(at);
    ago = relativeText(at, now);
  }
  return html`<time datetime="${datetime}">${utc}</time> <span class="ago">(${ago})</span>`;
}
