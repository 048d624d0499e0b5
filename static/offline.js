/* The offline page tries again by itself: it asks the server's health check every few seconds
 * (never from a cache) and, once it answers, reloads the page, which the service worker then
 * takes from the network. The check's URL and the interval are on this script's tag. */
import { word } from "./words.js";
const tag = document.querySelector("script[data-health]");
const status = document.getElementById("retry");

function retry(health, seconds) {
  if (status) status.textContent = word("trying_every", { seconds });

  function later() {
    setTimeout(tryAgain, seconds * 1000);
  }

  function tryAgain() {
    fetch(health, { cache: "no-store", credentials: "omit" }).then((response) => {
      if (!response.ok) { later(); return; }
      if (status) status.textContent = word("answers_again");
      window.location.reload();
    }).catch(later);
  }

  later();
}

if (tag && window.fetch) retry(tag.getAttribute("data-health"), Number(tag.getAttribute("data-seconds")) || 5);
