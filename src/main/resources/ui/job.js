// A job's page (/ui/jobs/{id}?namespace=ns): facts, groups, allocations grouped by job version (live), versions, and stop.
"use strict";

(() => {
  const { el, status, age } = Berth;
  const jobId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const namespace = new URLSearchParams(location.search).get("namespace") || "default";
  const ns = "?namespace=" + encodeURIComponent(namespace);
  const api = (sub) => "/v1/job/" + encodeURIComponent(jobId) + sub + ns;
  let job = null;
  let summary = null;

  function fact(label, value) {
    return el("div", { class: "card" }, el("dt", {}, label), el("dd", {}, value));
  }

  function submitted(nanos) {
    return nanos ? new Date(nanos / 1e6).toLocaleString() : "–";
  }

  function renderJob(j) {
    job = j;
    document.getElementById("job-title").textContent = "Job " + j.ID;
    document.title = j.ID + " · Jobs · Berth";
    document.getElementById("job-facts").replaceChildren(
      fact("ID", j.ID), fact("Name", j.Name || j.ID), fact("Type", j.Type),
      fact("Status", status(j.Stop ? "stopped" : j.Status)), fact("Priority", j.Priority), fact("Version", j.Version),
      fact("Namespace", j.Namespace || "default"), fact("Datacenters", (j.Datacenters || []).join(", ") || "–"),
      fact("Submitted", submitted(j.SubmitTime)));
    document.getElementById("stop-button").disabled = !!j.Stop;
    renderGroups();
  }

  function renderGroups() {
    if (!job) return;
    const counts = (summary && summary.Summary) || {};
    document.getElementById("groups").replaceChildren(...(job.TaskGroups || []).map((g) => {
      const s = counts[g.Name] || {};
      const now = ["Queued", "Starting", "Running", "Failed", "Complete", "Lost"].filter((k) => s[k])
        .map((k) => s[k] + " " + k.toLowerCase()).join(", ");
      return el("tr", { "data-group": g.Name }, el("td", {}, g.Name), el("td", { class: "num" }, g.Count),
        el("td", {}, (g.Tasks || []).map((t) => el("span", { class: "task-chip" }, t.Name, " ",
          el("span", { class: "muted" }, t.Driver), " "))),
        el("td", {}, now || el("span", { class: "muted" }, "none")));
    }));
  }

  // the job's latest deployment: status, each group's progress, and Promote while canaries wait for it
  function renderDeployment(d) {
    const box = document.getElementById("deployment");
    if (!d) {
      box.replaceChildren(el("p", { class: "muted" }, "None."));
      return;
    }
    const rows = Object.entries(d.TaskGroups || {}).map(([name, g]) => el("tr", { "data-deployment-group": name },
      el("td", {}, name), el("td", { class: "num" }, g.DesiredTotal), el("td", { class: "num" }, g.PlacedAllocs),
      el("td", { class: "num" }, g.HealthyAllocs), el("td", { class: "num" }, g.UnhealthyAllocs),
      el("td", {}, g.DesiredCanaries ? (g.PlacedCanaries || []).length + "/" + g.DesiredCanaries
        + (g.Promoted ? " promoted" : "") : "–")));
    const waits = d.Status === "running" && Object.values(d.TaskGroups || {}).some((g) => g.DesiredCanaries && !g.Promoted);
    const promote = el("button", { type: "button", id: "promote-button" }, "Promote canaries");
    promote.addEventListener("click", async () => {
      try {
        await Berth.api("/v1/deployment/promote/" + encodeURIComponent(d.ID),
          { method: "POST", body: JSON.stringify({ DeploymentID: d.ID, All: true }) });
      } catch (e) {
        Berth.notice(document.getElementById("action-result"), "Promote refused: " + e.message);
      }
    });
    box.replaceChildren(
      el("p", { "data-deployment": d.ID }, status(d.Status), " ", d.StatusDescription, " ",
        el("span", { class: "muted" }, "version " + d.JobVersion + ", " + d.ID.slice(0, 8))),
      el("table", {}, el("thead", {}, el("tr", {}, ...["Group", "Desired", "Placed", "Healthy", "Unhealthy", "Canaries"]
        .map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows)),
      ...(waits ? [el("div", { class: "toolbar" }, promote)] : []));
  }

  function started(a) {
    let first = Infinity;
    for (const t of Object.values(a.TaskStates || {})) {
      for (const e of t.Events || []) first = Math.min(first, e.Time);
    }
    return first === Infinity ? 0 : first;
  }

  function renderAllocs(allocs) {
    const byVersion = new Map();
    for (const a of allocs) {
      const v = a.JobVersion || 0;
      if (!byVersion.has(v)) byVersion.set(v, []);
      byVersion.get(v).push(a);
    }
    const container = document.getElementById("allocs");
    if (!byVersion.size) {
      container.replaceChildren(el("p", { class: "muted" }, "No allocations of this job on this node."));
      return;
    }
    container.replaceChildren(...[...byVersion.keys()].sort((x, y) => y - x).map((v) => {
      const headingId = "allocs-v" + v;
      const rows = byVersion.get(v).sort((x, y) => (x.Name || "").localeCompare(y.Name || "")).map((a) => {
        const tasks = Object.entries(a.TaskStates || {}).map(([name, t]) =>
          el("span", { class: "task-chip" }, name, " ", status(t.State), t.Restarts ? " ↻" + t.Restarts : "", " "));
        return el("tr", { "data-alloc": a.ID },
          el("td", {}, el("a", { href: "/ui/allocations/" + encodeURIComponent(a.ID) }, a.Name || a.ID), " ",
            el("span", { class: "muted" }, a.ID.slice(0, 8))),
          el("td", {}, status(a.ClientStatus)), el("td", {}, a.DesiredStatus || "run"),
          el("td", {}, tasks.length ? tasks : el("span", { class: "muted" }, "–")),
          el("td", { class: "num" }, age(started(a))));
      });
      return el("section", { class: "version", "data-version": v, "aria-labelledby": headingId },
        el("h3", { id: headingId }, "Version " + v + (job && job.Version === v ? " (current)" : "")),
        el("table", {}, el("thead", {}, el("tr", {}, ...["Allocation", "Status", "Desired", "Tasks"].map((h) =>
          el("th", { scope: "col" }, h)), el("th", { scope: "col", class: "num" }, "Age"))), el("tbody", {}, rows)));
    }));
  }

  async function refreshVersions() {
    const { body } = await Berth.getJson(api("/versions"));
    document.getElementById("versions").replaceChildren(...(body.Versions || []).map((v) => el("tr", { "data-version": v.Version },
      el("td", { class: "num" }, v.Version), el("td", {}, submitted(v.SubmitTime)), el("td", {}, v.Stable ? "yes" : "no"),
      el("td", {}, v.Stop ? "yes" : "no"),
      el("td", {}, (v.TaskGroups || []).map((g) => g.Name + " × " + g.Count).join(", ")))));
  }

  document.addEventListener("DOMContentLoaded", () => {
    const error = document.getElementById("job-error");
    const failed = (what) => (e) => Berth.notice(error, e.status === 404 ? "No job " + jobId + " on this agent."
      : "Could not read the " + what + ": " + e.message);
    let version = null;
    Berth.live(api(""), (j) => {
      Berth.notice(error, "");
      renderJob(j);
      if (j.Version !== version || j.Stop) {
        version = j.Version;
        refreshVersions().catch(failed("versions"));
      }
    }, failed("job"));
    // the summary's index is the job's: allocation states change it without moving the index, so wait at most 5 s
    Berth.live(api("/summary"), (s) => { summary = s; renderGroups(); }, () => {}, 3000, "5s");
    Berth.live(api("/deployment"), renderDeployment, failed("deployment"), 1000);
    // the job's allocations have no index of their own: re-read every 3 s (never faster)
    Berth.live(api("/allocations"), renderAllocs, failed("allocations"), 3000);

    const result = document.getElementById("action-result");
    document.getElementById("stop-button").addEventListener("click", async () => {
      if (!confirm("Stop job " + jobId + "? All its allocations are stopped.")) return;
      Berth.notice(result, "");
      try {
        await Berth.api(api(""), { method: "DELETE" });
        Berth.notice(result, "Stop: done.", true);
      } catch (e) {
        Berth.notice(result, "Stop refused: " + e.message);
      }
    });
  });
})();
