#!/usr/bin/env python3
"""tensor_copy_buffers.py DIR: buffers for tensor-copy.test's kernels (Inputs/tensor-copy.mlir).

Each kernel copies boxes of a tensor map into shared memory with cp.async.bulk.tensor and
writes the shared bytes out as they lie. What they should hold is derived here from the PTX
ISA's description ("Tensors", "Tensor swizzling modes"), not from the simulator: the box
packed innermost dimension first, elements outside the tensor 0, and each 16-byte chunk of
shared byte address a moved to chunk (a / 16 % 8) ^ (a / 128 % (swizzle / 16)) of its line.
"""
import struct
import sys

from make_buffers import write_case


def box_bytes(tensor, sizes, elem, box, coords, swizzle, shared):
    """The bytes a box lands at shared byte `shared`: tensor(index) gives an element's bytes."""
    packed = bytearray()
    def walk(d, index):
        if d < 0:
            inside = all(0 <= i < n for i, n in zip(index, sizes))
            packed.extend(tensor(index) if inside else bytes(elem))
            return
        for j in range(box[d]):
            walk(d - 1, [coords[d] + j] + index)
    walk(len(box) - 1, [])
    if not swizzle:
        return bytes(packed)
    out = bytearray(len(packed))
    for c in range(0, len(packed), 16):
        a = shared + c
        moved = a ^ (((a >> 7) & (swizzle // 16 - 1)) << 4)
        out[moved - shared:moved - shared + 16] = packed[c:c + 16]
    return bytes(out)


def main():
    out_dir = sys.argv[1]

    # sw128_f32_2d: in is 20 rows of 40 floats (stride 160 bytes), in[r][c] = 100r + c + 1;
    # boxes of 8 rows of 32 at (16, 16) to shared byte 0 and at (-8, -4) to byte 1152 (on a
    # 128-byte line but not on the pattern's 1024-byte boundary).
    rows = [[100 * r + c + 1 for c in range(40)] for r in range(20)]
    f32 = lambda index: struct.pack("<f", rows[index[1]][index[0]])
    words = []
    for coords, shared in [((16, 16), 0), ((-8, -4), 1152)]:
        b = box_bytes(f32, (40, 20), 4, (32, 8), coords, 128, shared)
        words += list(struct.unpack("<256f", b))
    write_case(out_dir, "sw128", [("f32", 512, {"want": words}),
                                  ("f32", 800, {"in": [v for row in rows for v in row]})])

    # sw64_f16_3d: in is 4 x 6 rows of 32 halves (strides 64 and 384 bytes), value
    # (i + 1) % 2048 for flat index i; a box of 2 x 4 rows of 32 at (0, 3, 3) to byte 0.
    flat = [float((i + 1) % 2048) for i in range(32 * 6 * 4)]
    f16 = lambda index: struct.pack("<e", flat[index[0] + 32 * index[1] + 192 * index[2]])
    b = box_bytes(f16, (32, 6, 4), 2, (32, 4, 2), (0, 3, 3), 64, 0)
    write_case(out_dir, "sw64", [("f16", 256, {"want": list(struct.unpack("<256e", b))}),
                                 ("f16", 768, {"in": flat})])

    # none_f32_1d: 100 floats, in[i] = i + 1; a box of 16 at 90, unswizzled.
    f32_1d = lambda index: struct.pack("<f", index[0] + 1)
    b = box_bytes(f32_1d, (100,), 4, (16,), (90,), 0, 0)
    write_case(out_dir, "none", [("f32", 16, {"want": list(struct.unpack("<16f", b))}),
                                 ("f32", 100, {"in": [i + 1 for i in range(100)]})])
    # The same with a buffer one float short of the map's 100.
    write_case(out_dir, "short", [("f32", 16, {}), ("f32", 99, {"in": list(range(99))})])


if __name__ == "__main__":
    main()
