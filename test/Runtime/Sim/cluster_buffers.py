#!/usr/bin/env python3
"""cluster_buffers.py DIR: buffers for cluster.test's kernels (Inputs/cluster.mlir).

What each kernel should write is derived here from the PTX ISA's special registers
(%cluster_ctarank counts x fastest, then y, then z; %clusterid is %ctaid over the cluster's
shape), not from the simulator.
"""
import sys

from make_buffers import write_case


def main():
    out_dir = sys.argv[1]

    # exchange: grid 4x2 of 32 threads in 2x2 clusters; each thread reads the word of its
    # block's next (rank + 1) block in the cluster.
    cluster, grid = (2, 2), (4, 2)
    want = []
    for by in range(grid[1]):
        for bx in range(grid[0]):
            ix, iy = bx % cluster[0], by % cluster[1]
            cx, cy = bx // cluster[0], by // cluster[1]
            rank = ix + cluster[0] * iy
            peer = (rank + 1) % (cluster[0] * cluster[1])
            px, py = cx * cluster[0] + peer % cluster[0], cy * cluster[1] + peer // cluster[0]
            for t in range(32):
                want += [px * 1000 + py * 100 + t, rank,
                         cx + 10 * cy + 100 * (grid[0] // cluster[0]) + 1000 * (grid[1] // cluster[1]),
                         ix + 10 * iy + 100 * cluster[0] + 1000 * cluster[1]]
    write_case(out_dir, "exchange", [("i32", len(want), {"in": [-1] * len(want), "want": want})])

    # remote_arrive: 2 clusters of 4; block r > 0 gives 7r + 100c to block 0.
    want = []
    for c in range(2):
        want += [100 * c + 1] + [7 * r + 100 * c for r in range(1, 4)]
    write_case(out_dir, "remote_arrive", [("i32", 8, {"in": [-1] * 8, "want": want})])

    # multicast_bulk: every block of a cluster gets both blocks' 16 words: in[0..31].
    source = list(range(100, 132))
    write_case(out_dir, "multicast_bulk", [("i32", 128, {"in": [-1] * 128, "want": source * 4}),
                                           ("i32", 32, {"in": source})])

    # multicast_tma: both blocks get both 4-row boxes of the 8 x 32 tensor, unswizzled: all
    # of it, in order.
    tensor = [float(1000 + i) for i in range(256)]
    write_case(out_dir, "multicast_tma", [("f32", 512, {"in": [-1.0] * 512, "want": tensor * 2}),
                                          ("f32", 256, {"in": tensor})])
    # lead: the simulator runs a cluster's blocks skewed, one leading (docs/simulator.md,
    # "Clusters"): rank 0 in the launch's even clusters, the last rank in its odd ones; the
    # others run only while the blocks before them wait. Blocks 0, 1 are cluster 0 and 2, 3
    # cluster 1, so the tickets go to blocks 0, 1, 3, 2.
    tickets = [0, 1, 3, 2]
    write_case(out_dir, "lead", [("i32", 4, {"in": [-1] * 4, "want": tickets}),
                                 ("i32", 1, {"in": [0], "want": [4]})])
    write_case(out_dir, "source", [("i32", 16, {"in": list(range(16))})])

    # The misuses: one word of output, if any.
    write_case(out_dir, "one", [("i32", 1, {"in": [0]})])
    write_case(out_dir, "none", [])


if __name__ == "__main__":
    main()
