/* jaxcb site: environment switch, matrix filters and the cell detail box.
   No dependencies, no network. The chosen environment is remembered across pages. */
(function () {
  "use strict";
  var KEY = "jaxcb.env";

  function remembered() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function remember(value) {
    try { window.localStorage.setItem(KEY, value); } catch (e) { /* private mode */ }
  }

  function showEnv(container, value) {
    var blocks = container.querySelectorAll(".jx-env");
    var known = Array.prototype.some.call(blocks, function (b) { return b.dataset.env === value; });
    if (!known && blocks.length) value = blocks[0].dataset.env;
    blocks.forEach(function (b) { b.hidden = b.dataset.env !== value; });
    return value;
  }

  function setEnv(value, store) {
    if (store) remember(value);
    document.querySelectorAll(".jx-env-select").forEach(function (sel) {
      var has = Array.prototype.some.call(sel.options, function (o) { return o.value === value; });
      sel.value = has ? value : sel.options[0].value;
      var container = sel.closest(".jx-matrix-page, .jx-summary, .jx-slice") || document;
      showEnv(container, sel.value);
    });
  }

  function applyFilters(page) {
    var want = {};
    page.querySelectorAll(".jx-filter").forEach(function (sel) { want[sel.dataset.filter] = sel.value; });
    page.querySelectorAll("tbody tr").forEach(function (tr) {
      var show = true;
      if (want.mechanism && tr.dataset.mechanism !== want.mechanism) show = false;
      if (want.computation && tr.dataset.computation && tr.dataset.computation !== want.computation) show = false;
      tr.hidden = !show;
    });
  }

  function detailBox() {
    var box = document.querySelector(".jx-detail");
    if (box) return box;
    box = document.createElement("div");
    box.className = "jx-detail";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "Matrix cell");
    box.hidden = true;
    box.innerHTML =
      '<pre class="jx-detail-text"></pre>' +
      '<p>Re-run it: <code class="jx-detail-cmd"></code></p>' +
      '<div class="jx-detail-actions"><button type="button" class="jx-copy">Copy command</button>' +
      '<button type="button" class="jx-close">Close</button></div>';
    document.body.appendChild(box);
    box.querySelector(".jx-close").addEventListener("click", function () { box.hidden = true; });
    box.querySelector(".jx-copy").addEventListener("click", function () {
      var text = box.querySelector(".jx-detail-cmd").textContent;
      if (navigator.clipboard) navigator.clipboard.writeText(text).catch(function () {});
    });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape") box.hidden = true; });
    return box;
  }

  function showCell(link) {
    var box = detailBox();
    box.querySelector(".jx-detail-text").textContent = link.getAttribute("title") || "";
    box.querySelector(".jx-detail-cmd").textContent = 'pytest "' + link.dataset.test + '"';
    box.dataset.test = link.dataset.test;
    box.hidden = false;
  }

  function init() {
    var selects = document.querySelectorAll(".jx-env-select");
    selects.forEach(function (sel) {
      if (sel.dataset.jxBound) return;
      sel.dataset.jxBound = "1";
      sel.addEventListener("change", function () { setEnv(sel.value, true); });
    });
    if (selects.length) setEnv(remembered() || selects[0].options[0].value, false);
    document.querySelectorAll(".jx-matrix-page").forEach(function (page) {
      page.querySelectorAll(".jx-filter").forEach(function (sel) {
        if (sel.dataset.jxBound) return;
        sel.dataset.jxBound = "1";
        sel.addEventListener("change", function () { applyFilters(page); });
      });
    });
  }

  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a.jx-link");
    if (!link) return;
    e.preventDefault();
    showCell(link);
  });

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
