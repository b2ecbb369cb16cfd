// The node page (/ui/): facts, host gauges, drivers, devices, and the allocations list, updating live.
"use strict";

(() => {
  const { el, status, bytes, age } = Berth;
  const usage = new Map(); // alloc id -> {cpu, memory} from its stats endpoint
  let allocs = [];
  let sortKey = "age";
  let sortDir = 1;

  function fact(label, value) {
    return el("div", { class: "card" }, el("dt", {}, label), el("dd", {}, value));
  }

  // The drain under way (with its deadline), else how the last one ended, else "never".
  function drainText(node) {
    const d = node.DrainStrategy;
    if (d) {
      const until = d.Deadline < 0 ? "forced" : d.Deadline === 0 ? "no deadline" : "until " + new Date(d.ForceDeadline).toLocaleString();
      return el("span", {}, status("draining"), " " + until + (d.IgnoreSystemJobs ? ", system jobs kept" : ""));
    }
    const last = node.LastDrain;
    return last ? el("span", {}, status(last.Status), " " + new Date(last.UpdatedAt).toLocaleString()) : "never";
  }

  function renderNode(node) {
    document.getElementById("node-title").textContent = "Node " + node.Name;
    document.title = node.Name + " · Berth";
    document.getElementById("node-facts").replaceChildren(
      fact("Name", node.Name), fact("Status", status(node.Status)), fact("Datacenter", node.Datacenter),
      fact("Class", node.NodeClass || "none"), fact("ID", node.ID.slice(0, 8)),
      fact("Address", node.HTTPAddr || "–"), fact("Eligibility", status(node.SchedulingEligibility || "eligible")),
      fact("Drain", drainText(node)));
    const drivers = Object.entries(node.Drivers || {}).sort(([a], [b]) => a.localeCompare(b));
    document.getElementById("drivers").replaceChildren(...drivers.map(([name, d]) => el("tr", {},
      el("td", {}, name), el("td", {}, d.Detected ? "yes" : "no"),
      el("td", {}, d.Detected ? status(d.Healthy ? "healthy" : "unhealthy") : el("span", { class: "muted" }, "not detected")),
      el("td", { class: "muted" }, d.HealthDescription || ""))));
    const rows = [];
    for (const group of (node.NodeResources && node.NodeResources.Devices) || []) {
      for (const inst of group.Instances || []) {
        rows.push(el("tr", {}, el("td", {}, [group.Vendor, group.Type, group.Name].join("/")), el("td", {}, inst.ID),
          el("td", {}, status(inst.Healthy ? "healthy" : "unhealthy")), el("td", { class: "muted" }, inst.HealthDescription || "")));
      }
    }
    document.getElementById("devices").replaceChildren(...(rows.length ? rows
      : [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "No devices on this node."))]));
  }

  function gauge(label, ratio, detail) {
    const pct = Math.max(0, Math.min(100, ratio * 100));
    return el("div", { class: "card gauge" },
      el("div", {}, el("strong", {}, label), " ", pct.toFixed(0) + "%"),
      el("div", { class: "bar", role: "meter", "aria-label": label, "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": pct.toFixed(0) },
        el("span", { class: pct > 90 ? "high" : "", style: "width:" + pct.toFixed(1) + "%" })),
      el("div", { class: "muted" }, detail));
  }

  function renderHost(stats) {
    const cpus = stats.CPU || [];
    const cpu = cpus.length ? cpus.reduce((s, c) => s + c.TotalPercent, 0) / cpus.length / 100 : 0;
    const mem = stats.Memory || {};
    const memUsed = mem.Total ? (mem.Total - mem.Available) / mem.Total : 0;
    const gauges = [gauge("CPU", cpu, cpus.length + " cores"),
      gauge("Memory", memUsed, bytes(mem.Total - mem.Available) + " of " + bytes(mem.Total))];
    const disk = stats.AllocDirStats;
    if (disk && disk.Size) {
      gauges.push(gauge("Alloc dir disk", disk.UsedPercent / 100, bytes(disk.Used) + " of " + bytes(disk.Size)));
    }
    for (const d of stats.DiskStats || []) {
      gauges.push(gauge("Disk " + d.Mountpoint, d.UsedPercent / 100, d.Device + ": " + bytes(d.Used) + " of " + bytes(d.Size)));
    }
    document.getElementById("host-gauges").replaceChildren(...gauges);
  }

  function started(a) {
    let first = Infinity;
    for (const t of Object.values(a.TaskStates || {})) {
      for (const e of t.Events || []) {
        first = Math.min(first, e.Time);
      }
    }
    return first === Infinity ? 0 : first;
  }

  function sortValue(a) {
    const u = usage.get(a.ID) || {};
    switch (sortKey) {
      case "id": return a.ID;
      case "job": return a.JobID;
      case "group": return a.TaskGroup;
      case "status": return a.ClientStatus;
      case "cpu": return u.cpu || 0;
      case "memory": return u.memory || 0;
      default: return -started(a);
    }
  }

  function renderAllocs() {
    const rows = [...allocs].sort((x, y) => {
      const a = sortValue(x), b = sortValue(y);
      return (a < b ? -1 : a > b ? 1 : 0) * sortDir;
    });
    for (const th of document.querySelectorAll("#allocs-table th[data-sort]")) {
      th.setAttribute("aria-sort", th.dataset.sort === sortKey ? (sortDir > 0 ? "ascending" : "descending") : "none");
    }
    const body = document.getElementById("allocs");
    if (!rows.length) {
      body.replaceChildren(el("tr", {}, el("td", { colspan: 8, class: "muted" }, "No allocations on this node.")));
      return;
    }
    body.replaceChildren(...rows.map((a) => {
      const u = usage.get(a.ID);
      const tasks = Object.entries(a.TaskStates || {}).map(([name, t]) =>
        el("span", { class: "task-chip" }, name, " ", status(t.State), t.Restarts ? " ↻" + t.Restarts : "", " "));
      return el("tr", { "data-alloc": a.ID },
        el("td", {}, el("a", { href: "/ui/allocations/" + encodeURIComponent(a.ID) }, a.ID.slice(0, 8)), " ",
          el("span", { class: "muted" }, a.Name)),
        el("td", {}, a.JobID), el("td", {}, a.TaskGroup), el("td", {}, status(a.ClientStatus)),
        el("td", {}, tasks.length ? tasks : el("span", { class: "muted" }, "–")),
        el("td", { class: "num" }, u ? u.cpu.toFixed(1) + "%" : "–"),
        el("td", { class: "num alloc-memory" }, u ? bytes(u.memory) : "–"),
        el("td", { class: "num" }, age(started(a))));
    }));
  }

  async function refreshUsage() {
    const running = allocs.filter((a) => a.ClientStatus === "running").slice(0, 100);
    await Promise.all(running.map(async (a) => {
      try {
        const { body } = await Berth.getJson("/v1/client/allocation/" + encodeURIComponent(a.ID) + "/stats");
        const r = body.ResourceUsage || {};
        usage.set(a.ID, { cpu: (r.CpuStats || {}).Percent || 0, memory: (r.MemoryStats || {}).RSS || (r.MemoryStats || {}).Usage || 0 });
      } catch (e) {
        usage.delete(a.ID);
      }
    }));
    for (const id of [...usage.keys()]) {
      if (!running.some((a) => a.ID === id)) usage.delete(id);
    }
    renderAllocs();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const error = document.getElementById("node-error");
    for (const th of document.querySelectorAll("#allocs-table th[data-sort]")) {
      th.querySelector("button").addEventListener("click", () => {
        sortDir = sortKey === th.dataset.sort ? -sortDir : (["cpu", "memory"].includes(th.dataset.sort) ? -1 : 1);
        sortKey = th.dataset.sort;
        renderAllocs();
      });
    }
    Berth.live("/v1/node/self", (node) => { Berth.notice(error, ""); renderNode(node); },
      (e) => Berth.notice(error, "Could not read the node: " + e.message), 10000);
    Berth.live("/v1/client/allocations", (list) => { allocs = list || []; renderAllocs(); },
      (e) => Berth.notice(error, "Could not read the allocations: " + e.message));
    Berth.every(3000, async () => renderHost((await Berth.getJson("/v1/client/stats")).body));
    Berth.every(5000, refreshUsage);
  });
})();
