/* Register the service worker (its URL and scope are on this script's tag) where the browser
 * allows one: HTTPS or this machine itself. */
(function () {
  "use strict";
  var tag = document.currentScript;
  if (!tag || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  var worker = tag.getAttribute("data-worker");
  var scope = tag.getAttribute("data-scope") || "/";
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker, { scope: scope }).catch(function () {
      /* the app works the same without it */
    });
  });
})();
