// A block's values given to the other block of its cluster through its
// shared memory (uop.cluster_map): grid 2x2 of 32 threads in clusters of
// 1x2; thread (c, r, l) stores x[c][r][l] at element (1 - r) * 32 + l of
// the cluster's buffers, which is element l of block 1 - r's, and then
// reads element l of its own: out[c][r][l] = x[c][1 - r][l].
uop.kernel @swap attributes {uop.kernel_info = #uop.kernel_info<global_dims = 2, local_dims = 1, upcasted = 0, dont_use_locals = false, opts = "", cluster = [1, 2]>} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %ov = uop.view %out [#uop.view<shape = [2, 2, 32], strides = [64, 32, 1]>] : !uop.ptr<f32, 128>
  %x = uop.define_global 1 : !uop.ptr<f32, 128>
  %xv = uop.view %x [#uop.view<shape = [2, 2, 32], strides = [64, 32, 1]>] : !uop.ptr<f32, 128>
  %v = uop.load %xv : !uop.ptr<f32, 128>
  %d = uop.define_local "swap" : !uop.ptr<f32, 32, local>
  %c = uop.cluster_map %d blocks 2 : !uop.ptr<f32, 32, local> -> !uop.ptr<f32, 64, cluster>
  %peer = uop.view %c [#uop.view<shape = [2, 2, 32], strides = [0, -32, 1], offset = 32>] : !uop.ptr<f32, 64, cluster>
  %st = uop.store %peer, %v : !uop.ptr<f32, 64, cluster>
  %own = uop.view %d [#uop.view<shape = [2, 2, 32], strides = [0, 0, 1]>] : !uop.ptr<f32, 32, local>
  %w = uop.load %own after %st : !uop.ptr<f32, 32, local>
  %o = uop.store %ov, %w : !uop.ptr<f32, 128>
  uop.sink %o
}

// The same without the load's `after` on the store: its barrier is then
// the block's alone, and it reads before the other block's store.
uop.kernel @swap_unordered attributes {uop.kernel_info = #uop.kernel_info<global_dims = 2, local_dims = 1, upcasted = 0, dont_use_locals = false, opts = "", cluster = [1, 2]>} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %ov = uop.view %out [#uop.view<shape = [2, 2, 32], strides = [64, 32, 1]>] : !uop.ptr<f32, 128>
  %x = uop.define_global 1 : !uop.ptr<f32, 128>
  %xv = uop.view %x [#uop.view<shape = [2, 2, 32], strides = [64, 32, 1]>] : !uop.ptr<f32, 128>
  %v = uop.load %xv : !uop.ptr<f32, 128>
  %d = uop.define_local "swap" : !uop.ptr<f32, 32, local>
  %c = uop.cluster_map %d blocks 2 : !uop.ptr<f32, 32, local> -> !uop.ptr<f32, 64, cluster>
  %peer = uop.view %c [#uop.view<shape = [2, 2, 32], strides = [0, -32, 1], offset = 32>] : !uop.ptr<f32, 64, cluster>
  %st = uop.store %peer, %v : !uop.ptr<f32, 64, cluster>
  %own = uop.view %d [#uop.view<shape = [2, 2, 32], strides = [0, 0, 1]>] : !uop.ptr<f32, 32, local>
  %w = uop.load %own : !uop.ptr<f32, 32, local>
  %o = uop.store %ov, %w : !uop.ptr<f32, 128>
  uop.sink %o, %st
}
