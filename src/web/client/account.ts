// The account area's script (and a share link's page's), bundled into dist/web/assets/app.js by
// scripts/bundle-pages.mjs: order statuses kept current, an order's transcript beside its media, and
// a share link's text box ready to copy.
import { heardIndex, markPieces, matchesIn, matchesSaid, phrasePattern } from './pure/transcriptSearch.js';

/** A status of the polled orders, as /account/orders/status.json answers it. */
interface OrderState {
  status: string;
  status_html: string;
  files_html: string;
  settled: boolean;
}

// Keeps order statuses current without reloading: polls /account/orders/status.json every 2 s for
// the elements marked data-poll, replaces their status and result-file cells when a status
// changes, and stops once every order is settled (or the session has ended).
function pollStatuses() {
  const INTERVAL = 2000;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const pending = () => [...document.querySelectorAll('[data-poll]')];

  function update(el: Element, state: OrderState) {
    if (state.status !== el.getAttribute('data-status')) {
      el.setAttribute('data-status', state.status);
      const status = el.querySelector('[data-field="status"]');
      const files = el.querySelector('[data-field="files"]');
      // Server-rendered, escaped HTML from this origin.
      if (status) status.innerHTML = state.status_html;
      if (files) files.innerHTML = state.files_html;
    }
    if (state.settled) el.removeAttribute('data-poll');
  }

  function poll() {
    timer = null;
    const els = pending();
    if (els.length === 0) return;
    if (document.hidden) return schedule();
    const ids = els.map((el) => el.getAttribute('data-poll'));
    fetch(`/account/orders/status.json?ids=${encodeURIComponent(ids.join(','))}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      redirect: 'manual',
    }).then(
      async (res) => {
        const type = res.headers.get('content-type') ?? '';
        // A redirect (to sign-in) or a refusal: the session has ended; stop.
        if (!res.ok || !type.includes('json')) return;
        const answer = (await res.json()) as Record<string, OrderState | undefined>;
        for (const el of els) {
          const state = answer[el.getAttribute('data-poll') ?? ''];
          if (state) update(el, state);
        }
        schedule();
      },
      // Offline or restarting: try again later.
      () => schedule(INTERVAL * 5),
    );
  }

  function schedule(delay?: number) {
    if (!timer && pending().length) timer = setTimeout(poll, delay || INTERVAL);
  }

  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) schedule();
  });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => schedule());
  else schedule();
}

// An order's transcript beside its media (the order page): a press on a word plays from it; while
// the media plays, the word heard carries aria-current (one at a time) and stays in view; the search
// box marks every match, a phrase across words too, and moves to the first. The same on a share link's page.
function transcriptBesideMedia() {
  const player = document.getElementById('transcript-player');
  const box = document.getElementById('transcript');
  if (!(player instanceof HTMLMediaElement) || !box) return;
  const timedWords = () => [...box.querySelectorAll('[data-start]')];
  const timesOf = (words: Element[]) => words.map((w) => ({ start: Number(w.getAttribute('data-start')), end: Number(w.getAttribute('data-end')) }));
  let words = timedWords();
  let times = timesOf(words);
  let current: Element | null = null;

  box.addEventListener('click', (e) => {
    const word = e.target instanceof Element ? e.target.closest('[data-start]') : null;
    if (!word) return;
    player.currentTime = Number(word.getAttribute('data-start'));
    player.play().catch(() => {});
  });

  const follow = () => {
    const word = words[heardIndex(times, player.currentTime)] ?? null;
    if (word === current) return;
    if (current) current.removeAttribute('aria-current');
    current = word;
    if (word) {
      word.setAttribute('aria-current', 'true');
      if (!player.paused) word.scrollIntoView({ block: 'nearest' });
    }
  };
  player.addEventListener('timeupdate', follow);
  player.addEventListener('seeked', follow);

  const search = document.getElementById('transcript-search');
  const found = document.getElementById('transcript-found');
  if (!(search instanceof HTMLInputElement) || !found) return;
  const original = box.innerHTML; // server-rendered, escaped HTML from this origin
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Marks every match of `pattern` in a paragraph, across its words (one <mark> per text node); returns how many. */
  function markIn(para: Element, pattern: RegExp): number {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(para, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) nodes.push(walker.currentNode as Text);
    const ranges = matchesIn(nodes.map((node) => node.data).join(''), pattern);
    for (const { node, from, to } of markPieces(
      ranges,
      nodes.map((n) => n.data.length),
    )) {
      const match = nodes[node]!.splitText(from);
      match.splitText(to - from);
      const mark = document.createElement('mark');
      match.replaceWith(mark);
      mark.append(match);
    }
    return ranges.length;
  }

  const mark = (query: string) => {
    box.innerHTML = original;
    words = timedWords();
    times = timesOf(words);
    current = null;
    if (!query) return void (found.textContent = '');
    const pattern = phrasePattern(query);
    let count = 0;
    for (const para of box.querySelectorAll('p')) count += markIn(para, pattern);
    found.textContent = matchesSaid(count);
    box.querySelector('mark')?.scrollIntoView({ block: 'center' });
    follow();
  };
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => mark(search.value.trim()), 200);
  });
}

pollStatuses();
transcriptBesideMedia();

// A share link's text box selects the whole link when it gets focus, ready to copy.
document.addEventListener('focusin', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.classList.contains('share-link')) e.target.select();
});
