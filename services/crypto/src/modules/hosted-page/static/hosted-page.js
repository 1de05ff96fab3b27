/* global document, window */
// Hosted payer page, progressive enhancement of the server-rendered HTML (which is complete without it):
// a countdown to expires_at every second, the status polled from GET /api/pay/{slug} every few seconds (paid,
// partial, expired shown without a reload), copy buttons, and the redirect to redirect_url once paid.
// Loaded as a same-origin file: the page's Content-Security-Policy allows no inline script.
(function () {
  'use strict';
  var POLL_MS = 4000;
  var REDIRECT_DELAY_MS = 1500;
  var LABELS = { pending: 'Awaiting payment', partial: 'Partially paid', paid: 'Paid', overpaid: 'Paid (overpaid)', expired: 'Expired', cancelled: 'Cancelled' };

  var root = document.getElementById('payment');
  if (!root) return;
  var slug = root.getAttribute('data-slug');
  var type = root.getAttribute('data-type');
  var expiresAt = root.getAttribute('data-expires-at');
  var deadline = expiresAt ? new Date(expiresAt).getTime() : null;
  var redirecting = false;
  var lastOutstanding = text('amount-outstanding');

  function el(id) {
    return document.getElementById(id);
  }
  function text(id) {
    var node = el(id);
    return node ? node.textContent : null;
  }
  function setText(id, value) {
    var node = el(id);
    if (node && value !== null && value !== undefined && node.textContent !== value) node.textContent = value;
  }
  function pad(n) {
    return n < 10 ? '0' + n : String(n);
  }
  function notice(message) {
    setText('notice', message);
  }

  // Copy buttons (hidden without JavaScript, where they could not work).
  var buttons = document.querySelectorAll('button[data-copy-target]');
  Array.prototype.forEach.call(buttons, function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var value = text(button.getAttribute('data-copy-target'));
      if (!value || !navigator.clipboard) return notice('Copying is not available in this browser; select the text instead.');
      navigator.clipboard.writeText(value).then(
        function () {
          notice('Copied ' + value);
        },
        function () {
          notice('Could not copy; select the text instead.');
        },
      );
    });
  });

  function tick() {
    if (deadline === null) return;
    var total = Math.max(0, Math.floor((deadline - Date.now()) / 1000));
    setText('countdown', Math.floor(total / 3600) + ':' + pad(Math.floor((total % 3600) / 60)) + ':' + pad(total % 60));
  }

  function acceptsPayment(status) {
    return type === 'donation' ? status !== 'cancelled' : status === 'pending' || status === 'partial';
  }

  function isSafeRedirect(url) {
    try {
      return new URL(url).protocol === 'https:';
    } catch {
      return false;
    }
  }

  function showStatus(status) {
    var node = el('status');
    if (node && node.getAttribute('data-status') !== status) {
      node.setAttribute('data-status', status);
      node.textContent = LABELS[status] || status;
      root.setAttribute('data-status', status);
    }
    var pay = el('pay');
    if (pay) pay.hidden = !acceptsPayment(status);
  }

  function apply(data) {
    showStatus(data.status);
    setText('amount-paid', data.amount_paid);
    if (data.amount_outstanding !== null && data.amount_outstanding !== lastOutstanding) {
      lastOutstanding = data.amount_outstanding;
      setText('amount-outstanding', data.amount_outstanding);
      // The QR code holds the outstanding amount: fetch the new one.
      var qr = el('qr');
      if (qr) qr.src = '/pay/' + encodeURIComponent(slug) + '/qr.svg?outstanding=' + encodeURIComponent(data.amount_outstanding);
    }
    var settled = data.status === 'paid' || data.status === 'overpaid';
    if (settled && data.redirect_url && isSafeRedirect(data.redirect_url) && !redirecting) {
      redirecting = true;
      var back = el('return');
      if (back) back.hidden = false;
      notice('Payment received. Taking you back to the merchant…');
      window.setTimeout(function () {
        window.location.assign(data.redirect_url);
      }, REDIRECT_DELAY_MS);
    } else if (settled) {
      notice('Payment received. Thank you.');
    } else if (data.status === 'expired') {
      notice('This payment request has expired. Please do not send a payment; ask the merchant for a new one.');
    }
    return settled;
  }

  function poll() {
    fetch('/api/pay/' + encodeURIComponent(slug), { headers: { accept: 'application/json' }, cache: 'no-store' })
      .then(function (response) {
        if (response.status === 404) {
          showStatus('cancelled');
          notice('This payment request is no longer available.');
          return null;
        }
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(
        function (data) {
          if (data === null) return;
          if (!apply(data)) window.setTimeout(poll, POLL_MS);
        },
        function () {
          // Network hiccup or rate limit: keep the last known state and try again later.
          window.setTimeout(poll, POLL_MS * 2);
        },
      );
  }

  tick();
  window.setInterval(tick, 1000);
  if (!apply({ status: root.getAttribute('data-status'), amount_paid: text('amount-paid'), amount_outstanding: lastOutstanding, redirect_url: redirectFromPage() })) {
    window.setTimeout(poll, POLL_MS);
  }

  function redirectFromPage() {
    var link = el('redirect-link');
    return link ? link.getAttribute('href') : null;
  }
})();
