// The allocation page (/ui/allocations/{id}): tasks with events, live CPU and memory charts, device stats, logs,
// files and actions.
"use strict";

(() => {
  const { el, status, bytes } = Berth;
  const allocId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
  const base = "/v1/client/allocation/" + encodeURIComponent(allocId);
  const KEEP_SECONDS = 300;
  const SAMPLE_MS = 2000;
  let alloc = null;
  const charts = new Map(); // task -> {cpu, mem, data: {t: [], cpu: [], rss: [], usage: []}}

  function fact(label, value) {
    return el("div", { class: "card" }, el("dt", {}, label), el("dd", {}, value));
  }

  // ---- tasks and events -------------------------------------------------------------------------------------

  function taskNames() {
    const names = new Set(Object.keys((alloc && alloc.TaskStates) || {}));
    const group = alloc && alloc.Job && (alloc.Job.TaskGroups || []).find((g) => g.Name === alloc.TaskGroup);
    for (const t of (group && group.Tasks) || []) names.add(t.Name);
    return [...names].sort();
  }

  function renderAlloc(a) {
    alloc = a;
    document.getElementById("alloc-title").textContent = "Allocation " + a.Name;
    document.title = a.Name + " · Berth";
    document.getElementById("alloc-facts").replaceChildren(
      fact("ID", a.ID), fact("Namespace", a.Namespace || "default"), fact("Job", a.JobID), fact("Group", a.TaskGroup), fact("Client status", status(a.ClientStatus)),
      fact("Desired", a.DesiredStatus || "run"), fact("Node", a.NodeName || a.NodeID || "–"));
    const container = document.getElementById("tasks");
    for (const name of taskNames()) {
      let card = container.querySelector('[data-task="' + CSS.escape(name) + '"]');
      if (!card) {
        card = el("section", { class: "task", "data-task": name, "aria-label": "Task " + name },
          el("h3", {}, name, " ", el("span", { class: "task-state" })),
          el("div", { class: "task-meta muted" }),
          el("div", { class: "charts" },
            el("figure", { class: "chart cpu-chart", "data-points": 0 }, el("figcaption", {}, "CPU % (100 = one core)")),
            el("figure", { class: "chart mem-chart", "data-points": 0 }, el("figcaption", {}, "Memory"))),
          el("h4", {}, "Events"), el("ol", { class: "events", tabindex: 0, "aria-label": "Events of " + name }));
        container.append(card);
      }
      const st = (a.TaskStates || {})[name] || { State: "pending", Events: [] };
      card.querySelector(".task-state").replaceChildren(status(st.State), st.Failed ? " failed" : "");
      card.querySelector(".task-meta").textContent = "Restarts: " + (st.Restarts || 0)
        + (st.StartedAt && !st.StartedAt.startsWith("0001") ? " · started " + new Date(st.StartedAt).toLocaleString() : "");
      card.querySelector(".events").replaceChildren(...(st.Events || []).map((e) =>
        el("li", {}, el("time", { datetime: new Date(e.Time / 1e6).toISOString() }, Berth.time(e.Time)),
          el("strong", {}, e.Type), " ", e.DisplayMessage || e.Message || "")));
    }
    for (const id of ["action-task", "log-task"]) {
      const select = document.getElementById(id);
      const have = [...select.options].map((o) => o.value);
      for (const name of taskNames()) {
        if (!have.includes(name)) select.append(el("option", { value: name }, name));
      }
    }
    if (!logStarted && taskNames().length) {
      startLogs();
    }
  }

  // ---- charts -----------------------------------------------------------------------------------------------

  function chartFor(name) {
    let c = charts.get(name);
    if (c) return c;
    const card = document.querySelector('#tasks [data-task="' + CSS.escape(name) + '"]');
    if (!card || typeof uPlot === "undefined") return null;
    const data = { t: [], cpu: [], rss: [], usage: [] };
    const width = Math.max(240, Math.min(440, card.clientWidth / 2 - 24));
    const opts = (title, series, unit) => ({
      width, height: 170, legend: { live: false },
      scales: { x: { time: true } },
      axes: [{}, { values: (u, vals) => vals.map((v) => unit(v)), size: 84 }],
      series: [{}, ...series],
    });
    const cpu = new uPlot(opts("CPU", [{ label: "CPU %", stroke: "#0a5cc2", width: 2, fill: "rgba(10,92,194,.12)" }],
      (v) => (v < 1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : v.toFixed(0)) + "%"), [data.t, data.cpu], card.querySelector(".cpu-chart"));
    const mem = new uPlot(opts("Memory", [{ label: "RSS", stroke: "#116b2f", width: 2 }, { label: "Usage", stroke: "#8a5200", width: 2 }],
      (v) => bytes(v)), [data.t, data.rss, data.usage], card.querySelector(".mem-chart"));
    c = { cpu, mem, data, card };
    charts.set(name, c);
    return c;
  }

  async function sampleStats() {
    const { body } = await Berth.getJson(base + "/stats");
    for (const [name, s] of Object.entries(body.Tasks || {})) {
      const c = chartFor(name);
      if (!c) continue;
      const r = s.ResourceUsage || {};
      const t = (s.Timestamp || Date.now() * 1e6) / 1e9;
      if (c.data.t.length && c.data.t[c.data.t.length - 1] >= t) continue; // no new sample since the last poll
      c.data.t.push(t);
      c.data.cpu.push((r.CpuStats || {}).Percent || 0);
      c.data.rss.push((r.MemoryStats || {}).RSS || 0);
      c.data.usage.push((r.MemoryStats || {}).Usage || 0);
      while (c.data.t.length && c.data.t[0] < t - KEEP_SECONDS) {
        for (const k of Object.keys(c.data)) c.data[k].shift();
      }
      c.cpu.setData([c.data.t, c.data.cpu]);
      c.mem.setData([c.data.t, c.data.rss, c.data.usage]);
      c.card.querySelector(".cpu-chart").dataset.points = c.data.t.length;
      c.card.querySelector(".mem-chart").dataset.points = c.data.t.length;
      c.card.querySelector(".cpu-chart figcaption").textContent = "CPU % (100 = one core): " + c.data.cpu.at(-1).toFixed(1) + "%";
      c.card.querySelector(".mem-chart figcaption").textContent = "Memory: RSS " + bytes(c.data.rss.at(-1));
    }
    renderDeviceStats(body.ResourceUsage && body.ResourceUsage.DeviceStats);
  }

  function renderDeviceStats(groups) {
    const box = document.getElementById("device-stats");
    const rows = [];
    for (const g of groups || []) {
      for (const [id, inst] of Object.entries(g.InstanceStats || {})) {
        const summary = inst.Summary || {};
        const value = summary.IntNumeratorVal ?? summary.FloatNumeratorVal ?? summary.StringVal ?? "";
        rows.push(el("tr", {}, el("td", {}, [g.Vendor, g.Type, g.Name].join("/")), el("td", {}, id),
          el("td", {}, String(value) + (summary.Unit ? " " + summary.Unit : "")), el("td", { class: "muted" }, summary.Desc || "")));
      }
    }
    box.replaceChildren(rows.length ? el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Device"),
      el("th", { scope: "col" }, "Instance"), el("th", { scope: "col" }, "Value"), el("th", { scope: "col" }, "Statistic"))),
      el("tbody", {}, rows)) : el("p", { class: "muted" }, "No devices."));
  }

  // ---- logs -------------------------------------------------------------------------------------------------

  let logStarted = false;
  let logAbort = null;
  const LOG_KEEP = 200000;

  async function startLogs() {
    logStarted = true;
    if (logAbort) logAbort.abort();
    const controller = new AbortController();
    logAbort = controller;
    const pre = document.getElementById("log");
    pre.textContent = "";
    const task = document.getElementById("log-task").value;
    const type = document.getElementById("log-type").value;
    const follow = document.getElementById("log-follow").checked;
    if (!task) return;
    const url = "/v1/client/fs/logs/" + encodeURIComponent(allocId) + "?task=" + encodeURIComponent(task) + "&type=" + type
      + "&plain=true&origin=end&offset=16384&follow=" + follow;
    try {
      const response = await Berth.api(url, { signal: controller.signal });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || controller.signal.aborted) break;
        const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
        pre.textContent = (pre.textContent + decoder.decode(value, { stream: true })).slice(-LOG_KEEP);
        if (atBottom || follow) pre.scrollTop = pre.scrollHeight;
      }
    } catch (e) {
      if (!controller.signal.aborted) pre.textContent += "\n[log: " + e.message + "]";
    }
  }

  // ---- files ------------------------------------------------------------------------------------------------

  async function showDir(path) {
    const view = document.getElementById("file-view");
    view.hidden = true;
    const crumbs = [el("a", { href: "#", onclick: (e) => { e.preventDefault(); showDir("/"); } }, "alloc dir")];
    let acc = "";
    for (const part of path.split("/").filter(Boolean)) {
      acc += "/" + part;
      const target = acc;
      crumbs.push(" / ", el("a", { href: "#", onclick: (e) => { e.preventDefault(); showDir(target); } }, part));
    }
    document.getElementById("files-path").replaceChildren(...crumbs);
    const body = document.getElementById("files");
    try {
      const { body: entries } = await Berth.getJson("/v1/client/fs/ls/" + encodeURIComponent(allocId) + "?path=" + encodeURIComponent(path));
      entries.sort((a, b) => (b.IsDir - a.IsDir) || a.Name.localeCompare(b.Name));
      body.replaceChildren(...entries.map((f) => {
        const full = (path.endsWith("/") ? path : path + "/") + f.Name;
        const open = (e) => { e.preventDefault(); f.IsDir ? showDir(full) : showFile(full); };
        return el("tr", {}, el("td", {}, el("a", { href: "#", onclick: open }, f.Name + (f.IsDir ? "/" : ""))),
          el("td", { class: "num" }, f.IsDir ? "" : bytes(f.Size)), el("td", { class: "muted" }, f.ModTime ? new Date(f.ModTime).toLocaleString() : ""));
      }));
    } catch (e) {
      body.replaceChildren(el("tr", {}, el("td", { colspan: 3, class: "muted" }, "Cannot list " + path + ": " + e.message)));
    }
  }

  async function showFile(path) {
    const view = document.getElementById("file-view");
    view.hidden = false;
    view.textContent = "Loading " + path + "…";
    try {
      const r = await Berth.api("/v1/client/fs/readat/" + encodeURIComponent(allocId) + "?path=" + encodeURIComponent(path) + "&offset=0&limit=65536");
      view.textContent = await r.text();
    } catch (e) {
      view.textContent = "Cannot read " + path + ": " + e.message;
    }
    view.focus();
  }

  // ---- actions ----------------------------------------------------------------------------------------------

  async function act(label, fn) {
    const out = document.getElementById("action-result");
    try {
      await fn();
      Berth.notice(out, label + ": done.", true);
    } catch (e) {
      Berth.notice(out, label + " refused: " + e.message);
    }
  }

  function post(path, body) {
    return Berth.api(base + path, { method: "POST", body: JSON.stringify(body) });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const error = document.getElementById("alloc-error");
    Berth.live("/v1/allocation/" + encodeURIComponent(allocId), (a) => { Berth.notice(error, ""); renderAlloc(a); },
      (e) => Berth.notice(error, e.status === 404 ? "No allocation " + allocId + " on this node." : "Could not read the allocation: " + e.message));
    Berth.every(SAMPLE_MS, sampleStats);
    for (const id of ["log-task", "log-type", "log-follow"]) {
      document.getElementById(id).addEventListener("change", startLogs);
    }
    showDir("/");
    const task = () => document.getElementById("action-task").value || null;
    document.getElementById("restart-button").addEventListener("click", () =>
      act("Restart", () => post("/restart", task() ? { TaskName: task() } : {})));
    document.getElementById("signal-button").addEventListener("click", () =>
      act("Signal " + document.getElementById("signal-name").value, () =>
        post("/signal", { Task: task(), Signal: document.getElementById("signal-name").value })));
    document.getElementById("stop-button").addEventListener("click", () => {
      if (!confirm("Stop allocation " + allocId + "? Its tasks are killed.")) return;
      act("Stop", async () => {
        // Nomad's stop endpoint where the agent has it; else Berth's own way: an update with DesiredStatus=stop
        try {
          await Berth.api("/v1/allocation/" + encodeURIComponent(allocId) + "/stop", { method: "POST" });
          return;
        } catch (e) {
          if (e.status !== 404 && e.status !== 405) throw e;
        }
        const { body: current } = await Berth.getJson("/v1/allocation/" + encodeURIComponent(allocId));
        current.DesiredStatus = "stop";
        current.AllocModifyIndex = (current.AllocModifyIndex || 0) + 1;
        await Berth.api(base, { method: "PUT", body: JSON.stringify(current) });
      });
    });
  });
})();
