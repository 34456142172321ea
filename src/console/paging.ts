import { html, url, type Html } from './html.ts';
import type { PageRequest, TimeKey } from '../store/contract.ts';
import type { Ctx } from './context.ts';

/**
 * One page of a list, so every console page stays light however long the list
 * grows, with links to the neighbouring pages (plain links: no JavaScript). `key`
 * names the query parameter, so two lists on one page page independently.
 */
export function paged<T>(
  items: readonly T[],
  ctx: Ctx,
  size: number,
  key: string,
  what: string,
): { shown: T[]; nav: Html } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const asked = Number.parseInt(ctx.query.get(key) ?? '1', 10);
  const page = Number.isFinite(asked) ? Math.min(Math.max(asked, 1), pages) : 1;
  const shown = items.slice((page - 1) * size, page * size);
  if (pages === 1) return { shown, nav: html`` };
  const link = (n: number) => {
    const query: Record<string, string> = {};
    for (const [k, v] of ctx.query) if (k !== 'done') query[k] = v;
    query[key] = String(n);
    return url(ctx.path as `/console${string}`, query);
  };
  const first = (page - 1) * size + 1;
  return {
    shown,
    nav: html`<nav class="pages" aria-label="Pages of ${what}">
      <p class="hint">Showing ${first}–${first + shown.length - 1} of ${items.length} ${what}.</p>
      ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous page</a>` : ''}
      ${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next page</a>` : ''}
    </nav>`,
  };
}

/**
 * Links for a keyset-paged list (one read from an index per page, however long the
 * list): the first page, and the next one starting after `next` (absent on the last).
 */
export function keysetNav(ctx: Ctx, key: string, next: string | undefined, what: string): Html {
  const here = ctx.query.get(key);
  if (here === null && next === undefined) return html``;
  const link = (after: string | undefined) => {
    const query: Record<string, string> = {};
    for (const [k, v] of ctx.query) if (k !== 'done' && k !== key) query[k] = v;
    if (after !== undefined) query[key] = after;
    return url(ctx.path as `/console${string}`, query);
  };
  return html`<nav class="pages" aria-label="Pages of ${what}">
    ${here !== null ? html`<a href="${link(undefined)}" rel="first">First page</a>` : ''}
    ${next !== undefined ? html`<a href="${link(next)}" rel="next">Next page</a>` : ''}
  </nav>`;
}

/**
 * One keyset page of a time-ordered list (newest first unless told), read from an
 * index, with its links; the position travels in the query as `at|id` under `key`
 * (a malformed one starts the list again). Two lists on a page use two keys.
 */
export async function timePage<R>(
  ctx: Ctx,
  spec: {
    key: string;
    size: number;
    what: string;
    read: (page: PageRequest<TimeKey>) => Promise<R[]>;
    keyOf: (row: R) => TimeKey;
    oldestFirst?: boolean;
  },
): Promise<{ shown: R[]; nav: Html }> {
  const parts = ctx.query.get(spec.key)?.split('|');
  const after = parts?.length === 2 ? { at: parts[0]!, id: parts[1]! } : undefined;
  const rows = await spec.read({
    limit: spec.size + 1,
    newestFirst: !spec.oldestFirst,
    ...(after ? { after } : {}),
  });
  const shown = rows.slice(0, spec.size);
  const last = shown[shown.length - 1];
  const next = rows.length > spec.size && last ? `${spec.keyOf(last).at}|${spec.keyOf(last).id}` : undefined;
  return { shown, nav: keysetNav(ctx, spec.key, next, spec.what) };
}
