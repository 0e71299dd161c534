"""The replay as HTML: a picture where scripts do not run, the replay where they do.

* :func:`picture` is the diagram as an ``<img>`` whose ``src`` is the SVG as a
  ``data:image/svg+xml;base64`` URI: JupyterLab's sanitizer keeps it in an
  untrusted notebook, where it drops inline SVG and every script.
* :func:`fragment` is that picture plus the replay: ``frontend/replay.js`` (the
  widget's own module, inline) run on the data of ``replay.replay_data`` by a
  few lines that stand in for the kernel's model (``get``, ``set``, ``on``,
  ``save_changes``).  It reads the SVG back from the picture, so the SVG is
  stored once.  No kernel, no network, no CDN.
* :func:`document` is a fragment as a whole page: the standalone replay file.

Every user string is escaped: the SVG escapes its labels, the data is JSON
with ``<``, ``>`` and ``&`` written as ``\\u003c`` ..., so nothing in it can
close its ``<script>``.  The bytes depend on the recording only.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import math
import re
from html import escape
from importlib import resources

from .lang import t

_BOOT = """
const decode = (src) => new TextDecoder().decode(
  Uint8Array.from(atob(src.slice(src.indexOf(",") + 1)), (c) => c.charCodeAt(0)));
function staticModel(state) {          // the kernel's model, without a kernel
  const handlers = {};
  return {
    get: (key) => state[key],
    set: (key, value) => {
      if (state[key] === value) return;
      state[key] = value;
      for (const f of (handlers["change:" + key] || []).slice()) f();
    },
    on: (name, f) => { (handlers[name] = handlers[name] || []).push(f); },
    off: (name, f) => { handlers[name] = (handlers[name] || []).filter((g) => g !== f); },
    save_changes: () => {},
  };
}
async function unpack(text) {             // a large replay: gzip, then base64
  const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}
async function boot(box, source) {
  let data;
  if (source.dataset.packed) {
    const both = await unpack(source.textContent);
    data = both.data; data.svg = both.svg;
  } else {
    data = JSON.parse(source.textContent);
    data.svg = decode(box.querySelector("img.at-fallback").getAttribute("src"));
  }
  const el = document.createElement("div");
  box.appendChild(el);
  render({ el, model: staticModel({ data, step: 0, selected: "", zoom: 0, follow: true,
                                    show_values: true, show_grads: true, show_saved: true }) });
}
for (const box of document.querySelectorAll('.at-replay[data-at-replay="@ID@"]:not(.at-booted)')) {
  const source = document.querySelector('script[data-at-replay-data="@ID@"]');
  if (!source) continue;
  box.classList.add("at-booted");
  boot(box, source).catch((error) => { box.classList.remove("at-booted"); console.error(error); });
}
"""


def asset(name):
    """The text of ``frontend/<name>`` (replay.js, replay.css)."""
    return resources.files(__package__).joinpath("frontend", name).read_text(encoding="utf-8")


def data_uri(svg):
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


READABLE_PX = 10   # as replay.js's: the smallest text a diagram may shrink to


def readable_width(svg):
    """The width in px under which the picture's smallest text would be below
    :data:`READABLE_PX` (never more than its natural width), or None.

    A notebook shrinks a wide picture to its width (JupyterLab: ``max-width:
    100%``); past this width it scrolls sideways instead, as the widget does."""
    view = re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ', svg)
    natural = re.search(r'<svg[^>]* width="([0-9.]+)pt"', svg)
    sizes = [float(x) for x in re.findall(r'font-size="([0-9.]+)"', svg) if float(x) > 0]
    if not (view and natural and sizes):
        return None
    return math.ceil(min(float(natural.group(1)) * 4 / 3, READABLE_PX * float(view.group(1)) / min(sizes)))


def picture(svg, lang=None):
    """The diagram as an ``<img>`` that survives a sanitizer (the words are the SVG's own
    and so is its ``min-width``: JupyterLab keeps that style in an untrusted notebook)."""
    width = readable_width(svg)
    style = f' style="min-width:{width}px"' if width else ""
    return f'<img class="at-fallback" src="{data_uri(svg)}" alt="{escape(t("widget.diagram", lang))}"{style}>'


def script_json(data):
    """``data`` as JSON that is safe inside ``<script>``: deterministic, nothing markup-like left."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


PACK_ABOVE = 2_000_000   # characters of data and SVG past which the replay is stored gzipped


def fragment(data, svg):
    """The picture and the replay, ready to embed in a page or a notebook's HTML output.

    A replay past :data:`PACK_ABOVE` (a graph of thousands of nodes) is stored
    gzipped and base64-encoded instead, with a note where the picture was: a
    2,000-node replay stays under 5 MB (zlib's output, and so those bytes,
    can differ between zlib builds; a lesson's replay is never packed)."""
    payload = script_json(data)
    key = hashlib.sha256((payload + svg).encode("utf-8")).hexdigest()[:16]
    if len(payload) + len(svg) <= PACK_ABOVE:
        shown, attrs = picture(svg, data.get("lang")), ""
    else:
        both = json.dumps({"data": data, "svg": svg}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        payload = base64.b64encode(gzip.compress(both.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")
        shown = f'<p class="at-fallback-note">{escape(t("widget.needs_scripts", data.get("lang")))}</p>'
        attrs = ' data-packed="gzip"'
    return (f'<div class="at-replay" data-at-replay="{key}">{shown}</div>\n'
            f'<style>{asset("replay.css")}</style>\n'
            f'<script type="application/json" data-at-replay-data="{key}"{attrs}>{payload}</script>\n'
            f'<script type="module">\n{asset("replay.js")}\n{_BOOT.replace("@ID@", key)}</script>\n')


def document(data, svg, title):
    """A whole page holding one replay: opens from file://, needs nothing else."""
    lang = data.get("lang", "en")
    return (f'<!DOCTYPE html>\n<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n"
            "<style>body { margin: 16px; } .at-widget .at-pane { max-height: 78vh; }</style>\n"
            f"</head>\n<body>\n{fragment(data, svg)}</body>\n</html>\n")
