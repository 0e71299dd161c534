# Grad mode and inference mode belong to the thread that sets them. Events
# put the threads in lockstep, so the interleaving is the same on every run.
import threading

import torch

inside, done = threading.Event(), threading.Event()
seen = []


def background():
    with torch.no_grad():
        inside.set()
        done.wait(10)
        seen.append(("background", torch.is_grad_enabled()))


t = threading.Thread(target=background)
t.start()
inside.wait(10)
x = torch.ones(2, requires_grad=True)
y = x * 2                        # the other thread is inside no_grad now
print("main:", torch.is_grad_enabled(), y)
done.set()
t.join()
print(seen)

# A enters no_grad, B enters, A leaves, B leaves: grad mode is on everywhere after.
a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
after = {}


def thread_a():
    with torch.no_grad():
        a_in.set()
        b_in.wait(10)
    a_out.set()
    after["a"] = torch.is_grad_enabled()


def thread_b():
    a_in.wait(10)
    with torch.no_grad():
        b_in.set()
        a_out.wait(10)
    after["b"] = torch.is_grad_enabled()


threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
for th in threads:
    th.start()
for th in threads:
    th.join()
print(sorted(after.items()), torch.is_grad_enabled())

# A new thread starts with grad mode on, whatever the thread that starts it has set.
out = []
with torch.no_grad():
    th = threading.Thread(target=lambda: out.append((torch.is_grad_enabled(), (x * 3).requires_grad)))
    th.start()
    th.join()
print(out)
with torch.inference_mode():
    th = threading.Thread(target=lambda: out.append((torch.is_inference_mode_enabled(), torch.ones(1).is_inference())))
    th.start()
    th.join()
print(out[1:])


# Backward in four threads at once, each on its own graph. Thread k starts its
# backward once thread k-1's is under way (a hook on its first gradient), so the
# runs overlap but begin in the same order every time: a recording of them
# (tests/test_viz_torch_golden.py) compares run i with run i.
started = [threading.Event() for _ in range(4)]


def work(k, results):
    w = torch.full((3,), float(k), requires_grad=True)
    square = w * w
    square.register_hook(lambda g: started[k].set())
    loss = square.sum()
    if k:
        started[k - 1].wait(10)
    loss.backward()
    results[k] = w.grad.tolist()


results = {}
threads = [threading.Thread(target=work, args=(k, results)) for k in range(4)]
for th in threads:
    th.start()
for th in threads:
    th.join()
print(sorted(results.items()))
