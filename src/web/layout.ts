// The page shell every page of the account area and the workbench shares: header with the area's
// navigation and the sign-out form, a skip link, one <main>. Scripts and styles come from the
// area's own assets/ only.
import { html, type Html, type Part } from './html.js';

export type Section = 'orders' | 'wallet' | 'settings' | 'sample' | 'queue' | 'earnings';
/** The account area, the workbench, or an order shared by a link (no one signed in; the account area's assets). */
export type Area = 'account' | 'work' | 'shared';

export interface PageOptions {
  title: string;
  body: Part;
  /** The session's CSRF token; absent on pages for someone not signed in (no navigation then). */
  csrf?: string;
  current?: Section;
  /** The account area (default) or the workbench. */
  area?: Area;
  /** Asks search engines not to index the page nor follow its links (a share link's page). */
  noindex?: boolean;
  /** Scripts of the area's assets this page loads after the area's own (e.g. the new-order page's). */
  scripts?: readonly string[];
}

const AREAS: Record<Area, { base: string; name: string; script: string; nav: ReadonlyArray<[Section, string, string]> }> = {
  account: {
    base: '/account',
    name: 'Order service account',
    script: 'app.js',
    nav: [
      ['orders', '/account/orders', 'Orders'],
      ['wallet', '/account/wallet', 'Wallet'],
      ['settings', '/account/settings', 'Settings'],
      ['sample', '/account/sample-callback', 'Sample callback'],
    ],
  },
  shared: { base: '/account', name: 'Shared transcript', script: 'app.js', nav: [] },
  work: {
    base: '/work',
    name: 'Workbench',
    script: 'work.js',
    nav: [
      ['queue', '/work/queue', 'Queue'],
      ['earnings', '/work/earnings', 'Earnings'],
      ['settings', '/work/settings', 'Settings'],
    ],
  },
};

export const csrfInput = (csrf: string): Html => html`<input type="hidden" name="csrf" value="${csrf}">`;

/** Messages: `role="status"` for success, `role="alert"` for errors. */
export const notice = (text: string | undefined): Html => html`${text ? html`<p class="notice" role="status">${text}</p>` : ''}`;
export const alert = (text: string | undefined): Html => html`${text ? html`<p class="alert" role="alert">${text}</p>` : ''}`;

/** Links to the newer and older pages of a list; nothing when it fits on one page. */
export function pager(prev: string | undefined, next: string | undefined, newer: string, older: string): Html {
  if (!prev && !next) return html``;
  return html`<nav aria-label="Pages" class="pages">${prev ? html`<a rel="prev" href="${prev}">${newer}</a>` : ''} ${next ? html`<a rel="next" href="${next}">${older}</a>` : ''}</nav>`;
}

export function layout(page: PageOptions): string {
  const signedIn = page.csrf !== undefined;
  const area = AREAS[page.area ?? 'account'];
  const nav = signedIn
    ? html`
    <nav aria-label="${page.area === 'work' ? 'Workbench' : 'Account'}"><ul>${area.nav.map(
      ([key, href, label]) => html`<li><a href="${href}"${key === page.current ? html` aria-current="page"` : ''}>${label}</a></li>`,
    )}</ul></nav>
    <form id="sign-out" method="post" action="${area.base}/sign-out">${csrfInput(page.csrf!)}<button type="submit">Sign out</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${
  page.noindex
    ? html`<meta name="robots" content="noindex, nofollow">
`
    : ''
}<title>${page.title} · ${area.name}</title>
<link rel="stylesheet" href="${area.base}/assets/app.css">
<link rel="icon" href="${area.base}/assets/icon.svg" type="image/svg+xml">
<script src="${area.base}/assets/${area.script}" defer></script>
${(page.scripts ?? []).map(
  (name) => html`<script src="${area.base}/assets/${name}" defer></script>
`,
)}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><span class="brand">Order service</span>${nav}</header>
<main id="main" tabindex="-1">
${page.body}
</main>
</body>
</html>
`.text;
}
