// STAGE that cannot apply is an error naming the opt, the shape and why
// (StagedTensorCores.cpp checks what the copies and ldmatrix need).
// RUN: uop-opt %s --split-input-file --uop-optimize --verify-diagnostics

// STAGE stages the TC opt's operands: without it there are none.
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{cannot apply opt STAGE:0:3 (1 of 1) to the shape (g16 g8 r32) for sm_80: STAGE stages the tensor cores' operands: TC first}}
uop.kernel @no_tc attributes {uop.opts = "STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// cp.async and ldmatrix are sm_80's; sm_75 has tensor cores but not them.
module attributes {uop.target = #uop.target<"sm_75">} {
// expected-error @+1 {{for sm_75: STAGE needs cp.async and ldmatrix (sm_80 or later), not sm_75}}
uop.kernel @sm75 attributes {uop.opts = "TC:0:-1,0,1,STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// STAGE is written back with the opts before it: nothing may follow.
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{cannot apply opt UPCAST:0:2 (3 of 3) to the shape (l2 l2 l2 l2 l2 r2 U2 U2 U2 U2 u2 u2) for sm_80: STAGE must be the last opt}}
uop.kernel @not_last attributes {uop.opts = "TC:0:-1,0,1,STAGE:0:3,UPCAST:0:2"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// Buffers: at least 2 (the tile computed and the one landing).
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{STAGE takes 2 to 8 buffers, not 9}}
uop.kernel @buffers attributes {uop.opts = "TC:0:-1,0,1,STAGE:0:9"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// The axis is the reduce loop's, counted from the first reduce axis.
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{the reduce loop is axis 0, not 1}}
uop.kernel @axis attributes {uop.opts = "TC:0:-1,0,1,STAGE:1:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// A one element off: its 16-byte pieces are not aligned in the buffer.
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{cannot stage A: its tile's rows are not 16-byte aligned in the buffer}}
uop.kernel @unaligned attributes {uop.opts = "TC:0:-1,0,1,STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 513>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1], offset = 1>] : !uop.ptr<f16, 513>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 513>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// B masked by the kernel itself (half its K read, as a pad of the tensor
// graph makes it): those elements must read as 0, which a copied tile
// does not make them.
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{cannot stage B: its view is masked in the kernel (a pad: those elements read as 0)}}
uop.kernel @masked attributes {uop.opts = "TC:0:-1,0,1,STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8], mask = [[0, 16], [0, 8], [0, 16]]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// K = 40 padded to 48 by TC's level 2: the padded K must read as 0 (a
// padded M or N only feeds outputs the store masks off: staged.test).
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{cannot stage A: PADTO padded a reduce axis, whose padding must read as 0}}
uop.kernel @padded_k attributes {uop.opts = "TC:0:-1,2,1,STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 640>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 40], strides = [40, 0, 1]>] : !uop.ptr<f16, 640>
  %b = uop.define_global 2 : !uop.ptr<f16, 320>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 40], strides = [0, 1, 8]>] : !uop.ptr<f16, 320>
  %x = uop.load %a_v : !uop.ptr<f16, 640>
  %y = uop.load %b_v : !uop.ptr<f16, 320>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// M = 24 padded to 32 by TC's level 2, A of unknown size: the copies of its
// last tile could not be kept inside the buffer.
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{cannot stage A: its view is padded and its buffer's size is unknown (copies past the end)}}
uop.kernel @padded_unknown_size attributes {uop.opts = "TC:0:-1,2,1,STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 192>
  %out_v = uop.view %out [#uop.view<shape = [24, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 192>
  %a = uop.define_global 1 : !uop.ptr<f16, ?>
  %a_v = uop.view %a [#uop.view<shape = [24, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, ?>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [24, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, ?>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 192>
  uop.sink %st
}
}

// -----

// tf32 tensor cores (f32 inputs): ldmatrix reads 16-bit rows.
module attributes {uop.target = #uop.target<"sm_80", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 8, dtype_in = f32, dtype_out = f32>]>} {
// expected-error @+1 {{ldmatrix reads 16-bit elements, not the tensor core's tf32}}
uop.kernel @tf32 attributes {uop.opts = "TC:0:-1,0,1,STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f32, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f32, 512>
  %b = uop.define_global 2 : !uop.ptr<f32, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f32, 256>
  %x = uop.load %a_v : !uop.ptr<f32, 512>
  %y = uop.load %b_v : !uop.ptr<f32, 256>
  %m = uop.mul %x, %y : f32
  %sum = uop.reduce_axis add %m [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// A 64x32 tile of A and a 32x128 tile of B are 12 KB a buffer: 8 of each
// are more than a block's 48 KB of shared memory.
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{STAGE:0:8 (6 of 6) to the shape (g4 g2 l2 l2 l2 l2 l2 l4 r8 U2 U2 U2 U2 u2 u2 u4 u4 U2) for sm_80: exceeds maximum shared memory size: 8 buffers need 98304 bytes, max 49152}}
uop.kernel @smem attributes {uop.opts = "TC:0:-1,0,1,UPCAST:0:4,UPCAST:1:4,LOCAL:1:4,UNROLL:0:2,STAGE:0:8"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 65536>
  %out_v = uop.view %out [#uop.view<shape = [256, 256, 1], strides = [256, 1, 0]>] : !uop.ptr<f32, 65536>
  %a = uop.define_global 1 : !uop.ptr<f16, 65536>
  %a_v = uop.view %a [#uop.view<shape = [256, 256, 256], strides = [256, 0, 1]>] : !uop.ptr<f16, 65536>
  %b = uop.define_global 2 : !uop.ptr<f16, 65536>
  %b_v = uop.view %b [#uop.view<shape = [256, 256, 256], strides = [0, 1, 256]>] : !uop.ptr<f16, 65536>
  %x = uop.load %a_v : !uop.ptr<f16, 65536>
  %y = uop.load %b_v : !uop.ptr<f16, 65536>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 65536>
  uop.sink %st
}
}

// -----

// WGMMA is Hopper's wgmma (sm_90a).
module attributes {uop.target = #uop.target<"sm_80">} {
// expected-error @+1 {{for sm_80: WGMMA needs Hopper's wgmma (sm_90a), not sm_80}}
uop.kernel @wgmma_sm80 attributes {uop.opts = "TC:0:-1,0,1,WGMMA:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// A wgmma is a warpgroup's: the TC's lanes and 4 warps down M.
module attributes {uop.target = #uop.target<"sm_90a">} {
// expected-error @+1 {{for sm_90a: WGMMA needs a warpgroup: the TC's lanes and then LOCAL 4 on M as the block's threads}}
uop.kernel @wgmma_one_warp attributes {uop.opts = "TC:0:-1,0,1,WGMMA:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

// -----

// wgmma reads A K-major; this A is contiguous in M (A^T @ B).
module attributes {uop.target = #uop.target<"sm_90a">} {
// expected-error @+1 {{for sm_90a: WGMMA reads A K-major: its buffer must be contiguous in K}}
uop.kernel @wgmma_m_major_a attributes {uop.opts = "TC:0:-1,0,1,LOCAL:0:4,UPCAST:0:8,WGMMA:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 4096>
  %out_v = uop.view %out [#uop.view<shape = [64, 64, 1], strides = [64, 1, 0]>] : !uop.ptr<f32, 4096>
  %a = uop.define_global 1 : !uop.ptr<f16, 2048>
  %a_v = uop.view %a [#uop.view<shape = [64, 64, 32], strides = [1, 0, 64]>] : !uop.ptr<f16, 2048>
  %b = uop.define_global 2 : !uop.ptr<f16, 2048>
  %b_v = uop.view %b [#uop.view<shape = [64, 64, 32], strides = [0, 1, 64]>] : !uop.ptr<f16, 2048>
  %x = uop.load %a_v : !uop.ptr<f16, 2048>
  %y = uop.load %b_v : !uop.ptr<f16, 2048>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 4096>
  uop.sink %st
}
}

// -----

// A TMA box has at most 256 rows: WGMMA copies this A tile of 512, TMA
// cannot.
module attributes {uop.target = #uop.target<"sm_90a">} {
// expected-error @+1 {{for sm_90a: TMA copies boxes of at most 256 rows, not A's 512}}
uop.kernel @tma_rows attributes {uop.opts = "TC:0:-1,0,1,LOCAL:0:4,UPCAST:1:8,UPCAST:0:8,TMA:0:2"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 32768>
  %out_v = uop.view %out [#uop.view<shape = [512, 64, 1], strides = [64, 1, 0]>] : !uop.ptr<f32, 32768>
  %a = uop.define_global 1 : !uop.ptr<f16, 16384>
  %a_v = uop.view %a [#uop.view<shape = [512, 64, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 16384>
  %b = uop.define_global 2 : !uop.ptr<f16, 2048>
  %b_v = uop.view %b [#uop.view<shape = [512, 64, 32], strides = [0, 1, 64]>] : !uop.ptr<f16, 2048>
  %x = uop.load %a_v : !uop.ptr<f16, 16384>
  %y = uop.load %b_v : !uop.ptr<f16, 2048>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 32768>
  uop.sink %st
}
}

// -----

// TMA sees A's buffer as rows of its pitch (40): starting 16 elements into
// a row, the second k-step's 16 columns would run into the next row, which
// the copy would read as zeros. (WGMMA's copies take it.)
module attributes {uop.target = #uop.target<"sm_90a">} {
// expected-error @+1 {{for sm_90a: TMA cannot copy A's tiles: a row of one would cross a row of 40 elements of its buffer}}
uop.kernel @tma_row_crossing attributes {uop.opts = "TC:0:-1,0,1,LOCAL:0:4,UPCAST:0:8,TMA:0:2"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 4096>
  %out_v = uop.view %out [#uop.view<shape = [64, 64, 1], strides = [64, 1, 0]>] : !uop.ptr<f32, 4096>
  %a = uop.define_global 1 : !uop.ptr<f16, 2576>
  %a_v = uop.view %a [#uop.view<shape = [64, 64, 32], strides = [40, 0, 1], offset = 16>] : !uop.ptr<f16, 2576>
  %b = uop.define_global 2 : !uop.ptr<f16, 2048>
  %b_v = uop.view %b [#uop.view<shape = [64, 64, 32], strides = [0, 1, 64]>] : !uop.ptr<f16, 2048>
  %x = uop.load %a_v : !uop.ptr<f16, 2576>
  %y = uop.load %b_v : !uop.ptr<f16, 2048>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 4096>
  uop.sink %st
}
}
