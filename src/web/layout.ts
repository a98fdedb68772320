// The page shell every account page shares: header with the account navigation and the
// sign-out form, a skip link, one <main>. Scripts and styles come from /account/assets/ only.
import { html, type Html, type Part } from './html.js';

export type Section = 'orders' | 'wallet' | 'settings' | 'sample';

export interface PageOptions {
  title: string;
  body: Part;
  /** The session's CSRF token; absent on pages for someone not signed in (no navigation then). */
  csrf?: string;
  current?: Section;
}

const NAV: ReadonlyArray<[Section, string, string]> = [
  ['orders', '/account/orders', 'Orders'],
  ['wallet', '/account/wallet', 'Wallet'],
  ['settings', '/account/settings', 'Settings'],
  ['sample', '/account/sample-callback', 'Sample callback'],
];

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
  const nav = signedIn ? html`
    <nav aria-label="Account"><ul>${NAV.map(([key, href, label]) =>
      html`<li><a href="${href}"${key === page.current ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul></nav>
    <form id="sign-out" method="post" action="/account/sign-out">${csrfInput(page.csrf!)}<button type="submit">Sign out</button></form>` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Order service account</title>
<link rel="stylesheet" href="/account/assets/app.css">
<link rel="icon" href="/account/assets/icon.svg" type="image/svg+xml">
<script src="/account/assets/app.js" defer></script>
</head>
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
