# torch.load is weights-only by default: a file may only rebuild containers,
# tensors and a few allowed types. Files crafted by hand: an unknown global,
# and BUILD (which sets attributes on an object) on something other than an
# OrderedDict. The file formats differ (PyTorch: a zip archive with
# archive/data.pkl; autograd_teach: a header line, then the pickle), so the
# crafted pickle is put where each implementation looks for it.
import collections
import io
import zipfile

import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out, getattr(out, "__dict__", None))
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


def file_with(pkl):
    """A file in the format torch.save writes, whose pickle is pkl."""
    buf = io.BytesIO()
    torch.save(collections.OrderedDict(), buf)
    raw = buf.getvalue()
    if not raw.startswith(b"PK"):            # a header line, then the pickle
        return io.BytesIO(raw.split(b"\n", 1)[0] + b"\n" + pkl)
    source, out = zipfile.ZipFile(io.BytesIO(raw)), io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as archive:
        for name in source.namelist():
            archive.writestr(name, pkl if name.endswith("/data.pkl") else source.read(name))
    return io.BytesIO(out.getvalue())


PROTO = b"\x80\x02"
SET_DATA = b"}X\x05\x00\x00\x00_dataX\x01\x00\x00\x00xsb."    # {"_data": "x"}, then BUILD, STOP
CASES = {
    "BUILD on an OrderedDict": PROTO + b"ccollections\nOrderedDict\n)R" + SET_DATA,
    "BUILD on a list": PROTO + b"]" + SET_DATA,
    "BUILD on a dict": PROTO + b"}" + SET_DATA,
    "a global: os.system": PROTO + b"cos\nsystem\nX\x04\x00\x00\x00echo\x85R.",
    "a global: builtins.eval": PROTO + b"cbuiltins\neval\nX\x03\x00\x00\x001+1\x85R.",
    "a global: builtins.getattr": PROTO + b"cbuiltins\ngetattr\n.",
    "a list of numbers": PROTO + b"]q\x00(K\x01K\x02e.",
}
for label, pkl in CASES.items():
    attempt(label, lambda: torch.load(file_with(pkl)))
    attempt(label + ", weights_only=True", lambda: torch.load(file_with(pkl), weights_only=True))


# A state dict keeps its modules' versions through save and load.
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(type(sd).__name__, list(sd), dict(sd._metadata))
del sd["1.num_batches_tracked"]
attempt("load it without num_batches_tracked", lambda: m.load_state_dict(sd))
