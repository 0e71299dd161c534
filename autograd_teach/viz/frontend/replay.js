// The replay's front-end: one ES module for the Jupyter widget (anywidget),
// the standalone HTML file and the static site.  Everything it shows comes
// from the model's "data" (built once by replay.py): the SVG, the step each
// node and edge is done at, the inspector's HTML per node and step, and every
// word in the chosen language.  The rest of the state (step, selected, zoom,
// follow, show_*) is a model key: Python can set it, the page can too, and a
// static page supplies a model of its own (get, set, on, save_changes).

const ZOOMS = [0.25, 0.33, 0.5, 0.67, 0.8, 0.9, 1, 1.25, 1.5, 2];
const READABLE_PX = 10;      // the smallest text size a scale may open at
const PT = 4 / 3;            // Graphviz sizes the SVG in pt; CSS px are 3/4 pt

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));

function make(tag, cls, attrs = {}) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  return node;
}

// A button with its own words: what it shows, its tooltip and its accessible name.
function button(L, key, cls, icon) {
  const b = make("button", "at-button " + cls, { type: "button", title: L[key + ".title"] || L[key],
                                                 "aria-label": L[key + ".title"] || L[key] });
  b.append(make("span", "at-icon", { text: icon, "aria-hidden": "true" }), make("span", "at-label", { text: L[key] }));
  return b;
}

function toggle(L, key, cls) {
  const b = button(L, key, cls, "\u2713");
  b.setAttribute("aria-pressed", "true");
  return b;
}

// The SVG's size in CSS px, from Graphviz's width="379pt".
function cssPx(value) {
  const n = parseFloat(value);
  return /pt$/.test(value) ? n * PT : n;
}

// The caption and legend (text and swatches drawn straight in the graph's
// group, below every node) move out of the scrolling box into a small SVG
// of their own, so they stay readable whatever the zoom.  Returns it, or null.
function splitFooter(svg) {
  const graph = svg.querySelector("g.graph");
  if (!graph) return null;
  const parts = [...graph.children].filter((c, i) => c.tagName !== "g" && c.tagName !== "title"
                                                  && !(c.tagName === "polygon" && i <= 1));
  if (!parts.length) return null;
  let top = Infinity;
  for (const p of parts) {
    if (p.tagName === "text") top = Math.min(top, parseFloat(p.getAttribute("y")) - 1.2 * parseFloat(p.getAttribute("font-size") || 10));
    else for (const xy of (p.getAttribute("points") || "").trim().split(/\s+/)) top = Math.min(top, parseFloat(xy.split(",")[1]));
  }
  const box = svg.viewBox.baseVal;
  const shift = graph.transform.baseVal.consolidate();
  const dy = shift ? shift.matrix.f : box.height;
  const dx = shift ? shift.matrix.e : 0;
  const footer = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  footer.setAttribute("class", "at-footer");
  const height = dy - (dy + top) + 4;                 // from its top to the graph's bottom edge
  footer.setAttribute("viewBox", `${-dx} ${top} ${box.width} ${height}`);
  footer.style.width = box.width * PT + "px";
  footer.style.height = height * PT + "px";
  for (const p of parts) {
    p.classList.remove("at-grad");                    // the legend's "gradient" never hides
    footer.appendChild(p);
  }
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${Math.max(1, dy + top)}`);
  return footer;
}

function render({ model, el }) {
  const data = model.get("data") || {};
  const L = data.labels || {};
  const n = data.n || 0;
  el.classList.add("at-widget");
  el.setAttribute("lang", data.lang || "en");
  el.replaceChildren();

  // ---- the parts
  const stale = make("div", "at-stale-note", { role: "status", text: L["widget.stale"] || "" });
  const play = button(L, "widget.play", "at-play", "\u25b6");
  const stop = button(L, "widget.stop", "at-stop", "\u25a0");
  const repeat = toggle(L, "widget.repeat", "at-repeat");
  repeat.setAttribute("aria-pressed", "false");
  const prev = button(L, "widget.prev", "at-prev", "\u2039");
  const next = button(L, "widget.next", "at-next", "\u203a");
  const slider = make("input", "at-step", { type: "range", min: "0", max: String(n), step: "1", value: "0",
                                            title: L["widget.step.title"], "aria-label": L["widget.step.title"] });
  const sliderBox = make("label", "at-step-box");
  sliderBox.append(make("span", "at-step-label", { text: L["widget.step"] }), slider);
  const status = make("span", "at-status", { "aria-live": "polite" });
  const toggles = {};
  for (const key of ["values", "grads", "saved"]) toggles[key] = toggle(L, "widget." + key, "at-toggle-" + key);
  const follow = toggle(L, "widget.follow", "at-follow");
  const fit = button(L, "widget.fit", "at-fit", "\u2194");
  const zoomOut = button(L, "widget.zoom_out", "at-zoom-out", "\u2212");
  const zoomIn = button(L, "widget.zoom_in", "at-zoom-in", "+");
  const scaleText = make("span", "at-scale", { "aria-live": "polite" });
  const picker = make("select", "at-picker", { title: L["widget.inspect.title"], "aria-label": L["widget.inspect.title"] });
  picker.append(new Option(L["widget.pick"], ""));
  for (const [id, label] of data.nodes || []) picker.append(new Option(`${label} (${id})`, id));
  const pickerBox = make("label", "at-picker-box");
  pickerBox.append(make("span", "", { text: L["widget.inspect"] }), picker);

  const pane = make("div", "at-pane", { tabindex: "0", "aria-label": L["widget.diagram"] });
  const caption = make("div", "at-caption");
  const diagram = make("div", "at-diagram");
  diagram.append(pane, caption);
  const close = button(L, "widget.close", "at-close", "\u00d7");
  const inspector = make("div", "at-inspector-box");
  const side = make("div", "at-side");
  side.append(close, inspector);
  const main = make("div", "at-main");
  main.append(diagram, side);

  const bar1 = make("div", "at-bar at-bar-steps");
  bar1.append(play, stop, repeat, prev, next, sliderBox, status);
  const bar2 = make("div", "at-bar at-bar-view");
  bar2.append(...Object.values(toggles), follow, fit, zoomOut, scaleText, zoomIn, pickerBox);
  el.append(stale, bar1, bar2, main);
  // keys pressed in the slider or the picker are theirs, not JupyterLab's shortcuts
  for (const c of [slider, picker, pane]) c.setAttribute("data-lm-suppress-shortcuts", "true");
  const steppers = [play, stop, repeat, prev, next, slider];
  if (!n) steppers.forEach((c) => { c.disabled = true; });
  if (!(data.has_saved)) toggles.saved.hidden = true;

  // ---- the diagram
  pane.innerHTML = data.svg || "";
  const svg = pane.querySelector("svg.at-graph");
  const footer = svg ? splitFooter(svg) : null;
  if (footer) caption.appendChild(footer);
  let natural = null, minFont = 10;
  if (svg) {
    const box = svg.viewBox.baseVal;
    natural = [cssPx(svg.getAttribute("width")), box.height * cssPx(svg.getAttribute("width")) / box.width];
    svg.removeAttribute("width"); svg.removeAttribute("height");
    const sizes = [...svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size"))).filter((s) => s > 0);
    if (sizes.length) minFont = Math.min(...sizes);
  }
  const elements = svg ? [...svg.querySelectorAll("g.node, g.edge")] : [];
  const byId = new Map(elements.map((g) => [g.id, g]));

  // ---- live or stale: once the kernel is gone, the controls send nothing.  The
  // widget manager says so with "comm_live_update" (comm_live turns false when
  // the kernel restarts or dies; it never turns true again for this model).
  let gone = false;
  const isStale = () => gone || !!el.closest(".jupyter-widgets-disconnected");
  const save = () => { if (!isStale()) model.save_changes(); };
  const setKey = (key, value) => { if (isStale()) return; model.set(key, value); save(); };

  // ---- scale
  const readable = () => READABLE_PX / (minFont * PT);        // the smallest scale text stays readable at
  const fitScale = () => Math.max(0.05, (pane.clientWidth - 4) / natural[0]);
  let scale = 1;
  const applyScale = () => {
    if (!svg || !natural) return;
    const zoom = model.get("zoom");
    if (zoom > 0) scale = zoom;
    else if (zoom < 0 || pane.clientWidth === 0) scale = zoom < 0 ? fitScale() : scale;
    else {                                                     // 0: open readable, fitted when that is readable
      const f = Math.min(1, fitScale());
      scale = f >= readable() ? f : 1;
    }
    svg.style.width = natural[0] * scale + "px";
    svg.style.height = natural[1] * scale + "px";
    diagram.dataset.scale = scale.toFixed(3);
    scaleText.textContent = Math.round(scale * 100) + "%";
  };
  const zoomBy = (direction) => {
    const bigger = ZOOMS.filter((z) => z > scale + 1e-6), smaller = ZOOMS.filter((z) => z < scale - 1e-6);
    const z = direction > 0 ? (bigger[0] || ZOOMS[ZOOMS.length - 1]) : (smaller[smaller.length - 1] || ZOOMS[0]);
    setKey("zoom", z);
  };

  // ---- follow: the node that just ran (at step 0, the output) stays in view
  const keepInView = (force) => {
    if (!svg || !(force || model.get("follow"))) return;
    const targets = [...pane.querySelectorAll("g.node.at-current")];
    const g = targets[0] || pane.querySelector("g.node.at-output");
    if (!g) return;
    const box = g.getBoundingClientRect(), view = pane.getBoundingClientRect();
    if (!view.width || !view.height) return;
    const margin = 8;
    if (force || box.left < view.left + margin || box.right > view.right - margin
        || box.top < view.top + margin || box.bottom > view.bottom - margin) {
      pane.scrollLeft += (box.left + box.right) / 2 - (view.left + view.right) / 2;
      pane.scrollTop += (box.top + box.bottom) / 2 - (view.top + view.bottom) / 2;
    }
  };

  // ---- one step: classes, status, controls, inspector
  const classesAt = (k) => {
    const now = new Set(k > 0 ? (data.current || [])[k - 1] || [] : []);
    const out = new Map();
    for (const [id, done] of Object.entries(data.done || {})) {
      out.set(id, now.has(id) ? "at-current" : (done > 0 && done <= k ? "at-done" : "at-pending"));
    }
    return out;
  };
  const statusText = (k) => {
    if (!n) return L[data.why ? "widget.not_recorded" : "widget.no_backward"];
    if (k === 0) return fill(L["widget.step0"], { n });
    return fill(L["widget.stepk"], { k, n, name: data.names[k - 1] });
  };
  const inspectorHtml = (id, k) => {
    let html = "";
    for (const [from, text] of (data.inspector || {})[id] || []) if (from <= k) html = text;
    return html;
  };
  const step = () => Math.max(0, Math.min(n, model.get("step") | 0));
  const apply = () => {
    const k = step(), selected = model.get("selected") || "";
    const classes = classesAt(k);
    for (const g of elements) {
      g.classList.remove("at-pending", "at-done", "at-current", "at-selected");
      const c = classes.get(g.id);
      if (c) g.classList.add(c);
    }
    if (selected && byId.has(selected)) byId.get(selected).classList.add("at-selected");
    el.classList.toggle("at-hide-values", !model.get("show_values"));
    el.classList.toggle("at-hide-grads", !model.get("show_grads"));
    el.classList.toggle("at-hide-saved", !model.get("show_saved"));
    for (const [key, b] of Object.entries(toggles)) b.setAttribute("aria-pressed", String(!!model.get("show_" + key)));
    follow.setAttribute("aria-pressed", String(!!model.get("follow")));
    slider.value = String(k);
    slider.setAttribute("aria-valuetext", statusText(k));
    status.textContent = statusText(k);
    picker.value = selected;
    el.classList.toggle("at-picked", !!selected);
    inspector.innerHTML = selected ? inspectorHtml(selected, k) : "";
    keepInView(false);
  };

  // ---- Play, Stop, Repeat
  let timer = null;
  const showPlaying = (on) => {
    play.querySelector(".at-icon").textContent = on ? "\u275a\u275a" : "\u25b6";
    play.querySelector(".at-label").textContent = L[on ? "widget.pause" : "widget.play"];
    const title = L[on ? "widget.pause.title" : "widget.play.title"];
    play.title = title; play.setAttribute("aria-label", title);
    play.setAttribute("aria-pressed", String(on));
  };
  const halt = () => { if (timer) clearInterval(timer); timer = null; showPlaying(false); };
  const tick = () => {
    if (isStale()) return halt();
    let k = step() + 1;
    if (k > n) {
      if (repeat.getAttribute("aria-pressed") !== "true") return halt();
      k = 0;
    }
    setKey("step", k);
    if (k === n && repeat.getAttribute("aria-pressed") !== "true") halt();
  };
  play.addEventListener("click", () => {
    if (timer) return halt();
    if (step() >= n) setKey("step", 0);
    timer = setInterval(tick, data.interval || 900);
    showPlaying(true);
    tick();
  });
  stop.addEventListener("click", () => { halt(); setKey("step", 0); });
  repeat.addEventListener("click", () => {
    repeat.setAttribute("aria-pressed", String(repeat.getAttribute("aria-pressed") !== "true"));
  });
  prev.addEventListener("click", () => { halt(); setKey("step", Math.max(0, step() - 1)); });
  next.addEventListener("click", () => { halt(); setKey("step", Math.min(n, step() + 1)); });
  slider.addEventListener("input", () => { halt(); setKey("step", parseInt(slider.value, 10)); });

  // ---- view controls
  for (const [key, b] of Object.entries(toggles)) b.addEventListener("click", () => setKey("show_" + key, !model.get("show_" + key)));
  follow.addEventListener("click", () => setKey("follow", !model.get("follow")));
  fit.addEventListener("click", () => setKey("zoom", -1));
  zoomIn.addEventListener("click", () => zoomBy(+1));
  zoomOut.addEventListener("click", () => zoomBy(-1));
  picker.addEventListener("change", () => setKey("selected", picker.value));
  close.addEventListener("click", () => setKey("selected", ""));
  pane.addEventListener("click", (event) => {
    const g = event.target.closest("g.node");
    if (!g) return;
    const id = (data.aliases || {})[g.id] || g.id;     // a copy of a shared node picks the node
    if (/^n[0-9]+$/.test(id)) setKey("selected", id);
  });

  // ---- stale: every control disabled; the banner says what to do
  const markStale = () => {
    const gone = isStale();
    el.classList.toggle("at-stale", gone);
    for (const c of el.querySelectorAll("button, input, select")) c.disabled = gone || (!n && steppers.includes(c));
    if (gone) halt();
  };
  const watcher = new MutationObserver(markStale);
  watcher.observe(el, { attributes: true, attributeFilter: ["class"] });
  const onLive = () => { gone = true; markStale(); };
  model.on("comm_live_update", onLive);

  const onChange = () => apply();
  for (const key of ["step", "selected", "show_values", "show_grads", "show_saved", "follow"]) model.on("change:" + key, onChange);
  const onZoom = () => { applyScale(); keepInView(true); };
  model.on("change:zoom", onZoom);
  let width = 0;
  const resized = new ResizeObserver(() => {
    if (pane.clientWidth === width) return;
    const first = width === 0;
    width = pane.clientWidth;
    if (model.get("zoom") <= 0) applyScale();
    if (first) keepInView(true);
  });
  resized.observe(pane);
  applyScale(); apply(); markStale();
  return () => {
    halt(); resized.disconnect(); watcher.disconnect();
    for (const key of ["step", "selected", "show_values", "show_grads", "show_saved", "follow"]) model.off && model.off("change:" + key, onChange);
    if (model.off) model.off("change:zoom", onZoom), model.off("comm_live_update", onLive);
  };
}

export default { render };
