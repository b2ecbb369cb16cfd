// The jobs page (/ui/jobs): every job of every namespace with its groups' running/wanted counts, updating live (blocking queries).
"use strict";

(() => {
  const { el, status, age } = Berth;

  /** "web 2/2" per group: running of wanted (queued + starting + running), failures and lost ones when there are any. */
  function groups(summary) {
    const entries = Object.entries((summary && summary.Summary) || {}).sort(([a], [b]) => a.localeCompare(b));
    if (!entries.length) {
      return el("span", { class: "muted" }, "–");
    }
    return entries.map(([name, s]) => {
      const wanted = (s.Queued || 0) + (s.Starting || 0) + (s.Running || 0);
      const extra = [s.Failed ? s.Failed + " failed" : null, s.Lost ? s.Lost + " lost" : null,
        s.Complete ? s.Complete + " complete" : null].filter(Boolean).join(", ");
      return el("span", { class: "task-chip", "data-group": name }, name, " ",
        el("strong", { class: "group-count" }, (s.Running || 0) + "/" + wanted), extra ? " (" + extra + ")" : "", " ");
    });
  }

  function render(jobs) {
    const body = document.getElementById("jobs");
    const rows = [...jobs].sort((a, b) => a.ID.localeCompare(b.ID) || (a.Namespace || "").localeCompare(b.Namespace || ""));
    if (!rows.length) {
      body.replaceChildren(el("tr", {}, el("td", { colspan: 7, class: "muted" },
        "No jobs. Register one with `nomad job run` or PUT /v1/jobs.")));
      return;
    }
    body.replaceChildren(...rows.map((j) => el("tr", { "data-job": j.ID, "data-namespace": j.Namespace },
      el("td", {}, el("a", { href: "/ui/jobs/" + encodeURIComponent(j.ID) + "?namespace=" + encodeURIComponent(j.Namespace) }, j.ID),
        j.Name && j.Name !== j.ID ? el("span", { class: "muted" }, " " + j.Name) : null),
      el("td", {}, j.Namespace),
      el("td", {}, j.Type), el("td", {}, status(j.Stop ? "stopped" : j.Status)),
      el("td", { class: "num" }, j.Priority), el("td", {}, groups(j.JobSummary)),
      el("td", { class: "num", title: j.SubmitTime ? new Date(j.SubmitTime / 1e6).toLocaleString() : "" },
        j.SubmitTime ? age(j.SubmitTime) + " ago" : "–"))));
  }

  document.addEventListener("DOMContentLoaded", () => {
    const error = document.getElementById("jobs-error");
    // A job change answers at once; the group counts come from allocation states, which do not move the jobs' index
    // (allocation changes are not on the change feed yet), so each wait is 5 s: counts are at most 5 s old.
    Berth.live("/v1/jobs?namespace=*", (list) => { Berth.notice(error, ""); render(list || []); },
      (e) => Berth.notice(error, "Could not read the jobs: " + e.message), 3000, "5s");
  });
})();
