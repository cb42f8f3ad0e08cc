// uop-lower refuses a TMA copy it cannot make a tensor map for, and a
// masked mbarrier wait (every thread waits), with the reason.
// RUN: uop-opt %s --split-input-file --uop-lower --verify-diagnostics

// A tensor map needs the buffer's size: its rows.
uop.kernel @unknown_size {
  %g = uop.define_global 0 : !uop.ptr<f16, ?>
  %s = uop.define_local "t" : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 1, local>
  %gv = uop.view %g [#uop.view<shape = [2], strides = [64]>] : !uop.ptr<f16, ?>
  %sv = uop.view %s [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<f16, 2048, local>
  %mv = uop.view %m [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<si64, 1, local>
  // expected-error @+1 {{copies from a kernel buffer of known size, 1 to 2^31 - 1 rows of 64 elements}}
  %t = uop.tensor_copy %sv, %gv rows 8 cols 64 pitch 64, %mv : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, ?>, !uop.ptr<si64, 1, local>
  uop.sink %t
}

// -----

// The TMA swizzles 16-byte chunks within rows of 32, 64 or 128 bytes.
uop.kernel @swizzle {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" {swizzle = #uop.swizzle<3, 3, 3>} : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 1, local>
  %gv = uop.view %g [#uop.view<shape = [2], strides = [64]>] : !uop.ptr<f16, 4096>
  %sv = uop.view %s [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<f16, 2048, local>
  %mv = uop.view %m [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<si64, 1, local>
  // expected-error @+1 {{copies into a buffer swizzled as #uop.swizzle<3, 3, 3>, not as the TMA swizzles (<1|2|3, 4, 3>)}}
  %t = uop.tensor_copy %sv, %gv rows 8 cols 64 pitch 64, %mv : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 1, local>
  uop.sink %t
}

// -----

// A box's rows under a swizzle are exactly its span.
uop.kernel @span {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" {swizzle = #uop.swizzle<3, 4, 3>} : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 1, local>
  %gv = uop.view %g [#uop.view<shape = [2], strides = [64]>] : !uop.ptr<f16, 4096>
  %sv = uop.view %s [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<f16, 2048, local>
  %mv = uop.view %m [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<si64, 1, local>
  // expected-error @+1 {{cannot be copied by the TMA: tensor map box of 64 bytes in its innermost dimension: a 128-byte swizzle takes rows of exactly 128 bytes}}
  %t = uop.tensor_copy %sv, %gv rows 8 cols 32 pitch 64, %mv : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 1, local>
  uop.sink %t
}

// -----

uop.kernel @masked_wait {
  %m = uop.define_local "bars" : !uop.ptr<si64, 1, local>
  %mv = uop.view %m [#uop.view<shape = [2], strides = [0], mask = [[0, 1]]>] : !uop.ptr<si64, 1, local>
  %pv = uop.view [#uop.view<shape = [2], strides = [1]>] : !uop.void
  // expected-error @+1 {{takes its mbarrier through a masked view}}
  %w = uop.mbarrier_wait %mv, %pv : !uop.ptr<si64, 1, local>, !uop.void
  uop.sink %w
}
