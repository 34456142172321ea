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
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]!} ${year}, ${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())} UTC`;
}

/** Each "3 hours ago" once: few values recur, and Intl formats each anew. */
const RELATIVE_SAID = new Map<string, string>();

function relative(n: number, unit: Intl.RelativeTimeFormatUnit): string {
  const key = `${n} ${unit}`;
  let text = RELATIVE_SAID.get(key);
  if (text === undefined) {
    text = RELATIVE.format(n, unit);
    // Bounded: minutes, hours and days stop below 45, months below 11; years rarely vary.
    if (RELATIVE_SAID.size < 1_000) RELATIVE_SAID.set(key, text);
  }
  return text;
}

/** "3 hours ago", "in 29 days", "yesterday", "just now". */
export function relativeText(at: Date, now: Date): string {
  const seconds = (at.getTime() - now.getTime()) / 1000;
  if (Math.abs(seconds) < 45) return 'just now';
  const u = UNITS.find((x) => Math.abs(seconds) < x.below) ?? UNITS[UNITS.length - 1]!;
  // Rounded half away from zero, the same way into the past as into the future.
  return relative(Math.sign(seconds) * Math.round(Math.abs(seconds) / u.seconds), u.unit);
}

/**
 * A stored moment (ISO text) as a `<time>` element with the UTC text, then how long
 * ago; `none` when there is no moment. Text that is not a date is shown as it is.
 */
export function when(iso: string | null, now: Date, none = 'never'): Html {
  if (iso === null) return html`${none}`;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return html`${iso}`;
  return html`<time datetime="${isoText(at)}">${utcText(at)}</time>
    <span class="ago">(${relativeText(at, now)})</span>`;
}
