"""Forward-mode AD's machinery: dual.py (levels, tangents, how a tangent goes
through an op) and jvp_rules.py (each op's forward rule). The core calls it
only while a dual level exists; torch.autograd.forward_ad and torch.func.jvp
are the public faces (autograd/forward_ad.py, func.py)."""
