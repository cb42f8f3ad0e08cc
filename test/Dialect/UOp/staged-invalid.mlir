// The verifier rules of the staged tensor-core ops and #uop.swizzle (the
// PTX instructions' own requirements: cp.async sizes, ldmatrix's 16-bit
// rows, whole 16-byte pieces, a whole number of swizzle periods).
// RUN: uop-opt %s -split-input-file -verify-diagnostics

uop.kernel @k {
  // expected-error @+1 {{swizzle <4, 4, 3> must have 1 <= bits <= 3, 0 <= base <= 7, shift >= bits and a period of at most 2^20 bytes}}
  %s = uop.define_local "t" {swizzle = #uop.swizzle<4, 4, 3>} : !uop.ptr<f16, 4096, local>
  uop.sink
}

// -----

uop.kernel @k {
  // expected-error @+1 {{has 1024 bytes, not a whole number of its swizzle's 2048-byte period}}
  %s = uop.define_local "t" {swizzle = #uop.swizzle<3, 4, 4>} : !uop.ptr<f16, 512, local>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{copies rows of 24 bytes: a row must be a whole number of 16-byte pieces}}
  %t = uop.copy_tile %s, %g rows 4 cols 12 pitch 64, 16 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{pitches must keep each row 16-byte aligned (multiples of 8 elements)}}
  %t = uop.copy_tile %s, %g rows 4 cols 16 pitch 68, 16 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{rows of 32 elements overlap at pitches 16, 32}}
  %t = uop.copy_tile %s, %g rows 4 cols 32 pitch 16, 32 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f32, 2048, local>
  // expected-error @+1 {{copies 'f16' into a buffer of 'f32'}}
  %t = uop.copy_tile %s, %g rows 4 cols 32 pitch 32, 32 : !uop.ptr<f32, 2048, local>, !uop.ptr<f16, 4096>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  // expected-error @+1 {{dst must point into local memory, got '!uop.ptr<f16, 4096>'}}
  %t = uop.copy_tile %g, %g rows 4 cols 32 pitch 32, 32 : !uop.ptr<f16, 4096>, !uop.ptr<f16, 4096>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{copies 4, 8 or 16 bytes (cp.async), not 32}}
  %c = uop.async_copy %s, %g bytes 32 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{src must point into global memory, got '!uop.ptr<f16, 2048, local>'}}
  %c = uop.async_copy %s, %s bytes 16 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 2048, local>
  uop.sink
}

// -----

uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{reads 1, 2 or 4 matrices, not 3}}
  %a = uop.ldmatrix %s count 3 : !uop.ptr<f16, 2048, local> -> vector<6xf16>
  uop.sink
}

// -----

uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<f32, 2048, local>
  // expected-error @+1 {{reads 16-bit elements, not 'f32'}}
  %a = uop.ldmatrix %s count 4 : !uop.ptr<f32, 2048, local> -> vector<8xf32>
  uop.sink
}

// -----

uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<bf16, 2048, local>
  // expected-error @+1 {{with 2 matrices gives 'vector<4xbf16>', not 'vector<8xbf16>'}}
  %a = uop.ldmatrix %s count 2 : !uop.ptr<bf16, 2048, local> -> vector<8xbf16>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  // expected-error @+1 {{the address must point into local memory, got '!uop.ptr<f16, 4096>'}}
  %a = uop.ldmatrix %g count 4 : !uop.ptr<f16, 4096> -> vector<8xf16>
  uop.sink
}

// -----

// expected-error @+3 {{wgmma tile major must be `k` or `mn`, not `m`}}
uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %d = uop.wgmma %acc, %s [#uop.wgmma_tile<m, swizzle = 0, lbo = 16, sbo = 16>], %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>] : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 2048, local> -> vector<4xf32>
  uop.sink
}

// -----

uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{wgmma tile swizzle must be 0, 32, 64 or 128 bytes, not 16}}
  %d = uop.wgmma %acc, %s [#uop.wgmma_tile<k, swizzle = 16, lbo = 16, sbo = 16>], %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>] : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 2048, local> -> vector<4xf32>
  uop.sink
}

// -----

uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  // expected-error @+1 {{wgmma tile sbo must be a multiple of 16 below 2^18, not 24}}
  %d = uop.wgmma %acc, %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 24>], %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>] : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 2048, local> -> vector<4xf32>
  uop.sink
}

// -----

uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<f32, 2048, local>
  %z = uop.const 0.0 : f32
  %acc = uop.vectorize %z, %z, %z, %z : f32
  // expected-error @+1 {{multiplies f16 or bf16 tiles of one dtype, not 'f32' and 'f32'}}
  %d = uop.wgmma %acc, %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>], %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>] : !uop.ptr<f32, 2048, local>, !uop.ptr<f32, 2048, local> -> vector<4xf32>
  uop.sink
}

// -----

uop.kernel @k {
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %z = uop.const 0.0 : f32
  %acc = uop.vectorize %z, %z, %z, %z, %z, %z : f32
  // expected-error @+1 {{with 6 accumulator registers has N = 12: wgmma's N is a multiple of 8 from 8 to 256}}
  %d = uop.wgmma %acc, %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>], %s [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>] : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 2048, local> -> vector<6xf32>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %z = uop.const 0.0 : f32
  %acc = uop.vectorize %z, %z, %z, %z : f32
  // expected-error @+1 {{A must point into local memory, got '!uop.ptr<f16, 4096>'}}
  %d = uop.wgmma %acc, %g [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>], %g [#uop.wgmma_tile<k, swizzle = 0, lbo = 16, sbo = 16>] : !uop.ptr<f16, 4096>, !uop.ptr<f16, 4096> -> vector<4xf32>
  uop.sink
}

// -----

uop.kernel @k {
  %m = uop.define_local "bars" : !uop.ptr<si32, 2, local>
  // expected-error @+1 {{needs mbarriers: a pointer to 64-bit integers in local memory, not '!uop.ptr<si32, 2, local>'}}
  %i = uop.mbarrier_init %m count 1 : !uop.ptr<si32, 2, local>
  uop.sink
}

// -----

uop.kernel @k {
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  // expected-error @+1 {{'bytes' failed to satisfy constraint}}
  %e = uop.mbarrier_expect_tx %m bytes 1048576 : !uop.ptr<si64, 2, local>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  // expected-error @+1 {{copies from global into local memory, not from '!uop.ptr<f16, 2048, local>' into '!uop.ptr<f16, 4096>'}}
  %t = uop.tensor_copy %g, %s rows 8 cols 8 pitch 64, %m : !uop.ptr<f16, 4096>, !uop.ptr<f16, 2048, local>, !uop.ptr<si64, 2, local>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  // expected-error @+1 {{copies rows of 12 bytes: the TMA copies whole 16-byte pieces}}
  %t = uop.tensor_copy %s, %g rows 8 cols 6 pitch 64, %m : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  // expected-error @+1 {{reads rows 60 elements apart: at least the 8 a row has, and a multiple of 16 bytes}}
  %t = uop.tensor_copy %s, %g rows 8 cols 8 pitch 60, %m : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  // expected-error @+1 {{'rows' failed to satisfy constraint}}
  %t = uop.tensor_copy %s, %g rows 512 cols 8 pitch 64, %m : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  %i = uop.const 0 : si32
  // expected-error @+1 {{has coordinates and a tensor map after uop-lower, neither before}}
  %t = uop.tensor_copy %s, %g [%i, %i] rows 8 cols 8 pitch 64, %m : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>, si32, si32
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  %i = uop.const 0 : si32
  // expected-error @+1 {{copies 8 rows of 8 elements, 64 apart, not boxes of #uop.tensor_map<buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [16, 8], swizzle = 0>}}
  %t = uop.tensor_copy %s, %g [%i, %i] map #uop.tensor_map<buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [16, 8], swizzle = 0> rows 8 cols 8 pitch 64, %m : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>, si32, si32
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  %i = uop.const 0 : si32
  %gi = uop.index %g[%i] : !uop.ptr<f16, 4096>, si32
  %si = uop.index %s[%i] : !uop.ptr<f16, 2048, local>, si32
  %mi = uop.index %m[%i] : !uop.ptr<si64, 2, local>, si32
  %pv = uop.view [#uop.view<shape = [2], strides = [1]>] : !uop.void
  // expected-error @+1 {{shifts its multicast mask by a VIEW's index before uop-lower, by an integer after}}
  %t = uop.tensor_copy %si, %gi [%i, %i] map #uop.tensor_map<buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [8, 8], swizzle = 0> rows 8 cols 8 pitch 64, %mi multicast 3 shl %pv : !uop.void : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>, si32, si32
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  %pv = uop.view [#uop.view<shape = [2], strides = [1]>] : !uop.void
  // expected-error @+1 {{'receivers' failed to satisfy constraint}}
  %t = uop.tensor_copy %s, %g rows 8 cols 8 pitch 64, %m multicast 65536 shl %pv : !uop.void : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  uop.sink
}
