/* The outbox of a form its page posts itself (the score book's forms, drafts.js; a phone's hand,
 * phonehand.js): one post on its way at a time, sent by fetch with the header that asks the
 * server for a JSON answer; kept when it does not arrive, and tried again by itself a few seconds
 * later, at once when the device is back online, or when the page asks (a tap on "Try again").
 * A repeat never writes twice: the form's one-time token makes the second post write nothing
 * (the write-once tokens). Also this device's storage, which a browser may refuse. */

// The header that asks for a JSON answer, named by the server in every page's head.
const SCRIPT_POST_HEADER = document.querySelector('meta[name="script-post-header"]').content;
const RETRY_MS = 4000;
// A post with no answer by then is taken as lost (Wi-Fi gone mid-way) and tried again; the
// server's own wait for a busy database is shorter, so a slow answer still arrives first.
const ANSWER_WITHIN_MS = 20000;

/* localStorage, or null where it is refused (private mode, policy); a write that fails (storage
 * full) is the page's to hold, and the send still goes. */
function localStore() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export const storage = {
  store: localStore(),

  get(key) {
    try {
      return this.store ? this.store.getItem(key) : null;
    } catch {
      return null;
    }
  },

  set(key, value) {
    try {
      if (this.store) this.store.setItem(key, value);
    } catch {
      /* storage full or refused: the page itself still holds it */
    }
  },

  remove(key) {
    try {
      if (this.store) this.store.removeItem(key);
    } catch {
      /* nothing kept */
    }
  },

  /* The keys starting with `prefix`, without it. */
  keys(prefix) {
    const found = [];
    if (!this.store) return found;
    for (let i = 0; i < this.store.length; i++) {
      const name = this.store.key(i);
      if (name && name.startsWith(prefix)) found.push(name.slice(prefix.length));
    }
    return found;
  },
};

/* Whether this browser can post a form by script; where it cannot, the form posts itself. */
export function canPost() {
  return Boolean(window.fetch && window.FormData && window.URLSearchParams);
}

export class Outbox {
  /* `form`: the form posted (its action, and posted the ordinary way when the server answers
   * with a page). `hooks`, each optional:
   *   body()          what to send now, a urlencoded string, or null for nothing (default: the
   *                   form's fields as they are);
   *   retryable(r)    whether the answer `r` is the server away rather than a refusal: kept and
   *                   tried again (default: 503, busy, after its Retry-After);
   *   trying()        a post leaves;       settled()   its answer came or it was lost;
   *   waiting(state)  it is kept: {busy: the server asked to wait, left: it went out while the
   *                   device was online, so it may have arrived; offline: the device is now};
   *   saved()         the server has it: the page goes where the answer says next;
   *   refused(r, b)   the server answered `r` with a page to the body `b` (default: the form
   *                   posted the ordinary way, to show that page as it is). */
  constructor(form, hooks = {}) {
    this.form = form;
    this.hooks = hooks;
    this.sending = false;
    this.finished = false;
    this.kept = false;
    this.retry = null;
    window.addEventListener("online", () => {
      if (this.kept) this.send(false);
    });
  }

  body() {
    if (this.hooks.body) return this.hooks.body();
    return new URLSearchParams(new FormData(this.form)).toString();
  }

  /* Post now: `tapped` when a person asked, which tries even where the browser says offline. */
  send(tapped) {
    if (this.sending || this.finished) return;
    const body = this.body();
    if (body === null) return;
    clearTimeout(this.retry);
    if (!tapped && navigator.onLine === false) {
      this.wait({ busy: false, left: false });
      return;
    }
    this.sending = true;
    const online = navigator.onLine !== false;
    if (this.hooks.trying) this.hooks.trying();
    const abort = window.AbortController ? new AbortController() : null;
    const late = abort && setTimeout(() => abort.abort(), ANSWER_WITHIN_MS);
    fetch(this.form.action, {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        [SCRIPT_POST_HEADER]: "1",
      },
      credentials: "same-origin",
      cache: "no-store",
      signal: abort ? abort.signal : undefined,
    })
      .then((response) => {
        clearTimeout(late);
        return this.answered(response, body);
      })
      .catch(() => {
        clearTimeout(late);
        this.sending = false;
        if (!this.finished) this.wait({ busy: false, left: online });
      })
      .finally(() => {
        this.sending = false;
        if (this.hooks.settled) this.hooks.settled();
      });
  }

  answered(response, body) {
    const retryable = this.hooks.retryable || ((answer) => answer.status === 503);
    if (retryable(response)) {
      // Not broken: nothing was saved. A busy server says how long to wait (a little).
      this.sending = false;
      const busy = response.status === 503;
      const wait = Number(response.headers.get("Retry-After")) * 1000;
      this.wait({ busy, left: false }, busy ? Math.min(Math.max(wait || RETRY_MS, 1000), 10000) : 0);
      return undefined;
    }
    this.finished = true;
    this.kept = false;
    const type = response.headers.get("Content-Type") || "";
    if (response.ok && type.startsWith("application/json")) {
      return response.json().then((answer) => {
        if (this.hooks.saved) this.hooks.saved();
        window.location.assign(answer.location);
      });
    }
    if (this.hooks.refused) this.hooks.refused(response, body);
    else HTMLFormElement.prototype.submit.call(this.form);
    return undefined;
  }

  /* Kept: say so, and try again by itself in a while. */
  wait(state, retryMs) {
    this.kept = true;
    if (this.hooks.waiting) this.hooks.waiting({ ...state, offline: navigator.onLine === false });
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.send(false), retryMs || this.hooks.retryMs || RETRY_MS);
  }
}
