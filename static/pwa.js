/* Register the service worker (its URL and scope are on this script's tag) where the browser
 * allows one: HTTPS or this machine itself. */
const tag = document.querySelector("script[data-worker]");
if (tag && "serviceWorker" in navigator && window.isSecureContext) {
  const worker = tag.getAttribute("data-worker");
  const scope = tag.getAttribute("data-scope") || "/";
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(worker, { scope }).catch(() => {
      /* the app works the same without it */
    });
  });
}
