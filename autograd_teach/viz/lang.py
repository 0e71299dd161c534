"""Every word the diagram and the widget print, in English and Chinese.

``set_lang("zh")`` sets the default for ``draw()`` / ``show()``; each of
them also takes ``lang=``.  ``lang=None`` means the default.  PyTorch's
own names (``MulBackward0``, ``grad_fn``, ``.grad``, ``AccumulateGrad``,
``backward()``) stay as they are: they are what the learner types.

Chinese terms are the lessons' glossary's (``notebooks/src/glossary.md``, the
project's one source of terms; ``tests/test_viz_lang.py`` checks them against it):
叶子张量 (leaf tensor), 计算图 (graph), 梯度 (gradient), 反向传播 (backward pass).
"""
from __future__ import annotations

import threading

LANGS = ("en", "zh")
_default = ["en"]           # a one-element list: set_lang swaps its item under the lock
_lock = threading.Lock()


def set_lang(lang):
    """Make ``lang`` ("en" or "zh") the default language of draw() and show()."""
    lang = check(lang)
    with _lock:
        _default[0] = lang


def get_lang():
    """The default language set by :func:`set_lang` ("en" unless changed)."""
    with _lock:
        return _default[0]


def check(lang):
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(map(repr, LANGS))}, not {lang!r}")
    return lang


def resolve(lang):
    """``lang`` itself, or the default when it is None."""
    return get_lang() if lang is None else check(lang)


# key -> (English, Chinese).  Text with {placeholders} is filled by t().
TEXT = {
    # node kinds: the legend
    "kind.output": ("output tensor", "输出张量"),
    "kind.function": ("backward Function", "反向函数 (Function)"),
    "kind.repeat": ("repeated Functions", "重复的函数"),
    "kind.accumulate": ("AccumulateGrad: writes the leaf's .grad", "AccumulateGrad：写入叶子张量的 .grad"),
    "kind.leaf": ("leaf tensor (requires grad)", "叶子张量（需要梯度）"),
    "kind.constant": ("input needing no grad", "不需要梯度的输入"),
    "kind.saved": ("saved for backward", "为反向传播保存的张量"),
    "kind.hidden": ("hidden nodes", "隐藏的节点"),
    "kind.ref": ("the same node, drawn again near a use", "同一节点，在使用处再画一次"),
    "legend.gradient": ("gradient", "梯度"),
    "legend.accumulate": ("AccumulateGrad", "AccumulateGrad"),
    "legend.leaf": ("leaf tensor", "叶子张量"),
    "legend.function": ("backward Function", "反向函数"),
    # captions
    "caption.no_grad_yet": ("No gradients yet: they appear after backward().",
                            "还没有梯度：调用 backward() 之后才会出现。"),
    "caption.steps": ("Gradients from one backward pass: {n} steps.", "一次反向传播的梯度：共 {n} 步。"),
    "caption.steps.one": ("Gradients from one backward pass: {n} step.", "一次反向传播的梯度：共 {n} 步。"),
    "caption.not_recorded": ("backward() ran, but was not recorded, so no gradient is drawn: "
                             "call viz.autorecord(True) before backward().",
                             "backward() 已运行，但没有被记录，所以图中没有梯度："
                             "请在 backward() 之前调用 viz.autorecord(True)。"),
    "caption.not_recorded_torch": ("backward() ran, but no recording of it is kept, so no gradient is drawn: "
                                   "call viz.autorecord(True) before backward(), and keep the tensor backward starts "
                                   "from in a variable (s = y.sum(); s.backward()): PyTorch's nodes are let go with it.",
                                   "backward() 已运行，但没有保留它的记录，所以图中没有梯度：请在 backward() 之前调用 "
                                   "viz.autorecord(True)，并把 backward() 的起点张量存进变量（s = y.sum(); s.backward()）："
                                   "torch 的节点会随它一起被释放。"),
    "caption.no_graph": ("No graph: this tensor has requires_grad=False, so autograd recorded nothing "
                         "and backward() gives it no gradient.",
                         "没有计算图：这个张量的 requires_grad=False，autograd 什么也没有记录，backward() 也不会给它梯度。"),
    "caption.leaf": ("A leaf tensor, with no graph behind it: its .grad is written by backward() "
                     "of an output computed from it.",
                     "叶子张量，它背后没有计算图：从它算出的输出调用 backward() 时写入它的 .grad。"),
    "caption.dropped": ("The recording of this backward was dropped to keep memory bounded; "
                        "run backward() again to see its gradients.",
                        "为限制内存，这次反向传播的记录已被丢弃；再运行一次 backward() 即可看到梯度。"),
    "caption.failed": ("backward() failed at step {k}: only the steps before it are drawn. It raised:",
                       "backward() 在第 {k} 步失败：只画出了它之前各步的梯度。它报错："),
    "caption.later_failed": ("These gradients are from the last backward() that finished; "
                             "a later backward() from here failed. It raised:",
                             "这些梯度来自上一次完整运行的 backward()；之后从这里再次调用的 backward() 失败了。它报错："),
    "status.failed": ("backward() failed at step {k}: {error}", "backward() 在第 {k} 步失败：{error}"),
    "status.later_failed": ("a later backward() from here failed: {error}",
                            "之后从这里再次调用的 backward() 失败了：{error}"),
    "caption.repeated": ("{total} Functions in {runs} repeated runs drawn as one node each.",
                         "{runs} 段重复的函数（共 {total} 个）各画成一个节点。"),
    "caption.repeated.one": ("{total} Functions in one repeated run drawn as one node.",
                             "{runs} 段重复的函数（共 {total} 个）各画成一个节点。"),
    "caption.hidden": ("{n} nodes hidden beyond {why}.", "超出 {why} 的 {n} 个节点被隐藏。"),
    "caption.hidden.one": ("{n} node hidden beyond {why}.", "超出 {why} 的 {n} 个节点被隐藏。"),
    "caption.refs": ("{n} long edges into shared nodes drawn as dashed copies next to each use, "
                     "so that the layout stays fast.",
                     "{n} 条通向共享节点的长边改为在每个使用处画一个虚线副本，以保持布局快速。"),
    "caption.refs.one": ("{n} long edge into a shared node drawn as a dashed copy next to its use, "
                         "so that the layout stays fast.",
                         "{n} 条通向共享节点的长边改为在每个使用处画一个虚线副本，以保持布局快速。"),
    "caption.fan": ("{name} has {n} inputs: the first {shown} are drawn, the rest as one box.",
                    "{name} 有 {n} 个输入：只画出前 {shown} 个，其余画成一个框。"),
    "caption.collapsed": ("Graph too large to lay out quickly: only the {n} nodes nearest the output are drawn.",
                          "计算图太大，无法快速布局：只画出离输出最近的 {n} 个节点。"),
    # labels inside nodes
    "label.needs_no_grad": ("needs no grad", "不需要梯度"),
    "label.identical": ("{n} identical steps in a row", "连续 {n} 个相同的步骤"),
    "label.raise_limits": ("raise max_nodes= or depth= to draw them", "增大 max_nodes= 或 depth= 可画出它们"),
    "label.more_nodes": ("{n} more nodes", "还有 {n} 个节点"),
    "label.more_nodes.one": ("{n} more node", "还有 {n} 个节点"),
    "label.more_inputs": ("{n} more inputs", "还有 {n} 个输入"),
    "label.fan": ("drawn as one box", "画成一个框"),
    "label.freed": ("saved tensors freed by backward", "保存的张量已被 backward 释放"),
    "label.modified": ("modified in place: saved at version {saved}, now {now}",
                       "已被原地修改：保存时版本 {saved}，现在 {now}"),
    "label.ref": ("same node as {id}", "与 {id} 是同一个节点"),
    "label.sum": ("sum", "求和"),
    "label.constant": ("constant", "常量"),
    "label.output": ("output", "输出"),
    "label.leaf": ("leaf", "叶子张量"),
    # a tensor too large to print in a label, and a gradient kept only as a summary
    "value.summary": ("shape {shape}, norm {norm}", "形状 {shape}，范数 {norm}"),
    "value.range": (", min {min}, max {max}", "，最小值 {min}，最大值 {max}"),
    # the widget
    "widget.play": ("Play", "播放"),
    "widget.play.title": ("Play: run backward one node at a time", "播放：逐个节点运行反向传播"),
    "widget.pause": ("Pause", "暂停"),
    "widget.pause.title": ("Pause the replay at this step", "在这一步暂停回放"),
    "widget.stop": ("Stop", "停止"),
    "widget.stop.title": ("Stop: back to step 0, before backward", "停止：回到第 0 步，反向传播之前"),
    "widget.repeat": ("Repeat", "循环"),
    "widget.repeat.title": ("Repeat: start again after the last step", "循环：最后一步之后从头再来"),
    "widget.prev": ("Back", "后退"),
    "widget.prev.title": ("Back one step", "后退一步"),
    "widget.next": ("Next", "前进"),
    "widget.next.title": ("Forward one step: the next node runs", "前进一步：下一个节点运行"),
    "widget.step": ("step", "步"),
    "widget.step.title": ("Step: how many nodes of backward have run", "步数：反向传播已经运行了几个节点"),
    "widget.diagram": ("The autograd graph", "计算图"),
    "widget.needs_scripts": ("This replay of a large graph needs JavaScript to show.",
                             "这个大型计算图的回放需要浏览器运行脚本才能显示。"),
    "widget.close": ("close", "关闭"),
    "widget.close.title": ("Close the inspector", "关闭节点详情"),
    "widget.values": ("values", "数值"),
    "widget.grads": ("gradients", "梯度"),
    "widget.saved": ("saved tensors", "保存的张量"),
    "widget.values.title": ("Show or hide the tensors' values", "显示或隐藏张量的数值"),
    "widget.grads.title": ("Show or hide the gradients", "显示或隐藏梯度"),
    "widget.saved.title": ("Show or hide the tensors saved for backward", "显示或隐藏为反向传播保存的张量"),
    "widget.fit": ("fit", "适应宽度"),
    "widget.fit.title": ("Scale the graph to the width of the notebook", "把计算图缩放到笔记本的宽度"),
    "widget.zoom_in": ("zoom in", "放大"),
    "widget.zoom_in.title": ("Zoom in one step", "放大一级"),
    "widget.zoom_out": ("zoom out", "缩小"),
    "widget.zoom_out.title": ("Zoom out one step", "缩小一级"),
    "widget.follow": ("follow", "跟随"),
    "widget.follow.title": ("Keep the node that just ran in view", "让刚运行的节点保持可见"),
    "widget.inspect": ("inspect", "查看"),
    "widget.inspect.title": ("Pick a node to see its chain rule and numbers", "选择一个节点，查看它的链式法则和数值"),
    "widget.pick": ("(pick a node)", "（选择一个节点）"),
    "widget.no_backward": ("No backward recorded for this graph yet: call viz.autorecord(True), "
                           "run backward(), then show() again.",
                           "这个计算图还没有记录到反向传播：调用 viz.autorecord(True)，"
                           "运行 backward()，再调用 show()。"),
    "widget.not_recorded_torch": ("backward() ran, but no recording of it is kept: keep the tensor backward "
                                  "starts from in a variable (s = y.sum(); s.backward()), then show() again.",
                                  "backward() 已运行，但没有保留它的记录：把 backward() 的起点张量存进变量"
                                  "（s = y.sum(); s.backward()），再调用 show()。"),
    "widget.no_graph": ("Nothing to replay: this tensor has requires_grad=False, so autograd recorded no graph.",
                        "没有可回放的内容：这个张量的 requires_grad=False，autograd 没有记录计算图。"),
    "widget.leaf": ("Nothing to replay: a leaf tensor has no graph behind it; show() an output computed from it.",
                    "没有可回放的内容：叶子张量背后没有计算图；请对从它算出的输出调用 show()。"),
    "widget.not_recorded": ("backward() ran, but was not recorded: call viz.autorecord(True) before "
                            "backward() to replay it (build the graph again first).",
                            "backward() 已运行，但没有被记录：先重新构建计算图，"
                            "在 backward() 之前调用 viz.autorecord(True) 才能回放。"),
    "widget.step0": ("step 0 of {n}: nothing ran yet; press Play to run backward one node at a time",
                     "第 0 步，共 {n} 步：还没有运行；按播放键逐个节点运行反向传播"),
    "widget.stepk": ("step {k} of {n}: {name} ran", "第 {k} 步，共 {n} 步：{name} 已运行"),
    "widget.stale": ("This widget's kernel is gone (restarted or shut down): use Run \u2192 Run All Cells "
                     "to draw it again.",
                     "这个小部件的内核已不在（已重启或关闭）：请用菜单 Run \u2192 Run All Cells 重新运行全部单元格。"),
    # the inspector
    "insp.pick": ("Pick a node (click it, or use the list) to inspect it.",
                  "选择一个节点（点击它，或从列表中选）来查看它。"),
    "insp.kind": ("kind", "类型"),
    "insp.shape": ("shape", "形状"),
    "insp.dtype": ("dtype", "dtype"),
    "insp.value": ("value", "数值"),
    "insp.version": ("version", "版本"),
    "insp.saved_at": ("saved at {saved}, now {now}", "保存时 {saved}，现在 {now}"),
    "insp.modified": (" (modified in place since it was saved!)", "（保存后被原地修改过！）"),
    "insp.gradient": ("gradient", "梯度"),
    "insp.not_run": ("not run by this backward", "这次反向传播没有运行它"),
    "insp.not_yet": ("not yet: this node runs at step {k}", "还没有：这个节点在第 {k} 步运行"),
    "insp.none_yet": ("none yet: it appears after backward()", "还没有：backward() 之后才会出现"),
    "insp.grad_in": ("gradient in", "传入的梯度"),
    "insp.sent": ("sent {slot}to {name}", "{slot}传给 {name}"),
    "insp.grad_not_yet": ("not yet: written at step {k}", "还没有：在第 {k} 步写入"),
    "insp.freed": ("freed by backward (use backward(retain_graph=True) to keep them)",
                   "已被 backward 释放（用 backward(retain_graph=True) 可保留）"),
    "insp.saved_kept": ("kept until this node runs, then freed by backward",
                        "保留到这个节点运行，之后被 backward 释放"),
    "insp.saved_tensors": ("saved tensors", "保存的张量"),
    "insp.none": ("none", "无"),
    "insp.saved_note": ("shape {shape}, version saved {saved}, now {now}", "形状 {shape}，保存时版本 {saved}，现在 {now}"),
    "insp.saved_stale": (" (modified in place: backward will fail)", "（已被原地修改：backward 会失败）"),
    "insp.chain": ("chain rule", "链式法则"),
    "insp.rule": ("rule", "法则"),
    "insp.torch_rule": ("a PyTorch node: its rule is in PyTorch's derivatives.yaml, not in a docstring here",
                        "真实 torch 的节点：它的求导法则写在 torch 的源码（导数定义表）里，不在这里的文档字符串中"),
    "insp.not_implemented": ("no derivative: backward through this node raises \"{error}\", as PyTorch's does",
                             "没有导数：经过这个节点的反向传播会报错 \"{error}\"，与 torch 相同"),
    "insp.numbers": ("numbers", "代入数值"),
    "insp.raw": ("PyTorch's formula", "torch 的公式"),
    "insp.raw_show": ("show (derivatives.yaml, written for its kernels)", "展开（derivatives.yaml，为其内核而写）"),
    # notes under the chain rule's teaching forms (viz/teach.py)
    "teach.sum_to_self": ("summed over the rows broadcast to self's shape (a bias: grad.sum(0))",
                          "按广播的行求和，回到 self 的形状（偏置：grad.sum(0)）"),
    "teach.batched": ("one matrix product per batch entry", "批中每一项各做一次矩阵乘法"),
    "teach.expand": ("the same share for every element of self", "self 的每个元素分到相同的一份"),
    "teach.expand_dim": ("n: how many elements each mean averaged; the same share for each",
                         "n：每个均值平均的元素个数；每个元素分到相同的一份"),
    "teach.mse": ("N: the number of elements with reduction='mean', 1 with 'sum'",
                  "N：reduction='mean' 时为元素个数，'sum' 时为 1"),
    "teach.nll": ("at [i, target[i]] of each row i, 0 elsewhere (after log_softmax: cross-entropy)",
                  "只在每行 i 的 [i, target[i]] 处，其余为 0（接在 log_softmax 之后即交叉熵）"),
    "teach.conv_input": ("each output position sends grad back through the weights that made it",
                         "每个输出位置把梯度沿着产生它的权重送回"),
    "teach.conv_weight": ("each weight: the sum over positions of input patch * grad",
                          "每个权重：各位置上 输入小块 * 梯度 之和"),
    "teach.batch_norm": ("x̂ = (input - mean) * invstd; means and sums over the batch",
                         "x̂ = (input - mean) * invstd；均值与求和都在批维度上"),
    "insp.numbers_not_kept": ("not kept: a recording keeps them for the {n} nodes nearest the output",
                              "未保留：记录只为最靠近输出的 {n} 个节点保留数值"),
    "insp.accumulate": ("old .grad + incoming = new .grad", "原来的 .grad + 传入的梯度 = 新的 .grad"),
    "insp.no_old": ("(none before: .grad starts as the incoming gradient)", "（之前没有：.grad 就是传入的梯度）"),
    "insp.gone": ("this node no longer exists (its graph was freed)", "这个节点已不存在（它的计算图已被释放）"),
    "insp.ref": ("a copy of {id} drawn near this use; the same node", "{id} 在这个使用处的副本，是同一个节点"),
}


def t(key, lang=None, **fill):
    """The text for ``key`` in ``lang`` (None: the default), filled with ``fill``."""
    if fill.get("n", fill.get("runs")) == 1 and key + ".one" in TEXT:
        key += ".one"             # English: "1 node", not "1 nodes"
    en, zh = TEXT[key]
    text = zh if resolve(lang) == "zh" else en
    return text.format(**fill) if fill else text
