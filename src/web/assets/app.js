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
