// RUN: uop-opt %s --split-input-file --uop-gpu-dims --verify-diagnostics

// expected-error @below {{no GPU target: the module needs a `uop.target` attribute (run uop-attach-target)}}
uop.kernel @no_target {
  %c4 = uop.const 4 : si32
  %r = uop.range %c4 axis 0 global : si32
  %o = uop.define_global 0 : !uop.ptr<si32, 4>
  %p = uop.index %o[%r] : !uop.ptr<si32, 4>, si32
  %s = uop.store %p, %r : !uop.ptr<si32, 4>
  uop.sink %s
}

// -----

// With global_max [8, 8, 8], four dimensions of 4: merging any two gives 16.
module attributes {uop.target = #uop.target<"sm_80", global_max = [8, 8, 8]>} {
  // expected-error @below {{cannot fit 4 gidx dimensions [4, 4, 4, 4] into the target's limits [8, 8, 8]}}
  uop.kernel @cannot_group {
    %c4 = uop.const 4 : si32
    %r0 = uop.range %c4 axis 0 global : si32
    %r1 = uop.range %c4 axis 1 global : si32
    %r2 = uop.range %c4 axis 2 global : si32
    %r3 = uop.range %c4 axis 3 global : si32
    %a = uop.add %r0, %r1 : si32
    %b = uop.add %r2, %r3 : si32
    %i = uop.add %a, %b : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 16>
    %p = uop.index %o[%i] : !uop.ptr<si32, 16>, si32
    %s = uop.store %p, %i : !uop.ptr<si32, 16>
    uop.sink %s
  }
}

// -----

// A prime block size over local_max cannot be split.
module attributes {uop.target = #uop.target<"sm_80">} {
  // expected-error @below {{cannot split lidx dimensions [1031] to fit the target's limits [1024, 1024, 64]}}
  uop.kernel @prime_local {
    %c = uop.const 1031 : si32
    %r = uop.range %c axis 0 local : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 1031>
    %p = uop.index %o[%r] : !uop.ptr<si32, 1031>, si32
    %s = uop.store %p, %r : !uop.ptr<si32, 1031>
    uop.sink %s
  }
}

// -----

// A symbolic dimension is never split: its bound must fit.
module attributes {uop.target = #uop.target<"sm_80", global_max = [8, 8, 8]>} {
  // expected-error @below {{cannot fit symbolic gidx dimensions [15] into the target's limits [8, 8, 8]}}
  uop.kernel @symbolic_too_big {
    %n = uop.define_var "n" [1, 15] : si32
    %r = uop.range %n axis 0 global : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 15>
    %p = uop.index %o[%r] : !uop.ptr<si32, 15>, si32
    %s = uop.store %p, %r : !uop.ptr<si32, 15>
    uop.sink %s
  }
}

// -----

// A size read from memory is not known at launch.
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @size_from_memory {
    %c0 = uop.const 0 : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 16>
    %q = uop.index %o[%c0] : !uop.ptr<si32, 16>, si32
    %n = uop.load %q : !uop.ptr<si32, 16>
    // expected-error @below {{'uop.range' op has a size that is neither a constant nor computed from the kernel's variables (uop.define_var) alone}}
    %r = uop.range %n axis 0 global : si32
    %p = uop.index %o[%r] : !uop.ptr<si32, 16>, si32
    %s = uop.store %p, %r : !uop.ptr<si32, 16>
    uop.sink %s
  }
}

// -----

// In clusters (CLUSTER): each global dimension must be whole clusters, a
// grid dimension of its own (here 64 blocks along y exceeds global_max's 8:
// it would be split), and a cluster at most 8 blocks.
module attributes {uop.target = #uop.target<"sm_90a", global_max = [8, 8, 8]>} {
  // expected-error @below {{is launched in clusters of [4, 2] blocks along its global dimensions [6, 4]: a dimension is not whole clusters}}
  uop.kernel @partial attributes {uop.kernel_info = #uop.kernel_info<global_dims = 2, local_dims = 0, upcasted = 0, dont_use_locals = false, opts = "", cluster = [4, 2]>} {
    %c6 = uop.const 6 : si32
    %c4 = uop.const 4 : si32
    %r0 = uop.range %c6 axis 0 global : si32
    %r1 = uop.range %c4 axis 1 global : si32
    %i = uop.add %r0, %r1 : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 16>
    %p = uop.index %o[%i] : !uop.ptr<si32, 16>, si32
    %s = uop.store %p, %i : !uop.ptr<si32, 16>
    uop.sink %s
  }
  // expected-error @below {{is launched in clusters of [2, 2] blocks along its global dimensions [64, 4]: a dimension exceeds the target's limit of 8}}
  uop.kernel @split attributes {uop.kernel_info = #uop.kernel_info<global_dims = 2, local_dims = 0, upcasted = 0, dont_use_locals = false, opts = "", cluster = [2, 2]>} {
    %c64 = uop.const 64 : si32
    %c4 = uop.const 4 : si32
    %r0 = uop.range %c64 axis 0 global : si32
    %r1 = uop.range %c4 axis 1 global : si32
    %i = uop.add %r0, %r1 : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 128>
    %p = uop.index %o[%i] : !uop.ptr<si32, 128>, si32
    %s = uop.store %p, %i : !uop.ptr<si32, 128>
    uop.sink %s
  }
  // expected-error @below {{is launched in clusters of [4, 4] blocks along its global dimensions [8, 8]: a cluster holds at most 8 blocks}}
  uop.kernel @sixteen attributes {uop.kernel_info = #uop.kernel_info<global_dims = 2, local_dims = 0, upcasted = 0, dont_use_locals = false, opts = "", cluster = [4, 4]>} {
    %c8 = uop.const 8 : si32
    %r0 = uop.range %c8 axis 0 global : si32
    %r1 = uop.range %c8 axis 1 global : si32
    %i = uop.add %r0, %r1 : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 16>
    %p = uop.index %o[%i] : !uop.ptr<si32, 16>, si32
    %s = uop.store %p, %i : !uop.ptr<si32, 16>
    uop.sink %s
  }
}
