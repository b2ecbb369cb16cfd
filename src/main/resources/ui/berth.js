// Berth web UI: shared helpers (token, API calls, live queries, formatting). No build step, no framework.
"use strict";

const Berth = (() => {
  const TOKEN_KEY = "berth.token";

  function token() {
    return localStorage.getItem(TOKEN_KEY) || "";
  }

  function setToken(value) {
    if (value) {
      localStorage.setItem(TOKEN_KEY, value);
    } else {
      localStorage.removeItem(TOKEN_KEY);
    }
    renderTokenButton();
  }

  class ApiError extends Error {
    constructor(status, detail) {
      super(detail || ("HTTP " + status));
      this.status = status;
    }
  }

  // Waiting for a token: every call refused with 403 waits here until the person gave one, then retries once.
  let tokenWaiters = null;

  function askForToken(reason) {
    if (!tokenWaiters) {
      tokenWaiters = [];
      const dialog = document.getElementById("token-dialog");
      document.getElementById("token-reason").textContent = reason || "";
      document.getElementById("token-input").value = token();
      dialog.showModal();
    }
    return new Promise((resolve) => tokenWaiters.push(resolve));
  }

  function tokenGiven(value) {
    setToken(value);
    const waiters = tokenWaiters || [];
    tokenWaiters = null;
    waiters.forEach((w) => w());
  }

  async function problemDetail(response) {
    try {
      const body = await response.clone().json();
      return body.detail || body.title || JSON.stringify(body);
    } catch (e) {
      return (await response.text()).slice(0, 300);
    }
  }

  /** fetch() against the agent with the token; a 403 on a read asks for a token and retries. */
  async function api(path, options = {}, retried = false) {
    const headers = Object.assign({}, options.headers || {});
    if (token()) {
      headers["X-Nomad-Token"] = token();
    }
    if (options.body && !headers["Content-Type"]) {
      headers["Content-Type"] = "application/json";
    }
    const response = await fetch(path, Object.assign({}, options, { headers }));
    if (response.status === 403) {
      const detail = await problemDetail(response);
      const write = options.method && options.method !== "GET";
      if (!retried && !write) {
        await askForToken("The agent refused: " + detail + ". Enter an ACL token with read scope.");
        return api(path, options, true);
      }
      throw new ApiError(403, write ? detail + " (this needs a token with write scope)" : detail);
    }
    if (!response.ok) {
      throw new ApiError(response.status, await problemDetail(response));
    }
    return response;
  }

  async function getJson(path) {
    const response = await api(path);
    return { body: await response.json(), index: Number(response.headers.get("X-Nomad-Index") || 0) };
  }

  /**
   * Keeps {@code onData} up to date with a Nomad blocking query: the next request carries the last X-Nomad-Index and
   * waits on the agent until something changes. An endpoint without an index (older agent) is re-read every
   * {@code fallbackMs} instead. {@code wait} bounds each blocking request (a shorter one where part of the answer
   * can change without moving the index). Returns a function that stops the loop.
   */
  function live(path, onData, onError, fallbackMs = 3000, wait = "60s") {
    let stopped = false;
    let index = 0;
    (async () => {
      while (!stopped) {
        const started = Date.now();
        try {
          const sep = path.includes("?") ? "&" : "?";
          const url = index > 0 ? path + sep + "index=" + index + "&wait=" + wait : path;
          const { body, index: next } = await getJson(url);
          if (stopped) {
            break;
          }
          onData(body);
          if (next > 0 && next !== index) {
            index = next;
            continue;
          }
          // no index, or the wait ran out with nothing new: do not spin
          if (next === 0 || Date.now() - started < 1000) {
            await sleep(fallbackMs);
          }
        } catch (e) {
          if (onError) {
            onError(e);
          }
          await sleep(fallbackMs);
        }
      }
    })();
    return () => { stopped = true; };
  }

  /** Calls {@code fn} now and then every {@code ms} while the tab is visible (for stats, which have no index). */
  function every(ms, fn) {
    let timer = null;
    const tick = async () => {
      if (!document.hidden) {
        try {
          await fn();
        } catch (e) {
          console.warn(e);
        }
      }
      timer = setTimeout(tick, ms);
    };
    tick();
    return () => clearTimeout(timer);
  }

  function sleep(ms) {
    return new Promise((r) => setTimeout(r, ms));
  }

  function bytes(n) {
    if (n == null || isNaN(n)) {
      return "–";
    }
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let i = 0;
    while (Math.abs(n) >= 1024 && i < units.length - 1) {
      n /= 1024;
      i++;
    }
    return (i === 0 ? n : n.toFixed(1)) + " " + units[i];
  }

  function age(nanos) {
    if (!nanos) {
      return "–";
    }
    const s = Math.max(0, Math.round((Date.now() - nanos / 1e6) / 1000));
    if (s < 60) return s + "s";
    if (s < 3600) return Math.floor(s / 60) + "m" + (s % 60) + "s";
    if (s < 86400) return Math.floor(s / 3600) + "h" + Math.floor((s % 3600) / 60) + "m";
    return Math.floor(s / 86400) + "d" + Math.floor((s % 86400) / 3600) + "h";
  }

  function time(nanos) {
    return new Date(nanos / 1e6).toLocaleTimeString();
  }

  /** A small element builder: el("td", {class: "num"}, "text", child…). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c == null) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function status(text) {
    return el("span", { class: "status " + String(text || "").toLowerCase() }, text || "unknown");
  }

  function notice(container, message, ok) {
    container.replaceChildren(message ? el("p", { class: "notice" + (ok ? " ok" : ""), role: ok ? "status" : "alert" }, message) : "");
  }

  function renderTokenButton() {
    const b = document.getElementById("token-button");
    if (b) {
      b.textContent = token() ? "Token set (change)" : "Set ACL token";
    }
  }

  function init() {
    const dialog = document.getElementById("token-dialog");
    document.getElementById("token-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      dialog.close();
      tokenGiven(document.getElementById("token-input").value.trim());
    });
    document.getElementById("token-clear").addEventListener("click", () => {
      dialog.close();
      tokenGiven("");
    });
    dialog.addEventListener("close", () => {
      if (tokenWaiters) {
        tokenGiven(token()); // dismissed (Escape): the waiting calls retry once and report the refusal
      }
    });
    document.getElementById("token-button").addEventListener("click", () => {
      document.getElementById("token-reason").textContent = "";
      document.getElementById("token-input").value = token();
      dialog.showModal();
    });
    renderTokenButton();
  }

  document.addEventListener("DOMContentLoaded", init);

  return { api, getJson, live, every, bytes, age, time, el, status, notice, ApiError, token };
})();
