/* jaxcb site: environment switch, matrix filters and the cell detail box.
   No dependencies and no other site: a page that compares environments has the newest
   one's table in it and loads the others' from files in the site when they are chosen
   (the matrix page's tables and cell details from matrix/envs/<key>.json, the other
   pages' tables from assets/jaxcb/envs/<hash>.json). The chosen environment is
   remembered across pages. Every detail a table shows on hover (a title) also opens in the
   detail box on a click, a tap, or Enter/Space on the focused button or link. */
(function () {
  "use strict";
  var KEY = "jaxcb.env";

  // The words this script writes, in the page's language (<html lang>), as the tables' own
  // words follow it (docs/hooks/jaxcb_site/i18n.py).
  var SAYS = {
    en: {
      loading: "loading…",
      noTable: "Could not load this environment's table: ",
      noChanges: "Could not load this release's changes: ",
      noFile: "Could not load this file: ",
      noDetails: "Could not load the details: ",
      cell: "Matrix cell",
      rerun: "Re-run it: ",
      copy: "Copy command",
      close: "Close"
    },
    zh: {
      loading: "正在加载…",
      noTable: "无法加载这个环境的表格：",
      noChanges: "无法加载这个版本的变化：",
      noFile: "无法加载这个文件：",
      noDetails: "无法加载详细信息：",
      cell: "对照表单元格",
      rerun: "重新运行它：",
      copy: "复制命令",
      close: "关闭"
    }
  };

  function say(key) {
    var lang = (document.documentElement.lang || "en").slice(0, 2);
    return (SAYS[lang] || SAYS.en)[key];
  }

  function remembered() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function remember(value) {
    try { window.localStorage.setItem(KEY, value); } catch (e) { /* private mode */ }
  }

  var envFiles = {};  // url -> Promise of the parsed environment file

  function envFile(url) {
    if (!envFiles[url]) {
      envFiles[url] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status + " for " + url);
        return r.json();
      });
    }
    return envFiles[url];
  }

  function fill(block) {
    // an environment whose table is not in the page yet: load it from its file, once
    if (!block.dataset.src || block.dataset.filled || block.querySelector("table")) return;
    block.dataset.filled = "1";
    envFile(block.dataset.src).then(function (doc) {
      block.innerHTML = doc.html;
      var page = block.closest(".jx-matrix-page");
      if (page) applyFilters(page);
    }).catch(function (e) {
      block.textContent = say("noTable") + e.message;
    });
  }

  function showEnv(container, value) {
    var blocks = container.querySelectorAll(".jx-env");
    var known = Array.prototype.some.call(blocks, function (b) { return b.dataset.env === value; });
    if (!known && blocks.length) value = blocks[0].dataset.env;
    blocks.forEach(function (b) {
      b.hidden = b.dataset.env !== value;
      if (!b.hidden) fill(b);
    });
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
    var mech = want.mechanism || "";
    page.querySelectorAll("tbody tr").forEach(function (tr) {
      var show = true;
      // "m:<mechanism>" keeps a whole family, "v:<variant id>" one variant of it
      if (mech.slice(0, 2) === "m:" && tr.dataset.mechanism !== mech.slice(2)) show = false;
      if (mech.slice(0, 2) === "v:" && tr.dataset.variant !== mech.slice(2)) show = false;
      if (want.computation && tr.dataset.computation && tr.dataset.computation !== want.computation) show = false;
      tr.hidden = !show;
    });
  }

  // The "what changed when" page (docs/timeline.md): each release's tables load from their
  // file when opened; a mechanism and a transform narrow the matrix rows (a behaviour row,
  // which has neither, shows under "all"). A filter loads every release and opens those
  // with a row left.
  function fillTimeline(details) {
    var body = details.querySelector(".jx-tl-body");
    if (!body || !body.dataset.src) return Promise.resolve();
    if (!body.jxLoaded) {
      body.jxLoaded = envFile(body.dataset.src).then(function (doc) {
        body.innerHTML = doc.html;
      }).catch(function (e) {
        body.textContent = say("noChanges") + e.message;
      });
    }
    return body.jxLoaded;
  }

  function applyTimelineFilters(openMatching) {
    var want = {};
    document.querySelectorAll(".jx-tl-filter").forEach(function (sel) { want[sel.dataset.filter] = sel.value; });
    var any = want.mechanism || want.transform;
    document.querySelectorAll("details.jx-tl-release").forEach(function (details) {
      fillTimeline(details).then(function () {
        var left = 0;
        details.querySelectorAll("table.jx-timeline tbody tr").forEach(function (tr) {
          var show = true;
          if (want.mechanism && tr.dataset.mechanism !== want.mechanism) show = false;
          if (want.transform && (tr.dataset.transforms || "").split(" ").indexOf(want.transform) < 0) show = false;
          tr.hidden = !show;
          if (show) left += 1;
        });
        if (openMatching && any) details.open = left > 0;
      });
    });
  }

  // A computation page's whole files (docs/hooks/jaxcb_site/deferred.py): each folded file
  // loads from its own file when the reader opens it, and gets the copy button Material gives
  // the code blocks that were in the page at load (its clipboard handler is delegated: a
  // button with data-clipboard-target works wherever it is added).
  var wholeIds = 0;
  function fillWhole(details) {
    var body = details.querySelector(".jx-whole-body");
    if (!body || !body.dataset.src || body.jxLoaded) return;
    body.jxLoaded = envFile(body.dataset.src).then(function (doc) {
      body.innerHTML = doc.html;
      body.querySelectorAll("pre > code").forEach(function (code) {
        var pre = code.parentNode;
        if (pre.querySelector(".md-clipboard")) return;
        wholeIds += 1;
        pre.id = pre.id || "jx-whole-" + wholeIds;
        var button = document.createElement("button");
        button.className = "md-clipboard md-icon";
        button.title = document.documentElement.lang === "zh" ? "复制到剪贴板" : "Copy to clipboard";
        button.setAttribute("data-clipboard-target", "#" + pre.id + " > code");
        pre.insertBefore(button, code);
      });
    }).catch(function (e) {
      body.textContent = say("noFile") + e.message;
    });
  }

  function detailBox() {
    var box = document.querySelector(".jx-detail");
    if (box) return box;
    box = document.createElement("div");
    box.className = "jx-detail";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", say("cell"));
    box.hidden = true;
    box.innerHTML =
      '<pre class="jx-detail-text" aria-live="polite"></pre>' +
      '<p class="jx-detail-rerun">' + say("rerun") + '<code class="jx-detail-cmd"></code></p>' +
      '<div class="jx-detail-actions"><button type="button" class="jx-copy">' + say("copy") +
      '</button><button type="button" class="jx-close">' + say("close") + "</button></div>";
    document.body.appendChild(box);
    box.querySelector(".jx-close").addEventListener("click", function () { closeBox(box); });
    box.querySelector(".jx-copy").addEventListener("click", function () {
      var text = box.querySelector(".jx-detail-cmd").textContent;
      if (navigator.clipboard) navigator.clipboard.writeText(text).catch(function () {});
    });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !box.hidden) closeBox(box); });
    return box;
  }

  var opener = null;  // the element whose details are shown: focus returns to it on close

  function closeBox(box) {
    box.hidden = true;
    if (opener && document.contains(opener)) opener.focus();
    opener = null;
  }

  function showDetails(from, text, test) {
    var box = detailBox();
    opener = from;
    box.querySelector(".jx-detail-text").textContent = text || "";
    box.querySelector(".jx-detail-rerun").hidden = !test;
    box.querySelector(".jx-copy").hidden = !test;
    box.querySelector(".jx-detail-cmd").textContent = test ? 'pytest "' + test + '"' : "";
    box.dataset.test = test || "";
    box.hidden = false;
  }

  function showCell(link) {
    if (link.hasAttribute("title")) {  // a table with its details in the page
      showDetails(link, link.getAttribute("title"), link.dataset.test);
      return;
    }
    // a bare matrix-page cell: its details are in the environment's file
    var block = link.closest(".jx-env");
    var tr = link.closest("tr");
    var td = link.closest("td");
    if (!block || !block.dataset.src || !tr || !td) return;
    showDetails(link, say("loading"), "");
    envFile(block.dataset.src).then(function (doc) {
      var t = doc.transforms[td.cellIndex - 1];  // the row's first cell is its heading
      var cell = doc.cells[[tr.dataset.variant, tr.dataset.computation, t].join("|")];
      if (cell) showDetails(link, cell[0], cell[1]);
    }).catch(function (e) { showDetails(link, say("noDetails") + e.message, ""); });
  }

  function init() {
    document.querySelectorAll("a.jaxcb-term[title]").forEach(function (term) {
      // the definition shows in the page's own tooltip, not in the browser's as well
      term.dataset.jxDefinition = term.getAttribute("title");
      term.removeAttribute("title");
    });
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
    document.querySelectorAll(".jx-tl-filter").forEach(function (sel) {
      if (sel.dataset.jxBound) return;
      sel.dataset.jxBound = "1";
      sel.addEventListener("change", function () { applyTimelineFilters(true); });
    });
    document.querySelectorAll("details.jx-whole").forEach(function (details) {
      if (details.dataset.jxBound) return;
      details.dataset.jxBound = "1";
      if (details.open) fillWhole(details);
      details.addEventListener("toggle", function () { if (details.open) fillWhole(details); });
    });
    document.querySelectorAll("details.jx-tl-release").forEach(function (details) {
      if (details.dataset.jxBound) return;
      details.dataset.jxBound = "1";
      details.addEventListener("toggle", function () {
        if (details.open) fillTimeline(details).then(function () { applyTimelineFilters(false); });
      });
    });
  }

  // Glossary terms (a.jaxcb-term, from docs/hooks/jaxcb_site/glossary.py) show their
  // definition in a tooltip below the term: on hover, on focus, and on a touch screen on a tap,
  // which leaves the reader on the page. The tooltip links the glossary entry; a second tap on
  // the term follows the term's own link there. (Material's content.tooltips does this for
  // every element with a title: on the home page's tables, about 1,700 of them, which costs
  // over half a second of script at each load.)
  var GLOSSARY = { en: "Glossary", zh: "术语表" };
  var pointer = "";     // the kind of pointer that started the latest click: touch, mouse, pen
  var termTip = null;   // the tooltip, made on first use
  var termShown = null; // the term whose definition it shows
  var tapped = null;    // the term whose definition a tap has shown
  var hideTimer = 0;

  function termBox() {
    if (termTip) return termTip;
    termTip = document.createElement("div");
    termTip.className = "jx-term-tip md-typeset";
    termTip.id = "jx-term-tip";
    termTip.setAttribute("role", "tooltip");
    termTip.hidden = true;
    termTip.innerHTML = '<span class="jx-term-text"></span> <a class="jx-term-more"></a>';
    termTip.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    termTip.addEventListener("mouseleave", hideTermSoon);
    document.body.appendChild(termTip);
    return termTip;
  }

  function showTerm(term) {
    clearTimeout(hideTimer);
    var box = termBox();
    var lang = (document.documentElement.lang || "en").slice(0, 2);
    box.querySelector(".jx-term-text").textContent = term.dataset.jxDefinition || "";
    var more = box.querySelector(".jx-term-more");
    more.href = term.href;
    more.textContent = (GLOSSARY[lang] || GLOSSARY.en) + " →";
    box.hidden = false;
    var r = term.getBoundingClientRect();
    var page = document.documentElement.clientWidth;
    var left = r.left + r.width / 2 - box.offsetWidth / 2;
    left = Math.max(8, Math.min(left, page - box.offsetWidth - 8));
    box.style.left = (left + window.scrollX) + "px";
    box.style.top = (r.bottom + window.scrollY + 6) + "px";
    if (termShown && termShown !== term) termShown.removeAttribute("aria-describedby");
    term.setAttribute("aria-describedby", box.id);
    termShown = term;
  }

  function hideTerm() {
    clearTimeout(hideTimer);
    if (termTip) termTip.hidden = true;
    if (termShown) termShown.removeAttribute("aria-describedby");
    termShown = tapped = null;
  }

  function hideTermSoon() {  // time to move the pointer from the term into the tooltip
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hideTerm, 300);
  }

  function termAt(node) {
    return node && node.closest ? node.closest("a.jaxcb-term[data-jx-definition]") : null;
  }

  document.addEventListener("pointerdown", function (e) { pointer = e.pointerType; }, true);
  document.addEventListener("mouseover", function (e) {
    var term = termAt(e.target);
    if (term && pointer !== "touch") showTerm(term);
  });
  document.addEventListener("mouseout", function (e) {
    if (termAt(e.target) && !termAt(e.relatedTarget)) hideTermSoon();
  });
  document.addEventListener("focusin", function (e) {
    var term = termAt(e.target);
    if (term) showTerm(term);
    else if (termTip && termTip.contains(e.target)) clearTimeout(hideTimer);
  });
  document.addEventListener("focusout", function (e) {
    if (termAt(e.target) || (termTip && termTip.contains(e.target))) hideTermSoon();
  });
  document.addEventListener("keydown", function (e) {
    pointer = "";  // Enter on a focused term follows its link
    if (e.key === "Escape" && termShown) hideTerm();
  });

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    var link = e.target.closest("a.jx-link");
    if (link) {
      e.preventDefault();
      showCell(link);
      return;
    }
    var tip = e.target.closest("button.jx-tip");
    if (tip) {
      showDetails(tip, tip.getAttribute("title"), "");
      return;
    }
    var term = termAt(e.target);
    if (term && pointer === "touch" && term !== tapped) {
      e.preventDefault();  // the first tap shows the definition; the next one follows the link
      showTerm(term);
      tapped = term;
    } else if (!term && termShown && !termTip.contains(e.target)) {
      hideTerm();  // a tap elsewhere closes it
    }
  });

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
