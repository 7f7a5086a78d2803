// Inlined at the end of a server-rendered first screen (server/plugins/first-screen.ts) in place of the app's entry
// script: the page is already readable, so its photos get the connection first and the app's code (most of the first
// visit's bytes) is fetched once they have loaded and painted. On a phone's connection the largest photo no longer
// shares the bandwidth with the code. A visitor who reaches for the page sooner starts the app at once.
(function () {
  var script = document.currentScript;
  var src = script && script.getAttribute('data-entry');
  if (!src) return;
  var started = false;
  var failed = false;
  // A held link opens as a plain link if the app cannot come (declared below).
  var giveUp = function () {};
  var start = function () {
    if (started) return;
    started = true;
    var s = document.createElement('script');
    s.type = 'module';
    s.crossOrigin = '';
    s.src = src;
    s.onerror = function () {
      failed = true;
      giveUp();
    };
    document.head.appendChild(s);
  };
  var afterPaint = function () {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
    // A hidden tab paints no frame.
    setTimeout(start, 200);
  };
  if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
  ['pointerdown', 'keydown', 'touchstart', 'focusin'].forEach(function (type) {
    window.addEventListener(type, start, { once: true, passive: true, capture: true });
  });
  // A press on a button or an in-app link before the app has taken over is held and made again once it has
  // (the app's layout calls __vitrinaTakeOver once it is hydrated): the visitor's first tap is not lost, and
  // a link opens inside the app, which keeps what this page showed for offline use. A link opens as a plain link if
  // the app's code fails to load, or has not taken over after LINK_WAIT_MS (a very slow phone or connection). What is
  // typed into a field stays there for the app to find.
  var LINK_WAIT_MS = 8000;
  var pressed = null;
  var taken = false;
  var inApp = function (link) {
    return (
      link.origin === location.origin &&
      !link.target &&
      !link.hasAttribute('download') &&
      link.pathname.indexOf('/api/') !== 0 &&
      link.pathname.indexOf('/media/') !== 0
    );
  };
  document.addEventListener(
    'click',
    function (event) {
      if (taken || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      var target = event.target;
      var el = target && target.closest ? target.closest('a[href], button') : null;
      if (!el) return;
      if (el.tagName === 'BUTTON' ? el.type === 'submit' : !inApp(el)) return;
      if (failed) return;
      event.preventDefault();
      pressed = el;
      start();
      if (el.tagName === 'A') {
        giveUp = function () {
          if (!taken && pressed === el) location.assign(el.href);
        };
        setTimeout(giveUp, LINK_WAIT_MS);
      }
    },
    true,
  );
  // The browser offers the install prompt once, maybe before the app's code is here: kept for it (src/app/pwa-state.ts).
  window.addEventListener('beforeinstallprompt', function (event) {
    if (taken) return;
    event.preventDefault();
    window.__vitrinaInstallPrompt = event;
  });
  window.__vitrinaTakeOver = function () {
    taken = true;
    var el = pressed;
    pressed = null;
    if (el && el.isConnected) el.click();
  };
})();
