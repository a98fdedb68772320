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
// box marks every match and moves to the first.
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
  function mark(query) {
    box.innerHTML = original;
    words = Array.prototype.slice.call(box.querySelectorAll('[data-start]'));
    current = null;
    if (!query) return void (found.textContent = '');
    var needle = query.toLocaleLowerCase();
    var marks = [];
    var walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var text = node.nodeValue;
      var at = text.toLocaleLowerCase().indexOf(needle);
      while (at >= 0) {
        var match = node.splitText(at);
        node = match.splitText(query.length);
        var m = document.createElement('mark');
        match.parentNode.replaceChild(m, match);
        m.appendChild(match);
        marks.push(m);
        text = node.nodeValue;
        at = text.toLocaleLowerCase().indexOf(needle);
      }
    });
    found.textContent = marks.length ? marks.length + (marks.length === 1 ? ' match' : ' matches') : 'No match';
    if (marks.length) marks[0].scrollIntoView({ block: 'center' });
    follow();
  }
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      mark(search.value.trim());
    }, 200);
  });
})();
