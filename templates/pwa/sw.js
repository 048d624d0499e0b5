/* Liverpool Scorekeeper's service worker: static files from the cache (their URLs name their
 * content), pages from the server, and the offline page when the server cannot be reached (in
 * the language of the page that registered it: the cache's name carries it). */
"use strict";

var CACHE = {{ cache | tojson }};
var PRECACHE = {{ precache | tojson }};
var OFFLINE = {{ offline | tojson }};
// Where the static files are: `/static/`, or under the prefix the score book is served at.
var STATIC = {{ static | tojson }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    // Without the session cookie: fetching the offline page must not use up a pending message.
    caches.open(CACHE).then(function (cache) {
      return cache.addAll(PRECACHE.map(function (url) {
        return new Request(url, { credentials: "omit" });
      }));
    })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("scorekeeper-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function fingerprinted(url) {
  return url.origin === self.location.origin && url.pathname.indexOf(STATIC) === 0 &&
    url.searchParams.has("v");
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE, { cacheName: CACHE });
    }));
    return;
  }
  var url = new URL(request.url);
  if (!fingerprinted(url)) return;
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (kept) {
        return kept || fetch(request).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
      });
    })
  );
});
