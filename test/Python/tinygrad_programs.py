"""tinygrad programs for the backend tests: each takes (tinygrad, rng) and returns the
tensors to compare. Inputs come from numpy (rng), random tensors from tinygrad's own
generator after Tensor.manual_seed, so two runs of a program compute the same thing."""
import numpy as np


def _t(tg, a):
    return tg.Tensor(np.ascontiguousarray(a))


def f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def elementwise(tg, rng):
    a, b, c = (_t(tg, f32(rng, 4, 33)) for _ in range(3))
    return [(a + b) * c - a / (b.abs() + 1), a.relu(), a.exp(), b.sigmoid(), a.maximum(c),
            (a < b).where(a, c), a.abs().sqrt(), a.sin(), (b * b + 1).log()]


def integer_and_bool(tg, rng):
    from tinygrad import dtypes
    x = _t(tg, rng.integers(-100, 100, (5, 7)).astype(np.int32))
    y = _t(tg, rng.integers(1, 9, (5, 7)).astype(np.int32))
    u = _t(tg, rng.integers(0, 255, (64,)).astype(np.uint8))
    return [x + y * 3, x // y, x % y, x.maximum(y), (x > y), (x ^ y), u + 200, x.cast(dtypes.float32) / 3,
            (x.cast(dtypes.float16) * 0.5).cast(dtypes.float32)]


def half_math(tg, rng):
    from tinygrad import dtypes
    a = _t(tg, f32(rng, 16, 16)).cast(dtypes.float16)
    b = _t(tg, f32(rng, 16, 16)).cast(dtypes.float16)
    return [(a * b + a).cast(dtypes.float32), (a @ b).cast(dtypes.float32), a.sum(axis=1).cast(dtypes.float32)]


def reductions(tg, rng):
    a = _t(tg, f32(rng, 6, 50))
    return [a.sum(), a.sum(axis=0), a.max(axis=1), a.mean(axis=1, keepdim=True), a.min(),
            a.argmax(axis=1), a.std(axis=1), a.cumsum(axis=1)]


def big_sum(tg, rng):
    a = _t(tg, f32(rng, 70000))
    return [a.sum(), (a * a).mean()]


def movement(tg, rng):
    a = _t(tg, f32(rng, 4, 6, 5))
    b = _t(tg, f32(rng, 4, 6, 5))
    return [a.permute(2, 0, 1).contiguous(), a.pad(((1, 2), None, (0, 3))), a[1:3, ::2, ::-1],
            a.cat(b, dim=1), a.reshape(24, 5).T.contiguous(), a.expand(3, 4, 6, 5) * 2,
            a.flip(1), a.repeat((2, 1, 1))]


def arange_onehot(tg, rng):
    idx = _t(tg, rng.integers(0, 10, (12,)).astype(np.int32))
    return [tg.Tensor.arange(20) * 3, idx.one_hot(10), tg.Tensor.eye(5), tg.Tensor.ones(3, 4).tril()]


def matmul(tg, rng):
    a, b = _t(tg, f32(rng, 33, 47)), _t(tg, f32(rng, 47, 29))
    v = _t(tg, f32(rng, 47))
    batch = _t(tg, f32(rng, 3, 8, 16)), _t(tg, f32(rng, 3, 16, 8))
    return [a @ b, a @ v, batch[0] @ batch[1]]


def conv(tg, rng):
    x = _t(tg, f32(rng, 2, 3, 12, 12))
    w = _t(tg, f32(rng, 4, 3, 3, 3))
    bias = _t(tg, f32(rng, 4))
    return [x.conv2d(w, bias, padding=1), x.conv2d(w, stride=2), x.max_pool2d(), x.avg_pool2d()]


def softmax(tg, rng):
    a = _t(tg, f32(rng, 7, 40))
    return [a.softmax(), a.log_softmax(axis=0), a.logsumexp(axis=1)]


def layernorm(tg, rng):
    x = _t(tg, f32(rng, 5, 64))
    w, b = _t(tg, f32(rng, 64)), _t(tg, f32(rng, 64))
    return [x.layernorm() * w + b, x * (x.square().mean(-1, keepdim=True) + 1e-6).rsqrt()]


def attention(tg, rng):
    from tinygrad import dtypes
    q, k, v = (_t(tg, f32(rng, 2, 4, 16, 8)) for _ in range(3))
    mask = tg.Tensor.ones(16, 16).tril().cast(dtypes.bool)
    return [q.scaled_dot_product_attention(k, v), q.scaled_dot_product_attention(k, v, is_causal=True),
            q.scaled_dot_product_attention(k, v, attn_mask=mask)]


def random_numbers(tg, rng):
    tg.Tensor.manual_seed(1234)
    return [tg.Tensor.rand(100), tg.Tensor.randn(4, 5), tg.Tensor.randint(10, low=0, high=7)]


def mlp_training(tg, rng):
    from tinygrad import nn
    from tinygrad.nn import optim
    tg.Tensor.manual_seed(0)
    l1, l2 = nn.Linear(8, 16), nn.Linear(16, 4)
    params = [l1.weight, l1.bias, l2.weight, l2.bias]
    opt = optim.Adam(params, lr=0.01)
    x = _t(tg, f32(rng, 32, 8))
    y = _t(tg, rng.integers(0, 4, (32,)).astype(np.int32))
    losses = []
    with tg.Tensor.train():
        for _ in range(3):
            opt.zero_grad()
            loss = l2(l1(x).relu()).sparse_categorical_crossentropy(y)
            loss.backward()
            opt.step()
            losses.append(loss.realize())
    return losses + params


def sgd_conv_training(tg, rng):
    from tinygrad import nn
    from tinygrad.nn import optim
    tg.Tensor.manual_seed(1)
    conv = nn.Conv2d(1, 4, 3)
    lin = nn.Linear(4 * 6 * 6, 3)
    opt = optim.SGD([conv.weight, conv.bias, lin.weight, lin.bias], lr=0.1, momentum=0.9)
    x = _t(tg, f32(rng, 8, 1, 8, 8))
    y = _t(tg, rng.integers(0, 3, (8,)).astype(np.int32))
    with tg.Tensor.train():
        for _ in range(2):
            opt.zero_grad()
            loss = lin(conv(x).relu().flatten(1)).sparse_categorical_crossentropy(y)
            loss.backward()
            opt.step()
    return [loss, conv.weight, lin.weight]


def symbolic_shapes(tg, rng):
    """A KV cache: kernels over the first n rows (n a Variable bound at launch), compiled once
    and run for two values of n; a row written at a symbolic offset."""
    from tinygrad import Variable
    cache = _t(tg, f32(rng, 16, 8)).realize()
    q = _t(tg, f32(rng, 1, 8))
    new = _t(tg, f32(rng, 1, 8)).realize()
    outs = []
    for n in (3, 7):
        v = Variable("n", 1, 15).bind(n)
        keys = cache[:v]
        outs += [(q @ keys.T).softmax() @ keys, (keys * 2).sum(axis=0), cache[v:v + 1] * 3]
    pos = Variable("pos", 0, 15).bind(5)
    cache[pos:pos + 1].assign(new).realize()
    return outs + [cache]


PROGRAMS = {f.__name__: f for f in (
    elementwise, integer_and_bool, half_math, reductions, big_sum, movement, arange_onehot,
    matmul, conv, softmax, layernorm, attention, random_numbers, mlp_training, sgd_conv_training,
    symbolic_shapes)}
