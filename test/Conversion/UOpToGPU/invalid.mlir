// RUN: uop-opt %s --split-input-file --convert-uop-to-gpu --verify-diagnostics

// expected-error @below {{no GPU target: the module needs a `uop.target` attribute (run uop-attach-target)}}
module {
  uop.kernel @no_target {
    uop.sink
  }
}

// -----

module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @unmapped {
    %c4 = uop.const 4 : si32
    // expected-error @below {{(axis 0, global) is not mapped to a GPU index: run uop-gpu-dims first}}
    %r = uop.range %c4 axis 0 global : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 4>
    %p = uop.index %o[%r] : !uop.ptr<si32, 4>, si32
    %s = uop.store %p, %r : !uop.ptr<si32, 4>
    uop.sink %s
  }
}

// -----

module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @f64_exp2 {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f64, 1>
    %p = uop.index %g[%z] : !uop.ptr<f64, 1>, si32
    %x = uop.load %p : !uop.ptr<f64, 1>
    // expected-error @below {{is not supported by convert-uop-to-gpu: PTX has no f64 EXP2 instruction}}
    %e = uop.exp2 %x : f64
    %s = uop.store %p, %e : !uop.ptr<f64, 1>
    uop.sink %s
  }
}

// -----

module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @pow {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f32, 1>
    %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
    %x = uop.load %p : !uop.ptr<f32, 1>
    // expected-error @below {{POW has no PTX instruction (uop-decompose-math rewrites it, as tinygrad does)}}
    %e = uop.pow %x, %x : f32
    %s = uop.store %p, %e : !uop.ptr<f32, 1>
    uop.sink %s
  }
}

// -----

module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @two_sizes {
    %a = uop.special "gidx0" 4 : si32
    // expected-error @below {{'gidx0' has size 8 here and 4 elsewhere in the kernel}}
    %b = uop.special "gidx0" 8 : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 8>
    %p = uop.index %o[%b] : !uop.ptr<si32, 8>, si32
    %s = uop.store %p, %a : !uop.ptr<si32, 8>
    uop.sink %s
  }
}

// -----

// A WMMA needs the tensor core on the target: sm_75 has only m16n8k8.
module attributes {uop.target = #uop.target<"sm_75">} {
  uop.kernel @no_tensor_core {
    %z = uop.const 0 : si32
    %o = uop.define_global 0 : !uop.ptr<f32, 4>
    %h = uop.define_global 1 : !uop.ptr<f16, 1>
    %ph = uop.index %h[%z] : !uop.ptr<f16, 1>, si32
    %x = uop.load %ph : !uop.ptr<f16, 1>
    %y = uop.const 0.0 : f32
    %a = uop.vectorize %x, %x, %x, %x, %x, %x, %x, %x : f16
    %b = uop.vectorize %x, %x, %x, %x : f16
    %c = uop.vectorize %y, %y, %y, %y : f32
    // expected-error @+1 {{'uop.wmma' op needs the tensor core m16n8k16 'f16' -> 'f32', which sm_75 does not have}}
    %d = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
           upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>,
                   #uop.axes<(9, 2), (10, 2)>] reduce [6, 7, 8, 9]
           : vector<8xf16>, vector<4xf16>, vector<4xf32>
    %d0 = uop.gep %d [0] : vector<4xf32>
    %po = uop.index %o[%z] : !uop.ptr<f32, 4>, si32
    %s = uop.store %po, %d0 : !uop.ptr<f32, 4>
    uop.sink %s
  }
}

// -----

// A launch size must be affine in the variables, as uop.launch records it.
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @square {
    %n = uop.define_var "n" [1, 4] : si32
    %nn = uop.mul %n, %n : si32
    // expected-error @below {{'uop.special' op has a size that is not an affine expression of the kernel's variables (constant + sum of constant * variable)}}
    %g = uop.special "gidx0" size %nn max 16 : si32
    %out = uop.define_global 0 : !uop.ptr<si32, 16>
    %p = uop.index %out[%g] : !uop.ptr<si32, 16>, si32
    %s = uop.store %p, %g : !uop.ptr<si32, 16>
    uop.sink %s
  }
}

// -----

// wgmma is Hopper's (sm_90a): elsewhere its ops are errors.
module attributes {uop.target = #uop.target<"sm_90">} {
  uop.kernel @wgmma_sm90 {
    %out = uop.define_global 0 : !uop.ptr<f32, 128>
    %sa = uop.define_local "ta" : !uop.ptr<f16, 1024, local>
    %l = uop.special "lidx0" 128 : si32
    %z = uop.const 0 : si32
    %a = uop.index %sa[%z] : !uop.ptr<f16, 1024, local>, si32
    %zf = uop.const 0.0 : f32
    %acc = uop.vectorize %zf, %zf, %zf, %zf : f32
    // expected-error @below {{'uop.wgmma' op needs wgmma, which only sm_90a has, not sm_90}}
    %d = uop.wgmma %acc, %a [<k, swizzle = 0, lbo = 128, sbo = 256>], %a [<k, swizzle = 0, lbo = 128, sbo = 256>] : !uop.ptr<f16, 1024, local>, !uop.ptr<f16, 1024, local> -> vector<4xf32>
    %x = uop.gep %d [0] : vector<4xf32>
    %po = uop.index %out[%l] : !uop.ptr<f32, 128>, si32
    %s = uop.store %po, %x : !uop.ptr<f32, 128>
    uop.sink %s
  }
}
