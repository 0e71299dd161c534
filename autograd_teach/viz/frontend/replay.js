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

// ---- what step k shows: pure functions of the data
function classesAt(data, k) {
  const now = new Set(k > 0 ? (data.current || [])[k - 1] || [] : []);
  const out = new Map();
  for (const [id, done] of Object.entries(data.done || {})) {
    out.set(id, now.has(id) ? "at-current" : (done > 0 && done <= k ? "at-done" : "at-pending"));
  }
  return out;
}

function statusText(L, data, k) {
  const n = data.n || 0;
  if (!n) return data.failed || L[data.empty || (data.why ? "widget.not_recorded" : "widget.no_backward")];
  if (k === 0) return fill(L["widget.step0"], { n });
  const text = fill(L["widget.stepk"], { k, n, name: data.names[k - 1] });
  return data.failed && k === n ? text + "; " + data.failed : text;   // a backward that failed (failure.py)
}

function inspectorHtml(data, id, k) {
  let html = "";
  for (const [from, text] of (data.inspector || {})[id] || []) if (from <= k) html = text;
  return html;
}

// ---- the parts: two bars of controls, the diagram, the inspector's column
function buildControls(L, data) {
  const c = {};
  c.stale = make("div", "at-stale-note", { role: "status", text: L["widget.stale"] || "" });
  c.play = button(L, "widget.play", "at-play", "\u25b6");
  c.stop = button(L, "widget.stop", "at-stop", "\u25a0");
  c.repeat = toggle(L, "widget.repeat", "at-repeat");
  c.repeat.setAttribute("aria-pressed", "false");
  c.prev = button(L, "widget.prev", "at-prev", "\u2039");
  c.next = button(L, "widget.next", "at-next", "\u203a");
  c.slider = make("input", "at-step", { type: "range", min: "0", max: String(data.n || 0), step: "1", value: "0",
                                        title: L["widget.step.title"], "aria-label": L["widget.step.title"] });
  const sliderBox = make("label", "at-step-box");
  sliderBox.append(make("span", "at-step-label", { text: L["widget.step"] }), c.slider);
  c.status = make("span", "at-status", { "aria-live": "polite" });
  c.toggles = {};
  for (const key of ["values", "grads", "saved"]) c.toggles[key] = toggle(L, "widget." + key, "at-toggle-" + key);
  c.toggles.saved.hidden = !data.has_saved;
  c.follow = toggle(L, "widget.follow", "at-follow");
  c.fit = button(L, "widget.fit", "at-fit", "\u2194");
  c.zoomOut = button(L, "widget.zoom_out", "at-zoom-out", "\u2212");
  c.zoomIn = button(L, "widget.zoom_in", "at-zoom-in", "+");
  c.scale = make("span", "at-scale", { "aria-live": "polite" });
  c.picker = make("select", "at-picker", { title: L["widget.inspect.title"], "aria-label": L["widget.inspect.title"] });
  c.picker.append(new Option(L["widget.pick"], ""));
  for (const [id, label] of data.nodes || []) c.picker.append(new Option(`${label} (${id})`, id));
  const pickerBox = make("label", "at-picker-box");
  pickerBox.append(make("span", "", { text: L["widget.inspect"] }), c.picker);
  c.steps = make("div", "at-bar at-bar-steps");
  c.steps.append(c.play, c.stop, c.repeat, c.prev, c.next, sliderBox, c.status);
  c.view = make("div", "at-bar at-bar-view");
  c.view.append(...Object.values(c.toggles), c.follow, c.fit, c.zoomOut, c.scale, c.zoomIn, pickerBox);
  c.steppers = [c.play, c.stop, c.repeat, c.prev, c.next, c.slider];
  // keys pressed in the slider or the picker are theirs, not JupyterLab's shortcuts
  for (const x of [c.slider, c.picker]) x.setAttribute("data-lm-suppress-shortcuts", "true");
  return c;
}

// splitFooter makes the footer as wide as the graph (its words have no width
// before layout); once laid out, it shrinks to its own content, so a graph wider
// than the notebook does not give the legend a scrollbar onto empty space.
function trimFooter(d) {
  const footer = d.caption.querySelector("svg.at-footer");
  if (!footer || footer.dataset.trimmed) return;
  const b = footer.getBBox(), v = footer.viewBox.baseVal;
  if (!(b.width > 0)) return;                       // not laid out yet
  const width = Math.min(v.width, b.x + b.width + 4 - v.x);
  footer.setAttribute("viewBox", `${v.x} ${v.y} ${width} ${v.height}`);
  footer.style.width = width * PT + "px";
  footer.dataset.trimmed = "1";
}

function buildDiagram(L, data) {
  const d = {};
  d.pane = make("div", "at-pane", { tabindex: "0", "aria-label": L["widget.diagram"],
                                    "data-lm-suppress-shortcuts": "true" });
  d.caption = make("div", "at-caption");
  d.box = make("div", "at-diagram");
  d.box.append(d.pane, d.caption);
  d.close = button(L, "widget.close", "at-close", "\u00d7");
  d.inspector = make("div", "at-inspector-box");
  d.side = make("div", "at-side");
  d.side.append(d.close, d.inspector);
  d.main = make("div", "at-main");
  d.main.append(d.box, d.side);
  d.pane.innerHTML = data.svg || "";
  d.svg = d.pane.querySelector("svg.at-graph");
  d.natural = null;                                 // its size in px at 100%
  d.minFont = 10;                                   // its smallest text, in SVG units (pt)
  if (d.svg) {
    const footer = splitFooter(d.svg);
    if (footer) d.caption.appendChild(footer);
    const box = d.svg.viewBox.baseVal, width = cssPx(d.svg.getAttribute("width"));
    d.natural = [width, box.height * width / box.width];
    d.svg.removeAttribute("width"); d.svg.removeAttribute("height");
    const sizes = [...d.svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size"))).filter((x) => x > 0);
    if (sizes.length) d.minFont = Math.min(...sizes);
  }
  d.elements = d.svg ? [...d.svg.querySelectorAll("g.node, g.edge")] : [];
  d.byId = new Map(d.elements.map((g) => [g.id, g]));
  return d;
}

// The scale the diagram opens at (zoom 0): fitted to the pane when its smallest
// text stays readable there, else 100%, panned by follow.
function openingScale(d) {
  const fit = fitScale(d);
  return fit * d.minFont * PT >= READABLE_PX ? fit : 1;
}

// "fit": the whole width in the pane, never larger than 100%.
function fitScale(d) {
  return Math.min(1, Math.max(0.05, (d.pane.clientWidth - 4) / d.natural[0]));
}

// Follow: the node that just ran (at step 0, the output) comes into view.
function keepInView(pane, force) {
  const g = pane.querySelector("g.node.at-current") || pane.querySelector("g.node.at-output");
  if (!g) return;
  const box = g.getBoundingClientRect(), view = pane.getBoundingClientRect();
  if (!view.width || !view.height) return;
  const margin = 8;
  if (force || box.left < view.left + margin || box.right > view.right - margin
      || box.top < view.top + margin || box.bottom > view.bottom - margin) {
    pane.scrollLeft += (box.left + box.right) / 2 - (view.left + view.right) / 2;
    pane.scrollTop += (box.top + box.bottom) / 2 - (view.top + view.bottom) / 2;
  }
}

// Play / Pause, Stop and Repeat: a timer that moves the step on.
function player(L, c, data, step, setStep, isStale) {
  let timer = null;
  const repeating = () => c.repeat.getAttribute("aria-pressed") === "true";
  const show = (on) => {
    c.play.querySelector(".at-icon").textContent = on ? "\u275a\u275a" : "\u25b6";
    c.play.querySelector(".at-label").textContent = L[on ? "widget.pause" : "widget.play"];
    const title = L[on ? "widget.pause.title" : "widget.play.title"];
    c.play.title = title; c.play.setAttribute("aria-label", title);
    c.play.setAttribute("aria-pressed", String(on));
  };
  const halt = () => { if (timer) clearInterval(timer); timer = null; show(false); };
  const tick = () => {
    const n = data.n || 0;
    if (isStale()) return halt();
    let k = step() + 1;
    if (k > n) {
      if (!repeating()) return halt();
      k = 0;
    }
    setStep(k);
    if (k === n && !repeating()) halt();
  };
  c.play.addEventListener("click", () => {
    if (timer) return halt();
    if (step() >= (data.n || 0)) setStep(0);
    timer = setInterval(tick, data.interval || 900);
    show(true);
    tick();
  });
  c.stop.addEventListener("click", () => { halt(); setStep(0); });
  c.repeat.addEventListener("click", () => c.repeat.setAttribute("aria-pressed", String(!repeating())));
  return halt;
}

const STATE_KEYS = ["step", "selected", "show_values", "show_grads", "show_saved", "follow"];

function render({ model, el }) {
  const data = model.get("data") || {};
  const L = data.labels || {};
  const n = data.n || 0;
  el.classList.add("at-widget");
  el.setAttribute("lang", data.lang || "en");
  el.replaceChildren();
  const c = buildControls(L, data), d = buildDiagram(L, data);
  el.append(c.stale, c.steps, c.view, d.main);
  if (!n) c.steppers.forEach((x) => { x.disabled = true; });

  // Live or stale: once the kernel is gone, the controls send nothing.  The
  // widget manager says so with "comm_live_update" (comm_live turns false when
  // the kernel restarts or dies; it never turns true again for this model).
  let gone = false;
  const isStale = () => gone || !!el.closest(".jupyter-widgets-disconnected");
  const setKey = (key, value) => {
    if (isStale()) return;
    model.set(key, value);
    model.save_changes();
  };
  const step = () => Math.max(0, Math.min(n, model.get("step") | 0));
  const setStep = (k) => setKey("step", k);

  // ---- scale
  let scale = 1;
  const applyScale = () => {
    if (!d.natural) return;
    const zoom = model.get("zoom");
    if (zoom > 0) scale = zoom;
    else if (d.pane.clientWidth > 0) scale = zoom < 0 ? fitScale(d) : openingScale(d);
    d.svg.style.width = d.natural[0] * scale + "px";
    d.svg.style.height = d.natural[1] * scale + "px";
    d.box.dataset.scale = scale.toFixed(3);
    c.scale.textContent = Math.round(scale * 100) + "%";
  };
  const zoomBy = (direction) => {           // one step from the scale shown, whatever set it
    const bigger = ZOOMS.filter((z) => z > scale + 1e-6), smaller = ZOOMS.filter((z) => z < scale - 1e-6);
    setKey("zoom", direction > 0 ? (bigger[0] || ZOOMS[ZOOMS.length - 1]) : (smaller[smaller.length - 1] || ZOOMS[0]));
  };

  // ---- one step: classes, status, controls, inspector
  const apply = () => {
    const k = step(), selected = model.get("selected") || "";
    const classes = classesAt(data, k);
    for (const g of d.elements) {
      g.classList.remove("at-pending", "at-done", "at-current", "at-selected");
      const cls = classes.get(g.id);
      if (cls) g.classList.add(cls);
    }
    if (selected && d.byId.has(selected)) d.byId.get(selected).classList.add("at-selected");
    for (const key of ["values", "grads", "saved"]) {
      el.classList.toggle("at-hide-" + key, !model.get("show_" + key));
      c.toggles[key].setAttribute("aria-pressed", String(!!model.get("show_" + key)));
    }
    c.follow.setAttribute("aria-pressed", String(!!model.get("follow")));
    c.slider.value = String(k);
    c.slider.setAttribute("aria-valuetext", statusText(L, data, k));
    c.status.textContent = statusText(L, data, k);
    c.picker.value = selected;
    el.classList.toggle("at-picked", !!selected);
    d.inspector.innerHTML = selected ? inspectorHtml(data, selected, k) : "";
    if (model.get("follow")) keepInView(d.pane, false);
  };

  // ---- the controls
  const halt = player(L, c, data, step, setStep, isStale);
  c.prev.addEventListener("click", () => { halt(); setStep(Math.max(0, step() - 1)); });
  c.next.addEventListener("click", () => { halt(); setStep(Math.min(n, step() + 1)); });
  c.slider.addEventListener("input", () => { halt(); setStep(parseInt(c.slider.value, 10)); });
  for (const key of Object.keys(c.toggles)) c.toggles[key].addEventListener("click", () => setKey("show_" + key, !model.get("show_" + key)));
  c.follow.addEventListener("click", () => setKey("follow", !model.get("follow")));
  c.fit.addEventListener("click", () => setKey("zoom", -1));
  c.zoomIn.addEventListener("click", () => zoomBy(+1));
  c.zoomOut.addEventListener("click", () => zoomBy(-1));
  c.picker.addEventListener("change", () => setKey("selected", c.picker.value));
  d.close.addEventListener("click", () => setKey("selected", ""));
  d.pane.addEventListener("click", (event) => {
    const g = event.target.closest("g.node");
    if (!g) return;
    const id = (data.aliases || {})[g.id] || g.id;     // a copy of a shared node picks the node
    if (/^n[0-9]+$/.test(id)) setKey("selected", id);
  });

  // ---- stale: every control disabled; the banner says what to do
  const markStale = () => {
    const stale = isStale();
    el.classList.toggle("at-stale", stale);
    for (const x of el.querySelectorAll("button, input, select")) x.disabled = stale || (!n && c.steppers.includes(x));
    if (stale) halt();
  };
  const watcher = new MutationObserver(markStale);
  watcher.observe(el, { attributes: true, attributeFilter: ["class"] });
  const onLive = () => { gone = true; markStale(); };

  // ---- model events
  const onZoom = () => { applyScale(); keepInView(d.pane, true); };
  model.on("change:zoom", onZoom);
  model.on("comm_live_update", onLive);
  for (const key of STATE_KEYS) model.on("change:" + key, apply);
  let width = 0;
  const resized = new ResizeObserver(() => {     // the notebook's width changed: fit again
    if (d.pane.clientWidth === width) return;
    const first = width === 0;
    width = d.pane.clientWidth;
    if (model.get("zoom") <= 0) applyScale();
    if (first) trimFooter(d);
    if (first) keepInView(d.pane, true);          // opening: the output (or the step) in view
  });
  resized.observe(d.pane);
  applyScale(); apply(); markStale();
  return () => {
    halt(); resized.disconnect(); watcher.disconnect();
    if (!model.off) return;
    for (const key of STATE_KEYS) model.off("change:" + key, apply);
    model.off("change:zoom", onZoom);
    model.off("comm_live_update", onLive);
  };
}

export default { render };
