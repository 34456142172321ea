import type { Origin } from '../core/evidence.ts';
import type { EvidenceRecord } from '../store/contract.ts';
import { when } from './dates.ts';
import { html, type Html } from './html.ts';

/** What an evidence origin means, for a person reading it. */
export const ORIGIN_WORDS: Record<string, string> = {
  manual: 'self-report',
  commit: 'commit',
  document: 'document',
  calendar: 'calendar event',
} satisfies Record<Origin, string>;

/** Evidence as a table (cards on a phone): when, origin in words, the claim as member text, the artifact. */
export function evidenceTable(items: readonly EvidenceRecord[], now: Date, empty: string): Html {
  if (items.length === 0) return html`<p>${empty}</p>`;
  return html`<div class="scroll">
    <table>
      <thead>
        <tr>
          <th scope="col">Filed</th>
          <th scope="col">Origin</th>
          <th scope="col">Claim</th>
          <th scope="col">Artifact</th>
        </tr>
      </thead>
      <tbody>
        ${items.map(
          (e) =>
            html`<tr>
              <td data-label="Filed">${when(e.createdAt, now)}</td>
              <td data-label="Origin">${ORIGIN_WORDS[e.origin] ?? e.origin}</td>
              <td data-label="Claim" class="member-text">${e.claim}</td>
              <td data-label="Artifact">${e.artifactRef ? html`<code>${e.artifactRef}</code>` : 'none'}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
