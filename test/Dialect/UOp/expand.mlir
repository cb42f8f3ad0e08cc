// uop-expand on upcast axes (tinygrad's expander): a STORE that depends on
// an upcast range becomes one STORE per value of it, with a copy of the
// REDUCE on the way; the code generators run the copies over the same K
// range in one loop, one accumulator each (a register tile).
// RUN: uop-opt %s --uop-expand | FileCheck %s
// RUN: uop-opt %s --uop-expand --convert-uop-to-scf | FileCheck %s --check-prefix=SCF

// CHECK-LABEL: uop.kernel @tile
// CHECK-NOT: upcast
// CHECK: %[[K:.*]] = uop.range %{{.*}} axis 0 reduce
// CHECK: %[[S0:.*]] = uop.reduce add %{{.*}} [%[[K]] : si32] : f32
// CHECK: %[[ST0:.*]] = uop.store %{{.*}}, %[[S0]]
// CHECK: %[[S1:.*]] = uop.reduce add %{{.*}} [%[[K]] : si32] : f32
// CHECK: %[[ST1:.*]] = uop.store %{{.*}}, %[[S1]]
// CHECK: uop.sink %[[ST0]], %[[ST1]]{{$}}

// SCF-LABEL: func.func @tile
// SCF: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)
// SCF-NOT: scf.for
// SCF: llvm.store %[[ACC]]#0
// SCF: llvm.store %[[ACC]]#1
uop.kernel @tile {
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %u = uop.range %c2 axis 1 upcast : si32
  %k = uop.range %c4 axis 0 reduce : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 2>
  %in = uop.define_global 1 : !uop.ptr<f32, 8>
  %row = uop.mul %u, %c4 : si32
  %i = uop.add %row, %k : si32
  %p = uop.index %in[%i] : !uop.ptr<f32, 8>, si32
  %x = uop.load %p : !uop.ptr<f32, 8>
  %s = uop.reduce add %x [%k : si32] : f32
  %q = uop.index %out[%u] : !uop.ptr<f32, 2>, si32
  %st = uop.store %q, %s : !uop.ptr<f32, 2>
  uop.sink %st
}
