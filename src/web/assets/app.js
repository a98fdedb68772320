// Keeps order statuses current without reloading: polls /account/orders/status.json every 2 s for
// the elements marked data-poll, replaces their status and result-file cells when a status
// changes, and stops once every order is settled (or the session has ended).
(function () {
  'use strict';
  var INTERVAL = 2000;
  var timer = null;

  function pending() {
    return Array.prototype.slice.call(document.querySelectorAll('[data-poll]'));
  }

  function update(el, state) {
    if (state.status !== el.getAttribute('data-status')) {
      el.setAttribute('data-status', state.status);
      var status = el.querySelector('[data-field="status"]');
      var files = el.querySelector('[data-field="files"]');
      // Server-rendered, escaped HTML from this origin.
      if (status) status.innerHTML = state.status_html;
      if (files) files.innerHTML = state.files_html;
    }
    if (state.settled) el.removeAttribute('data-poll');
  }

  function poll() {
    timer = null;
    var els = pending();
    if (els.length === 0) return;
    if (document.hidden) return schedule();
    var ids = els.map(function (el) {
      return el.getAttribute('data-poll');
    });
    fetch('/account/orders/status.json?ids=' + encodeURIComponent(ids.join(',')), {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      redirect: 'manual',
    }).then(
      function (res) {
        var type = res.headers.get('content-type') || '';
        // A redirect (to sign-in) or a refusal: the session has ended; stop.
        if (!res.ok || type.indexOf('json') < 0) return null;
        return res.json().then(function (answer) {
          els.forEach(function (el) {
            var state = answer[el.getAttribute('data-poll')];
            if (state) update(el, state);
          });
          schedule();
        });
      },
      function () {
        schedule(INTERVAL * 5);
      },
    ); // offline or restarting: try again later
  }

  function schedule(delay) {
    if (!timer && pending().length) timer = setTimeout(poll, delay || INTERVAL);
  }

  document.addEventListener('visibilitychange', function () {
    if (!document.hidden) schedule();
  });
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', function () {
      schedule();
    });
  else schedule();
})();

// An order's transcript beside its media (the order page): a press on a word plays from it; while
// the media plays, the word heard carries aria-current (one at a time) and stays in view; the search
// box marks every match, a phrase across words too, and moves to the first. The same on a share link's page.
(function () {
  'use strict';
  var player = document.getElementById('transcript-player');
  var box = document.getElementById('transcript');
  if (!player || !box) return;
  var words = Array.prototype.slice.call(box.querySelectorAll('[data-start]'));
  var current = null;

  box.addEventListener('click', function (e) {
    var word = e.target.closest && e.target.closest('[data-start]');
    if (!word) return;
    player.currentTime = Number(word.getAttribute('data-start'));
    player.play().catch(function () {});
  });

  function heard(t) {
    // The last word started by t, while t is within it (or just after it).
    var lo = 0;
    var hi = words.length - 1;
    var found = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (Number(words[mid].getAttribute('data-start')) <= t) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    var word = words[found];
    return word && t <= Number(word.getAttribute('data-end')) + 0.25 ? word : null;
  }
  function follow() {
    var word = heard(player.currentTime);
    if (word === current) return;
    if (current) current.removeAttribute('aria-current');
    current = word;
    if (word) {
      word.setAttribute('aria-current', 'true');
      if (!player.paused) word.scrollIntoView({ block: 'nearest' });
    }
  }
  player.addEventListener('timeupdate', follow);
  player.addEventListener('seeked', follow);

  var search = document.getElementById('transcript-search');
  var found = document.getElementById('transcript-found');
  var original = box.innerHTML; // server-rendered, escaped HTML from this origin
  var timer = null;
  function escaped(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  // Marks every match of the query in a paragraph, across its words: the query's spaces match any run
  // of spaces, case is ignored. A match over two words is marked in each (one <mark> per text node).
  function markIn(para, pattern) {
    var nodes = [];
    var text = '';
    var walker = document.createTreeWalker(para, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      nodes.push({ node: walker.currentNode, at: text.length });
      text += walker.currentNode.nodeValue;
    }
    var ranges = [];
    var m;
    pattern.lastIndex = 0;
    while ((m = pattern.exec(text))) ranges.push([m.index, m.index + m[0].length]);
    // From the last match back: a split keeps the start of its node, so the offsets held stay true.
    for (var r = ranges.length - 1; r >= 0; r--) {
      for (var n = nodes.length - 1; n >= 0; n--) {
        var item = nodes[n];
        var from = Math.max(ranges[r][0], item.at);
        var to = Math.min(ranges[r][1], item.at + item.node.nodeValue.length);
        if (from >= to) continue;
        var match = item.node.splitText(from - item.at);
        match.splitText(to - from);
        var mk = document.createElement('mark');
        match.parentNode.replaceChild(mk, match);
        mk.appendChild(match);
      }
    }
    return ranges.length;
  }
  function mark(query) {
    box.innerHTML = original;
    words = Array.prototype.slice.call(box.querySelectorAll('[data-start]'));
    current = null;
    if (!query) return void (found.textContent = '');
    var pattern = new RegExp(query.split(/\s+/).map(escaped).join('\\s+'), 'giu');
    var count = 0;
    Array.prototype.forEach.call(box.querySelectorAll('p'), function (para) {
      count += markIn(para, pattern);
    });
    found.textContent = count ? count + (count === 1 ? ' match' : ' matches') : 'No match';
    var first = box.querySelector('mark');
    if (first) first.scrollIntoView({ block: 'center' });
    follow();
  }
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      mark(search.value.trim());
    }, 200);
  });
})();

// A share link's text box selects the whole link when it gets focus, ready to copy.
document.addEventListener('focusin', function (e) {
  if (e.target.classList && e.target.classList.contains('share-link')) e.target.select();
});
