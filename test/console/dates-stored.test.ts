// A stored moment is drawn from its own digits when it is just what toISOString() gives:
// the same <time> element as through a Date, and any other text still goes through one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoText, relativeText, utcText, when } from '../../src/console/dates.ts';
import { html, serialize } from '../../src/console/html.ts';

const NOW = new Date('2026-03-12T14:05:00Z');

/** What when() drew before it read the digits: everything through a Date (none of it to escape). */
function throughDate(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return serialize(html`${iso}`);
  return `<time datetime="${isoText(at)}">${utcText(at)}</time> <span class="ago">(${relativeText(at, NOW)})</span>`;
}

/** The element with its white space as a browser reads it. */
const drawn = (iso: string) => serialize(when(iso, NOW)).replace(/\s+/g, ' ');

void test('stored text draws the same <time> as a Date of it would', () => {
  let seed = 11;
  const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed / 2 ** 31);
  const moments = [
    ...Array.from({ length: 3_000 }, () => new Date(Date.UTC(1000, 0, 1) + next() * 2.8e14)),
    // Around now, where "how long ago" changes unit.
    ...Array.from({ length: 3_000 }, () => new Date(NOW.getTime() + (next() - 0.5) * 8e10)),
    new Date('2024-02-29T23:59:59.999Z'),
    new Date('2000-02-29T00:00:00.000Z'),
    new Date('9999-12-31T23:59:59.999Z'),
    new Date('1000-01-01T00:00:00.000Z'),
  ];
  for (const d of moments) {
    const iso = d.toISOString();
    assert.equal(drawn(iso), throughDate(iso), iso);
  }
});

void test('text a Date reads otherwise, or not at all, is drawn as a Date of it or as itself', () => {
  for (const iso of [
    '2026-02-30T10:00:00.000Z', // carried over into March
    '2026-02-29T10:00:00.000Z', // not a leap year
    '1900-02-29T10:00:00.000Z', // nor this one
    '2026-04-31T10:00:00.000Z',
    '2026-12-02T24:00:00.000Z', // the next day's midnight
    '2026-12-02T23:59:59.000z',
    '2026-12-02T23:59:59Z',
    '2026-12-02',
    '+002026-12-02T23:59:59.000Z',
    '0999-12-02T23:59:59.000Z',
    '2026-13-02T10:00:00.000Z',
    '2026-12-02T23:60:00.000Z',
    '2026-00-02T10:00:00.000Z',
    '2026-12-00T10:00:00.000Z',
    '<not a date>',
    '',
  ]) {
    assert.equal(drawn(iso), throughDate(iso), iso);
  }
  assert.match(serialize(when('2026-02-30T10:00:00.000Z', NOW)), /datetime="2026-03-02T10:00:00.000Z"/);
});
