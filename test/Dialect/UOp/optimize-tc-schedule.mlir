// uop-optimize's tc-schedule: which tensor-core schedule the heuristic
// uses. A here is one element off 16-byte alignment, so its tiles cannot be
// copied with cp.async: `auto` falls back to tinygrad's schedule, `staged`
// is an error saying why, `tinygrad` never stages; an unknown schedule is
// an error. (The aligned kernel of optimize-tc.mlir is staged by `auto`.)
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize | FileCheck %s --check-prefix=AUTO
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize=tc-schedule=tinygrad | FileCheck %s --check-prefix=AUTO
// RUN: not uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize=tc-schedule=staged 2>&1 | FileCheck %s --check-prefix=STAGED
// RUN: not uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize=tc-schedule=fast 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// On the aligned kernel, `staged` and `auto` stage, `tinygrad` does not.
// RUN: sed 's/, offset = 1//; s/f16, 513/f16, 512/g' %s | uop-opt --uop-attach-target=chip=sm_80 --uop-optimize=tc-schedule=staged | FileCheck %s --check-prefix=ALIGNED

// AUTO: opts = "TC:0:-1,0,1">
// AUTO-NOT: uop.ldmatrix
// STAGED: error: 'uop.kernel' op cannot stage the tensor cores' operands (STAGE:0:3: cannot stage A: its tile's rows are not 16-byte aligned in the buffer)
// UNKNOWN: error: 'uop.kernel' op unknown tensor-core schedule 'fast' (known: auto, tinygrad, staged, wgmma, tma, cluster, splitk)
// ALIGNED: opts = "TC:0:-1,0,1,STAGE:0:4">
// ALIGNED: uop.ldmatrix
uop.kernel @tc {
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
