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

/** "12 Mar 2026, 14:05 UTC". */
export function utcText(at: Date): string {
  return `${UTC.format(at)} UTC`;
}

/** "3 hours ago", "in 29 days", "yesterday", "just now". */
export function relativeText(at: Date, now: Date): string {
  const seconds = (at.getTime() - now.getTime()) / 1000;
  if (Math.abs(seconds) < 45) return 'just now';
  const u = UNITS.find((x) => Math.abs(seconds) < x.below) ?? UNITS[UNITS.length - 1]!;
  // Rounded half away from zero, the same way into the past as into the future.
  return RELATIVE.format(Math.sign(seconds) * Math.round(Math.abs(seconds) / u.seconds), u.unit);
}

/**
 * A stored moment (ISO text) as a `<time>` element with the UTC text, then how long
 * ago; `none` when there is no moment. Text that is not a date is shown as it is.
 */
export function when(iso: string | null, now: Date, none = 'never'): Html {
  if (iso === null) return html`${none}`;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return html`${iso}`;
  return html`<time datetime="${at.toISOString()}">${utcText(at)}</time>
    <span class="ago">(${relativeText(at, now)})</span>`;
}
