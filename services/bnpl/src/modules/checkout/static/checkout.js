/* global document, window */
// Checkout page, progressive enhancement of the server-rendered HTML (which works without it):
// - after a refused submit, focus moves to the error summary (its links lead to each field);
// - a second click on Confirm while the first is on its way is ignored (the server books once in any case);
// - embedded (data-embed: by widget.js, or framed as checkout_url; a frame the server could not tell, for want of
//   Sec-Fetch-Dest, is found here), it talks to the parent window, only to the merchant's origin
//   (data-merchant-origin, success_url's): service.success once the loan is booked, service.resize for the inline
//   iframe's height, service.close when Escape is pressed in the modal.
// Loaded as a same-origin file: the page's Content-Security-Policy allows no inline script.
(function () {
  'use strict';
  var MESSAGES = { success: 'service.success', close: 'service.close', resize: 'service.resize' };
  var EMBED_PARAM = 'embed';
  var FRAMED_MODE = 'iframe';

  var root = document.getElementById('checkout');
  if (!root) return;

  var summary = document.getElementById('error-summary');
  if (summary) summary.focus();

  var form = document.getElementById('checkout-form');
  if (form) {
    var submitting = false;
    form.addEventListener('submit', function (event) {
      if (submitting) {
        event.preventDefault();
        return;
      }
      submitting = true;
      var button = document.getElementById('confirm');
      if (button) button.setAttribute('aria-busy', 'true');
    });
  }

  var embed = root.getAttribute('data-embed');
  if (!embed && window.top !== window.self) embed = treatAsFramed();
  var target = root.getAttribute('data-merchant-origin');
  var token = root.getAttribute('data-session-token');
  if (!embed || !target || window.parent === window) return;

  /**
   * A page inside a frame the server rendered for the full window: confirm as the inline iframe (the success page
   * and service.success rather than success_url inside the frame), and links back to the merchant leave the frame.
   */
  function treatAsFramed() {
    if (form) {
      var action = new URL(form.action);
      action.searchParams.set(EMBED_PARAM, FRAMED_MODE);
      form.action = action.href;
    }
    var links = root.querySelectorAll('#cancel-link, #continue-link');
    for (var i = 0; i < links.length; i += 1) links[i].setAttribute('target', '_top');
    return FRAMED_MODE;
  }

  function post(message) {
    window.parent.postMessage(message, target);
  }

  if (embed === 'iframe') {
    var lastHeight = 0;
    var reportHeight = function () {
      var height = Math.ceil(document.body.getBoundingClientRect().height);
      if (height === lastHeight) return;
      lastHeight = height;
      post({ type: MESSAGES.resize, session_token: token, height: height });
    };
    reportHeight();
    if (window.ResizeObserver) new window.ResizeObserver(reportHeight).observe(document.body);
  }

  if (embed === 'modal') {
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') post({ type: MESSAGES.close, session_token: token });
    });
  }

  if (root.getAttribute('data-status') === 'authorized') {
    post({
      type: MESSAGES.success,
      session_token: token,
      loan_id: root.getAttribute('data-loan-id'),
      loan_number: root.getAttribute('data-loan-number'),
      purchase_reference: root.getAttribute('data-purchase-reference'),
      success_url: root.getAttribute('data-success-url'),
    });
  }
})();
