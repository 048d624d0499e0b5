/* A page the server could not answer yet (503 with Retry-After: the season's figures being
 * worked out as the score book starts) opens itself again once the seconds it asked for are
 * over. The address and the seconds are on this script's tag. */
const tag = document.querySelector("script[data-reopen]");

if (tag) {
  const seconds = Number(tag.getAttribute("data-seconds")) || 1;
  setTimeout(() => window.location.replace(tag.getAttribute("data-reopen")), seconds * 1000);
}
