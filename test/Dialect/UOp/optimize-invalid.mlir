// Opts that cannot apply are errors naming the opt, the shape (g global,
// l local, G grouped, r reduce, u/U upcast/unroll) and tinygrad's reason.
// RUN: uop-opt %s --split-input-file --uop-attach-target=chip=sm_80 --uop-optimize --verify-diagnostics

// expected-error @+1 {{cannot apply opt LOCAL:5:4 (1 of 1) to the shape (g8 r32) for sm_80: invalid axis 5 (the shape has 2 axes)}}
uop.kernel @axis attributes {uop.opts = "LOCAL:5:4"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 256>
  %in_v = uop.view %in [#uop.view<shape = [8, 32], strides = [32, 1]>] : !uop.ptr<f32, 256>
  %x = uop.load %in_v : !uop.ptr<f32, 256>
  %sum = uop.reduce_axis add %x [1] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// expected-error @+1 {{cannot apply opt UPCAST:0:3 (2 of 2) to the shape (g2 l4 r32) for sm_80: no longer valid shift: axis 0 has size 2, 3 does not divide it}}
uop.kernel @divide attributes {uop.opts = "LOCAL:0:4,UPCAST:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 256>
  %in_v = uop.view %in [#uop.view<shape = [8, 32], strides = [32, 1]>] : !uop.ptr<f32, 256>
  %x = uop.load %in_v : !uop.ptr<f32, 256>
  %sum = uop.reduce_axis add %x [1] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// expected-error @+1 {{cannot apply opt UNROLL:0:64 (1 of 1) to the shape (g8 r64) for sm_80: don't unroll more than 32}}
uop.kernel @limit attributes {uop.opts = "UNROLL:0:64"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 512>
  %in_v = uop.view %in [#uop.view<shape = [8, 64], strides = [64, 1]>] : !uop.ptr<f32, 512>
  %x = uop.load %in_v : !uop.ptr<f32, 512>
  %sum = uop.reduce_axis add %x [1] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// expected-error @+1 {{cannot apply opt GROUP:0:16384 (1 of 1) to the shape (g8 r16384) for sm_80: exceeds maximum shared memory size: needs 65536, max 49152}}
uop.kernel @smem attributes {uop.opts = "GROUP:0:16384"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 131072>
  %in_v = uop.view %in [#uop.view<shape = [8, 16384], strides = [16384, 1]>] : !uop.ptr<f32, 131072>
  %x = uop.load %in_v : !uop.ptr<f32, 131072>
  %sum = uop.reduce_axis add %x [1] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// expected-error @+1 {{has invalid opts: 'UPCAST:x:4': the axis must be a non-negative integer}}
uop.kernel @syntax attributes {uop.opts = "UPCAST:x:4"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f32, 8>
  %c = uop.const 1.0 : f32
  %st = uop.store %out_v, %c : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// expected-error @+1 {{has invalid opts: 'SPLIT:0:4': unknown opt (known: TC, UPCAST, UNROLL, LOCAL, GROUP, GROUPTOP, NOLOCALS, PADTO, SWAP, STAGE, WGMMA, TMA, CLUSTER, SPLITK)}}
uop.kernel @unknown attributes {uop.opts = "SPLIT:0:4"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f32, 8>
  %c = uop.const 1.0 : f32
  %st = uop.store %out_v, %c : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// The TC opt must come first, as in tinygrad.
// expected-error @+1 {{cannot apply opt TC:0:-1,0,1 (2 of 2) to the shape (g16 g4 r32 u2) for sm_80: tensor core opts must be first}}
uop.kernel @tc_not_first attributes {uop.opts = "UPCAST:1:2,TC:0:-1,0,1"} {
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

// -----

// f32 inputs: no tensor core of sm_80's (tf32 is not among its defaults).
// expected-error @+1 {{cannot apply opt TC:0:-1,0,1 (1 of 1) to the shape (g16 g8 r32) for sm_80: no tensor core available}}
uop.kernel @tc_f32 attributes {uop.opts = "TC:0:-1,0,1"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f32, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f32, 512>
  %b = uop.define_global 2 : !uop.ptr<f32, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f32, 256>
  %x = uop.load %a_v : !uop.ptr<f32, 512>
  %y = uop.load %b_v : !uop.ptr<f32, 256>
  %m = uop.mul %x, %y : f32
  %f = uop.add %m, %m : f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}

// -----

// expected-error @+1 {{cannot apply opt GROUP:0:2 (2 of 2) to the shape (l2 l2 l2 l2 l2 r2 U2 U2 U2 U2 u2 u2) for sm_80: can't group with tensor cores}}
uop.kernel @tc_group attributes {uop.opts = "TC:0:-1,0,1,GROUP:0:2"} {
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

// -----

// tc_select 4: sm_80 has four tensor cores (tinygrad's PTX renderer's).
// expected-error @+1 {{cannot apply opt TC:0:4,0,1 (1 of 1) to the shape (g16 g8 r32) for sm_80: tensor core opts must have valid tc_select}}
uop.kernel @tc_select attributes {uop.opts = "TC:0:4,0,1"} {
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

// -----

// Symbolic shapes: tinygrad splits no symbolic axis (`n % 4 == 0` is not
// True for a Variable), takes no symbolic amount, and pads none.
// expected-error @+1 {{cannot apply opt UPCAST:1:4 (1 of 1) to the shape (g4 g(n)) for sm_80: no longer valid shift: axis 1 is symbolic}}
uop.kernel @symbolic_axis attributes {uop.opts = "UPCAST:1:4"} {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 64>
  %in = uop.define_global 1 : !uop.ptr<f32, 64>
  %vo = uop.view %out [#uop.view<shape = [4, 16], strides = [1, 4], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %vi = uop.view %in [#uop.view<shape = [4, 16], strides = [16, 1], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %x = uop.load %vi : !uop.ptr<f32, 64>
  %st = uop.store %vo, %x : !uop.ptr<f32, 64>
  uop.sink %st
}

// -----

// expected-error @+1 {{cannot apply opt UPCAST:1:0 (1 of 1) to the shape (g4 g(n)) for sm_80: shift/padto of a symbolic amount is meaningless (axis 1 is symbolic)}}
uop.kernel @symbolic_amount attributes {uop.opts = "UPCAST:1:0"} {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 64>
  %in = uop.define_global 1 : !uop.ptr<f32, 64>
  %vo = uop.view %out [#uop.view<shape = [4, 16], strides = [1, 4], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %vi = uop.view %in [#uop.view<shape = [4, 16], strides = [16, 1], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %x = uop.load %vi : !uop.ptr<f32, 64>
  %st = uop.store %vo, %x : !uop.ptr<f32, 64>
  uop.sink %st
}

// -----

// expected-error @+1 {{cannot apply opt PADTO:0:8 (1 of 1) to the shape (g4 g(n)) for sm_80: does not work with symbolic shape}}
uop.kernel @symbolic_pad attributes {uop.opts = "PADTO:0:8"} {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 64>
  %in = uop.define_global 1 : !uop.ptr<f32, 64>
  %vo = uop.view %out [#uop.view<shape = [4, 16], strides = [1, 4], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %vi = uop.view %in [#uop.view<shape = [4, 16], strides = [16, 1], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %x = uop.load %vi : !uop.ptr<f32, 64>
  %st = uop.store %vo, %x : !uop.ptr<f32, 64>
  uop.sink %st
}

// -----

// The WMMA writer takes integer views only (tinygrad would use tensor cores
// where their axes are not symbolic).
// expected-error @+1 {{cannot apply opt TC:0:-1,0,1 (1 of 1) to the shape (g(n) g16 r16) for sm_80: tensor cores on a kernel with symbolic shapes are not supported}}
uop.kernel @symbolic_tc attributes {uop.opts = "TC:0:-1,0,1"} {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 256>
  %a = uop.define_global 1 : !uop.ptr<f16, 256>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %vo = uop.view %out [#uop.view<shape = [16, 16, 1], strides = [16, 1, 0], sym = [shape[0] = n]>] : !uop.ptr<f32, 256>
  %va = uop.view %a [#uop.view<shape = [16, 16, 16], strides = [16, 0, 1], sym = [shape[0] = n]>] : !uop.ptr<f16, 256>
  %vb = uop.view %b [#uop.view<shape = [16, 16, 16], strides = [0, 1, 16], sym = [shape[0] = n]>] : !uop.ptr<f16, 256>
  %xa = uop.load %va : !uop.ptr<f16, 256>
  %xb = uop.load %vb : !uop.ptr<f16, 256>
  %ca = uop.cast %xa : f16 -> f32
  %cb = uop.cast %xb : f16 -> f32
  %m = uop.mul %ca, %cb : f32
  %s = uop.reduce_axis add %m [2] : f32
  %st = uop.store %vo, %s : !uop.ptr<f32, 256>
  uop.sink %st
}
