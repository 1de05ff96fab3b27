/* global document, window */
// widget.js — included by a merchant's page to open the BNPL checkout in a modal or an inline iframe:
//
//   <script src="https://<bnpl service>/widget.js"></script>
//   BnplCheckout.open(checkoutUrl, { onSuccess: function (result) {…}, onClose: function () {…} });   // modal
//   BnplCheckout.mount('#checkout', checkoutUrl, { onSuccess: function (result) {…} });              // inline iframe
//
// `result` is the page's service.success message: { type, session_token, loan_id, loan_number, purchase_reference,
// success_url }. Without onSuccess the shopper is sent to success_url. Messages are accepted only from the service's
// own origin (the origin this script was loaded from), only from the frame this script opened, and only for its
// session. The loan.authorized webhook stays the authoritative signal; this is for the shopper's experience.
(function () {
  'use strict';
  var MESSAGES = { success: 'service.success', close: 'service.close', resize: 'service.resize' };
  var CHECKOUT_PATH = '/checkout/';
  var EMBED_PARAM = 'embed';

  var script = document.currentScript;
  if (!script || !script.src) throw new Error('widget.js must be loaded with a <script src> tag');
  var SERVICE_ORIGIN = new URL(script.src).origin;
  var activeModal = null;

  function setStyles(element, styles) {
    for (var name in styles) element.style[name] = styles[name];
  }

  /** checkout_url with the embed mode; refuses a URL that is not this service's checkout page. */
  function frameUrl(checkoutUrl, mode) {
    var url = new URL(checkoutUrl, SERVICE_ORIGIN);
    if (url.origin !== SERVICE_ORIGIN || url.pathname.indexOf(CHECKOUT_PATH) !== 0) {
      throw new Error('BnplCheckout: checkoutUrl must be a checkout_url of ' + SERVICE_ORIGIN);
    }
    url.searchParams.set(EMBED_PARAM, mode);
    return url;
  }

  function createFrame(url) {
    var iframe = document.createElement('iframe');
    iframe.src = url.href;
    iframe.title = 'Checkout';
    setStyles(iframe, { border: '0', width: '100%', display: 'block', colorScheme: 'normal' });
    return iframe;
  }

  /** The service.success message reduced to its documented keys. */
  function successResult(data) {
    return {
      type: data.type,
      session_token: data.session_token,
      loan_id: data.loan_id,
      loan_number: data.loan_number,
      purchase_reference: data.purchase_reference,
      success_url: data.success_url,
    };
  }

  function succeed(result, options) {
    if (typeof options.onSuccess === 'function') return options.onSuccess(result);
    if (typeof result.success_url === 'string' && /^https?:\/\//.test(result.success_url)) window.location.assign(result.success_url);
  }

  /** Listens to the frame's messages; returns the function that stops listening. */
  function listen(iframe, sessionToken, handlers) {
    function onMessage(event) {
      if (event.origin !== SERVICE_ORIGIN || event.source !== iframe.contentWindow) return;
      var data = event.data;
      if (!data || typeof data !== 'object' || data.session_token !== sessionToken) return;
      if (data.type === MESSAGES.success && handlers.success) handlers.success(successResult(data));
      else if (data.type === MESSAGES.close && handlers.close) handlers.close();
      else if (data.type === MESSAGES.resize && handlers.resize && typeof data.height === 'number' && data.height > 0 && data.height < 20000) handlers.resize(data.height);
    }
    window.addEventListener('message', onMessage);
    return function () {
      window.removeEventListener('message', onMessage);
    };
  }

  function sessionTokenOf(url) {
    return decodeURIComponent(url.pathname.slice(CHECKOUT_PATH.length).split('/')[0]);
  }

  /** Checkout in an inline iframe inside `container` (an element or a selector); its height follows the page. */
  function mount(container, checkoutUrl, options) {
    options = options || {};
    var element = typeof container === 'string' ? document.querySelector(container) : container;
    if (!element) throw new Error('BnplCheckout.mount: container not found');
    var url = frameUrl(checkoutUrl, 'iframe');
    var iframe = createFrame(url);
    iframe.style.height = '40rem';
    element.appendChild(iframe);
    var stop = listen(iframe, sessionTokenOf(url), {
      success: function (result) {
        succeed(result, options);
      },
      resize: function (height) {
        iframe.style.height = height + 'px';
      },
    });
    return {
      iframe: iframe,
      destroy: function () {
        stop();
        iframe.remove();
      },
    };
  }

  /**
   * Checkout in a modal dialog over the page: the rest of the page is inert while it is open, Tab cycles between the
   * close button and the checkout, Escape (here or inside the checkout) and the close button close it, and focus
   * returns to where it was.
   */
  function open(checkoutUrl, options) {
    options = options || {};
    if (activeModal) activeModal.close();
    var url = frameUrl(checkoutUrl, 'modal');
    var previousFocus = document.activeElement;
    var previousOverflow = document.documentElement.style.overflow;

    var overlay = document.createElement('div');
    overlay.setAttribute('data-bnpl-checkout', 'modal');
    setStyles(overlay, { position: 'fixed', inset: '0', zIndex: '2147483647', background: 'rgba(15, 23, 42, 0.6)', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '0.75rem', boxSizing: 'border-box' });
    var dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    dialog.setAttribute('aria-label', 'Checkout');
    setStyles(dialog, { position: 'relative', display: 'flex', flexDirection: 'column', width: '100%', maxWidth: '36rem', height: '100%', maxHeight: '52rem', background: '#fff', borderRadius: '0.75rem', overflow: 'hidden', boxShadow: '0 20px 50px rgba(0, 0, 0, 0.35)' });
    var closeButton = document.createElement('button');
    closeButton.type = 'button';
    closeButton.textContent = '\u00d7';
    closeButton.setAttribute('aria-label', 'Close checkout');
    setStyles(closeButton, { alignSelf: 'flex-end', margin: '0.25rem 0.25rem 0', font: '600 1.5rem/1 system-ui, sans-serif', width: '2.5rem', height: '2.5rem', border: '0', borderRadius: '0.4rem', background: 'transparent', color: '#111', cursor: 'pointer' });
    var iframe = createFrame(url);
    setStyles(iframe, { flex: '1 1 auto', minHeight: '0' });
    var startGuard = focusGuard();
    var endGuard = focusGuard();
    dialog.appendChild(closeButton);
    dialog.appendChild(iframe);
    overlay.appendChild(startGuard);
    overlay.appendChild(dialog);
    overlay.appendChild(endGuard);

    // Everything else on the page leaves the focus order and the accessibility tree while the dialog is open.
    var madeInert = [];
    Array.prototype.forEach.call(document.body.children, function (child) {
      if (!child.inert) {
        child.inert = true;
        madeInert.push(child);
      }
    });
    document.body.appendChild(overlay);
    document.documentElement.style.overflow = 'hidden';

    // Tab past the checkout's last control wraps to the close button; Shift+Tab before the close button to the checkout.
    endGuard.addEventListener('focus', function () {
      closeButton.focus();
    });
    startGuard.addEventListener('focus', function () {
      iframe.focus();
    });
    function onKeydown(event) {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
      }
    }
    document.addEventListener('keydown', onKeydown, true);
    closeButton.addEventListener('click', function () {
      close();
    });

    var closed = false;
    function teardown() {
      if (closed) return false;
      closed = true;
      stop();
      document.removeEventListener('keydown', onKeydown, true);
      overlay.remove();
      madeInert.forEach(function (child) {
        child.inert = false;
      });
      document.documentElement.style.overflow = previousOverflow;
      if (activeModal === handle) activeModal = null;
      if (previousFocus && typeof previousFocus.focus === 'function') previousFocus.focus();
      return true;
    }
    function close() {
      if (teardown() && typeof options.onClose === 'function') options.onClose();
    }
    var stop = listen(iframe, sessionTokenOf(url), {
      success: function (result) {
        teardown();
        succeed(result, options);
      },
      close: close,
    });
    var handle = { iframe: iframe, close: close };
    activeModal = handle;
    closeButton.focus();
    return handle;
  }

  function focusGuard() {
    var guard = document.createElement('span');
    guard.tabIndex = 0;
    guard.setAttribute('aria-hidden', 'true');
    setStyles(guard, { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', opacity: '0' });
    return guard;
  }

  window.BnplCheckout = { open: open, mount: mount, origin: SERVICE_ORIGIN };
})();
