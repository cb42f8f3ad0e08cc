// Every op verifier rule, each shown failing with its message.
// RUN: uop-opt %s -split-input-file -verify-diagnostics

uop.kernel @k {
  // expected-error @+1 {{result must be a global pointer, got '!uop.ptr<f32, 4, local>'}}
  %0 = uop.define_global 0 : !uop.ptr<f32, 4, local>
  uop.sink
}

// -----

uop.kernel @k {
  // expected-error @+1 {{result must not be a vectorized pointer}}
  %0 = uop.define_global 0 : !uop.ptr<f32, 4, global, vec 2>
  uop.sink
}

// -----

uop.kernel @k {
  // expected-error @+1 {{attribute 'index' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = uop.define_global -1 : !uop.ptr<f32, 4>
  uop.sink
}

// -----

uop.kernel @k {
  // expected-error @+1 {{result must be a local pointer, got '!uop.ptr<f32, 4>'}}
  %0 = uop.define_local "temp0" : !uop.ptr<f32, 4>
  uop.sink
}

// -----

uop.kernel @k {
  // expected-error @+1 {{shared memory needs a known size}}
  %0 = uop.define_local "temp0" : !uop.ptr<f32, ?, local>
  uop.sink
}

// -----

uop.kernel @k {
  %g = uop.define_global 0 : !uop.ptr<f32, 4>
  // expected-error @+1 {{maps a define_local's buffer}}
  %0 = uop.cluster_map %g blocks 2 : !uop.ptr<f32, 4> -> !uop.ptr<f32, 8, cluster>
  uop.sink
}

// -----

uop.kernel @k {
  %l = uop.define_local "t" {swizzle = #uop.swizzle<1, 4, 3>} : !uop.ptr<f32, 64, local>
  // expected-error @+1 {{cannot map a swizzled buffer}}
  %0 = uop.cluster_map %l blocks 2 : !uop.ptr<f32, 64, local> -> !uop.ptr<f32, 128, cluster>
  uop.sink
}

// -----

uop.kernel @k {
  %l = uop.define_local "t" : !uop.ptr<f32, 4, local>
  // expected-error @+1 {{blocks must be 1 to 16, not 32}}
  %0 = uop.cluster_map %l blocks 32 : !uop.ptr<f32, 4, local> -> !uop.ptr<f32, 128, cluster>
  uop.sink
}

// -----

uop.kernel @k {
  %l = uop.define_local "t" : !uop.ptr<f32, 4, local>
  // expected-error @+1 {{result must be a cluster pointer to 2 x 4 elements of 'f32', got '!uop.ptr<f32, 4, cluster>'}}
  %0 = uop.cluster_map %l blocks 2 : !uop.ptr<f32, 4, local> -> !uop.ptr<f32, 4, cluster>
  uop.sink
}

// -----

uop.kernel @k {
  %l = uop.define_local "t" : !uop.ptr<f32, 4, local>
  %r = uop.const 1 : si32
  // expected-error @+1 {{result must be a cluster pointer to 4 elements of 'f32', got '!uop.ptr<f32, 8, local>'}}
  %0 = uop.cluster_map %l rank %r blocks 2 : !uop.ptr<f32, 4, local>, si32 -> !uop.ptr<f32, 8, local>
  uop.sink
}

// -----

uop.kernel @k attributes {uop.kernel_info = #uop.kernel_info<global_dims = 1, local_dims = 0, upcasted = 0, dont_use_locals = false, opts = "", cluster = [4]>} {
  %l = uop.define_local "t" : !uop.ptr<f32, 4, local>
  // expected-error @+1 {{maps 2 blocks, but the kernel's clusters have 4}}
  %0 = uop.cluster_map %l blocks 2 : !uop.ptr<f32, 4, local> -> !uop.ptr<f32, 8, cluster>
  uop.sink
}

// -----

func.func @f(%init: f32, %notrange: si32) {
  // expected-error @+1 {{range operand #0 must be produced by uop.range}}
  %0 = uop.define_reg %init [%notrange : si32] id 0 : f32
  return
}

// -----

func.func @f(%init: f32) {
  // expected-error @+1 {{failed to verify that all of {init, result} have same type}}
  %0 = "uop.define_reg"(%init) <{id = 0 : i64}> : (f32) -> f16
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{min 10 is greater than max 1}}
  %0 = uop.define_var "n" [10, 1] : si32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{needs a name}}
  %0 = uop.define_var "" [1, 10] : si32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{min -5 is greater than max -10}}
  %0 = uop.define_var "n" [-5, -10] : si32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{bounds [0, 300] do not fit 'si8'}}
  %0 = uop.define_var "n" [0, 300] : si8
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{bounds [-1, 3] do not fit 'ui32'}}
  %0 = uop.define_var "n" [-1, 3] : ui32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{name must be gidx0..2, lidx0..2 or idx0..2, got 'gidx3'}}
  %0 = uop.special "gidx3" 4 : si32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{attribute 'size' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0 = uop.special "lidx0" 0 : si32
  return
}

// -----

func.func @f(%end: si32) {
  // expected-error @+1 {{failed to verify that all of {end, result} have same type}}
  %0 = "uop.range"(%end) <{axis = 0 : i64, kind = 2 : i32}> : (si32) -> si64
  return
}

// -----

func.func @f(%end: f32) {
  // expected-error @+1 {{operand #0 must be integer}}
  %0 = uop.range %end axis 0 loop : f32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{without a source must have type !uop.void, got '!uop.ptr<f32, 4>'}}
  %0 = uop.view [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 4>) {
  // expected-error @+1 {{of a pointer must have the pointer's type '!uop.ptr<f32, 4>', got '!uop.ptr<f32, 8>'}}
  %0 = uop.view %p [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4> -> !uop.ptr<f32, 8>
  return
}

// -----

func.func @f(%t: tensor<16xf32>) {
  // expected-error @+1 {{result shape must be the view's shape}}
  %0 = uop.view %t [#uop.view<shape = [4, 4], strides = [4, 1]>] : tensor<16xf32> -> tensor<2x8xf32>
  return
}

// -----

func.func @f(%t: tensor<16xf32>) {
  // expected-error @+1 {{of a tensor must be a tensor of 'f32'}}
  %0 = uop.view %t [#uop.view<shape = [4, 4], strides = [4, 1]>] : tensor<16xf32> -> tensor<4x4xf16>
  return
}

// -----

func.func @f(%v: !uop.void) {
  // expected-error @+1 {{operand must be a uop.view}}
  %0 = uop.valid %v
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{cannot reshape 16 elements into 15}}
  %0 = uop.reshape %t : tensor<4x4xf32> -> tensor<3x5xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{must keep the element type}}
  %0 = uop.reshape %t : tensor<4x4xf32> -> tensor<16xf16>
  return
}

// -----

func.func @f(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of 0..1}}
  %0 = uop.permute %t [0, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{order has 1 axes for rank 2}}
  %0 = uop.permute %t [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{result must be 'tensor<8x4xf32>'}}
  %0 = uop.permute %t [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{can only expand size-1 axes, axis 0 has size 2}}
  %0 = uop.expand %t : tensor<2x4xf32> -> tensor<6x4xf32>
  return
}

// -----

func.func @f(%t: tensor<1x4xf32>) {
  // expected-error @+1 {{must keep the rank and element type}}
  %0 = uop.expand %t : tensor<1x4xf32> -> tensor<2x1x4xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{padding must be non-negative}}
  %0 = uop.pad %t low [0, -1] high [0, 0] : tensor<4x4xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{result must be 'tensor<5x6xf32>'}}
  %0 = uop.pad %t low [1, 2] high [0, 0] : tensor<4x4xf32> -> tensor<5x5xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{needs a low and a high padding per axis}}
  %0 = uop.pad %t low [1] high [0] : tensor<4x4xf32> -> tensor<5x4xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{axis 1: [2, 5) is not within [0, 4]}}
  %0 = uop.shrink %t begin [0, 2] end [4, 5] : tensor<4x4xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{result must be 'tensor<4x2xf32>'}}
  %0 = uop.shrink %t begin [0, 2] end [4, 4] : tensor<4x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{needs one flag per axis}}
  %0 = uop.flip %t [true] : tensor<4x4xf32>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16, global, vec 2>, %i: vector<4xsi32>) {
  // expected-error @+1 {{'uop.index' pointer has 2 lanes but the index has 4}}
  %0 = uop.index %p[%i] : !uop.ptr<f32, 16, global, vec 2>, vector<4xsi32>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>, %i: vector<4xsi32>, %g: vector<2xi1>) {
  // expected-error @+1 {{gate has 2 lanes but the pointer has 4}}
  %0 = uop.index %p[%i] gate %g : vector<2xi1> : !uop.ptr<f32, 16>, vector<4xsi32>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>, %i: f32) {
  // expected-error @+1 {{operand #1 must be integer or vector of integers}}
  %0 = uop.index %p[%i] : !uop.ptr<f32, 16>, f32
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>, %alt: f16) {
  // expected-error @+1 {{alt value must have the loaded type 'f32', got 'f16'}}
  %0 = uop.load %p alt %alt : f16 : !uop.ptr<f32, 16>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>) {
  // expected-error @+1 {{failed to verify that result is the value type of the pointer}}
  %0 = "uop.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!uop.ptr<f32, 16>) -> f16
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>, %x: f16) {
  // expected-error @+1 {{failed to verify that value is the value type of the pointer}}
  %0 = "uop.store"(%p, %x) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!uop.ptr<f32, 16>, f16) -> !uop.void
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>, %x: f32, %c: i1) {
  %if = uop.if %c
  // expected-error @+1 {{takes a bool gate or an IF, not both}}
  %0 = uop.store %p, %x gate %c : i1 under %if : !uop.ptr<f32, 16>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>, %x: f32, %v: !uop.void) {
  // expected-error @+1 {{'under' operand must be a uop.if}}
  %0 = uop.store %p, %x under %v : !uop.ptr<f32, 16>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>, %x: f16) {
  // expected-error @+1 {{value type 'f16' does not match what '!uop.ptr<f32, 16>' points at}}
  %0 = uop.assign %p, %x : !uop.ptr<f32, 16>, f16
  return
}

// -----

func.func @f(%t: f32, %x: f16) {
  // expected-error @+1 {{target type 'f32' does not match value type 'f16'}}
  %0 = uop.assign %t, %x : f32, f16
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{a buffer is flat: its type must be 1-D, got 'tensor<4x4xf32>'}}
  %0 = uop.buffer "CPU" unique 0 : tensor<4x4xf32>
  return
}

// -----

func.func @f(%x: si32, %n: si64) {
  // expected-error @+1 {{shift amount must be 'si32' or 'ui32', got 'si64'}}
  %0 = uop.shl %x, %n : si32, si64
  return
}

// -----

func.func @f(%x: si32) {
  // expected-error @+1 {{operand #0 must be float, or vector or tensor of floats}}
  %0 = uop.exp2 %x : si32
  return
}

// -----

func.func @f(%x: si32) {
  // expected-error @+1 {{operand #0 must be float, or vector or tensor of floats}}
  %0 = uop.fdiv %x, %x : si32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{operand #0 must be integer, or vector or tensor of integers}}
  %0 = uop.idiv %x, %x : f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{operand #0 must be integer, or vector or tensor of integers}}
  %0 = uop.mod %x, %x : f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{operand #0 must be integer or bool, or vector or tensor of them}}
  %0 = uop.xor %x, %x : f32
  return
}

// -----

func.func @f(%x: f32, %y: f16) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "uop.add"(%x, %y) : (f32, f16) -> f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{result #0 must be bool, vector of bool or tensor of bool, but got 'f32'}}
  %0 = "uop.cmplt"(%x, %x) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{failed to verify that result is bool of the operands' shape}}
  %0 = "uop.cmplt"(%x, %x) : (f32, f32) -> vector<4xi1>
  return
}

// -----

func.func @f(%x: f32, %y: f16) {
  // expected-error @+1 {{requires all operands to have the same type}}
  %0 = "uop.cmpne"(%x, %y) : (f32, f16) -> i1
  return
}

// -----

func.func @f(%c: f32, %x: f32) {
  // expected-error @+1 {{operand #0 must be bool, vector of bool or tensor of bool, but got 'f32'}}
  %0 = "uop.where"(%c, %x, %x) : (f32, f32, f32) -> f32
  return
}

// -----

func.func @f(%c: i1, %x: vector<4xf32>) {
  // A vector WHERE needs a vector of bools.
  // expected-error @+1 {{failed to verify that condition is bool of the result's shape}}
  %0 = "uop.where"(%c, %x, %x) : (i1, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>) {
  // expected-error @+1 {{cannot cast between a pointer and a value}}
  %0 = uop.cast %p : !uop.ptr<f32, 16> -> si64
  return
}

// -----

func.func @f(%p: !uop.ptr<f32, 16>) {
  // expected-error @+1 {{pointer casts must keep the address space}}
  %0 = uop.cast %p : !uop.ptr<f32, 16> -> !uop.ptr<f32, 16, local>
  return
}

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error @+1 {{must keep the shape: 'vector<4xf32>' -> 'f16'}}
  %0 = uop.cast %v : vector<4xf32> -> f16
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{must keep the size in bits: 32 vs 16}}
  %0 = uop.bitcast %x : f32 -> f16
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{cannot bitcast between a tensor and a non-tensor}}
  %0 = uop.bitcast %x : tensor<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{tensor bitcast must keep all but the last axis and the size in bits}}
  %0 = uop.bitcast %x : tensor<4x4xf32> -> tensor<8x4xf16>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{of a vector or tensor must be a splat dense<...> (a vector of different values is uop.vconst)}}
  %0 = uop.const dense<[1.0, 2.0]> : vector<2xf32>
  return
}

// -----

func.func @f(%v: !uop.void) {
  // expected-error @+1 {{view operand must be a source-less uop.view}}
  %0 = uop.shaped_const %v, 1.0 : f32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %0 = "uop.const"() <{value = 1.0 : f32}> : () -> f16
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{values must be a dense<[...]> vector literal}}
  %0 = "uop.vconst"() <{values = dense_resource<blob> : vector<2xf32>}> : () -> vector<2xf32>
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{axis 1 appears twice}}
  %0 = uop.reduce_axis add %x [1, 1] : f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{axis -1 is negative}}
  %0 = uop.reduce_axis add %x [-1] : f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{needs at least one axis}}
  %0 = uop.reduce_axis max %x [] : f32
  return
}

// -----

func.func @f(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = uop.reduce_axis add %x [2] : tensor<4x4xf32>
  return
}

// -----

func.func @f(%x: f32, %r: si32) {
  // expected-error @+1 {{range operand #0 must be produced by uop.range}}
  %0 = uop.reduce add %x [%r : si32] : f32
  return
}

// -----

func.func @f(%x: vector<2xf32>) {
  // expected-error @+1 {{source must have the result's type, or be a vector of it (a horizontal reduction); got 'vector<2xf32>' for a result of 'f16'}}
  %0 = uop.reduce add %x [] : vector<2xf32> -> f16
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{source must have the result's type, or be a vector of it (a horizontal reduction); got 'f32' for a result of 'vector<2xf32>'}}
  %0 = uop.reduce add %x [] : f32 -> vector<2xf32>
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{needs at least two sources}}
  %0 = uop.vectorize %x : f32
  return
}

// -----

func.func @f(%x: f32, %y: f16) {
  // expected-error @+1 {{sources must all have type 'f32'}}
  %0 = "uop.vectorize"(%x, %y) : (f32, f16) -> vector<2xf32>
  return
}

// -----

func.func @f(%x: vector<2xf32>) {
  // expected-error @+1 {{vectorize takes scalars or scalar pointers, got 'vector<2xf32>'}}
  %0 = uop.vectorize %x, %x : vector<2xf32>
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{result must be 'vector<2xf32>'}}
  %0 = "uop.vectorize"(%x, %x) : (f32, f32) -> vector<3xf32>
  return
}

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error @+1 {{'uop.gep' lane 4 is out of range for 4 lanes}}
  %0 = uop.gep %v [4] : vector<4xf32>
  return
}

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error @+1 {{needs at least one lane}}
  %0 = uop.gep %v [] : vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<2xf32>, %b: vector<2xf16>) {
  // expected-error @+1 {{sources must all be of 'f32'}}
  %0 = uop.cat %a, %b : vector<2xf32>, vector<2xf16>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{needs at least one source}}
  %0 = "uop.cat"() : () -> vector<2xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{needs at least one source}}
  %0 = "uop.ptrcat"() : () -> !uop.ptr<f32, 4>
  return
}

// -----

func.func @f(%a: !uop.ptr<f32, 16>, %b: !uop.ptr<f32, 8>) {
  // expected-error @+1 {{sources must all point like '!uop.ptr<f32, 16>'}}
  %0 = uop.ptrcat %a, %b : !uop.ptr<f32, 16>, !uop.ptr<f32, 8>
  return
}

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error @+1 {{source has 4 lanes but the axes multiply to 8}}
  %0 = uop.unroll %v axes <(2, 4), (3, 2)> : vector<4xf32>
  return
}

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error @+1 {{source must be a scalar}}
  %0 = uop.contract %v axes <(2, 4)> : vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{no tensor core computes dims (16, 16, 16) from 'f16' into 'f32'}}
  %0 = uop.wmma %a, %b, %c dims [16, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf32>, %b: vector<4xf32>, %c: vector<4xf32>) {
  // tf32 exists only as m16n8k8.
  // expected-error @+1 {{no tensor core computes dims (8, 16, 16) from 'f32' into 'f32'}}
  %0 = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf32>, vector<4xf32>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf16>, %b: vector<4xbf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{A and B must have one element type}}
  %0 = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xbf16>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{this tensor core is built by 32 threads, not 16}}
  %0 = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 16
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<4xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{A must hold 8 elements per thread, got 'vector<4xf16>'}}
  %0 = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{upcast axes of B multiply to 8, not 4}}
  %0 = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{needs upcast axes for A, B and C}}
  %0 = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{needs log2(K) = 4 reduce axes, got 3}}
  %0 = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{dims must be (N, M, K)}}
  %0 = uop.wmma %a, %b, %c dims [8, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @f(%v: !uop.void) {
  // expected-error @+1 {{operand must be a uop.if}}
  %0 = uop.endif %v
  return
}

// -----

func.func @f(%r: si32) {
  // expected-error @+1 {{operand must be a uop.range}}
  %0 = uop.endrange %r : si32
  return
}

// -----

func.func @f(%s: !uop.void) {
  // expected-error @+1 {{expects parent op 'uop.kernel'}}
  uop.sink %s
}

// -----

func.func @f(%x: si32) {
  // expected-error @+1 {{takes ui64 values (tinygrad's THREEFRY), not 'si32'}}
  %0 = uop.threefry %x, %x : si32
  return
}

// -----

func.func @f() {
  %g = uop.define_global 0 : !uop.ptr<f32, 16>
  // expected-error @+1 {{'uop.view' op reaches element -1 of a buffer of 16 elements}}
  %v = uop.view %g [#uop.view<shape = [4, 4], strides = [4, 1], offset = -1>] : !uop.ptr<f32, 16>
  return
}

// -----

// A symbolic view names a variable its kernel does not define.
uop.kernel @unknown_variable {
  %0 = uop.define_global 0 : !uop.ptr<f32, 16>
  // expected-error @+1 {{uses variable 'n', which is no uop.define_var of its kernel}}
  %1 = uop.view %0 [#uop.view<shape = [16], strides = [1], sym = [shape[0] = n]>] : !uop.ptr<f32, 16>
  %2 = uop.load %1 : !uop.ptr<f32, 16>
  %3 = uop.store %1, %2 : !uop.ptr<f32, 16>
  uop.sink %3
}

// -----

// A symbolic entry whose upper bound leaves int64.
uop.kernel @bound_overflows {
  %n = uop.define_var "n" [1, 8] : si32
  %0 = uop.define_global 0 : !uop.ptr<f32, 16>
  // expected-error @+1 {{symbolic entry #uop.sym_entry<1 = 4611686018427387904 * n> overflows int64}}
  %1 = uop.view %0 [#uop.view<shape = [16], strides = [1], sym = [strides[0] = 4611686018427387904 * n]>] : !uop.ptr<f32, 16>
  %2 = uop.load %1 : !uop.ptr<f32, 16>
  %3 = uop.store %1, %2 : !uop.ptr<f32, 16>
  uop.sink %3
}

// -----

// Its lower bound must fit too (n = 8 here): every value it takes is
// computed in int64.
uop.kernel @lower_bound_overflows {
  %n = uop.define_var "n" [1, 8] : si32
  %0 = uop.define_global 0 : !uop.ptr<f32, 16>
  // expected-error @+1 {{symbolic entry #uop.sym_entry<2 = -4611686018427387904 * n> overflows int64}}
  %1 = uop.view %0 [#uop.view<shape = [16], strides = [1], offset = -4611686018427387904, sym = [offset = -4611686018427387904 * n]>] : !uop.ptr<f32, 16>
  %2 = uop.load %1 : !uop.ptr<f32, 16>
  %3 = uop.store %1, %2 : !uop.ptr<f32, 16>
  uop.sink %3
}

// -----

// A symbolic entry's integer is its upper bound (here n's maximum, 8).
uop.kernel @not_the_bound {
  %n = uop.define_var "n" [1, 8] : si32
  %0 = uop.define_global 0 : !uop.ptr<f32, 16>
  // expected-error @+1 {{symbolic entry #uop.sym_entry<0 = n> holds 16, not its upper bound 8}}
  %1 = uop.view %0 [#uop.view<shape = [16], strides = [1], sym = [shape[0] = n]>] : !uop.ptr<f32, 16>
  %2 = uop.load %1 : !uop.ptr<f32, 16>
  %3 = uop.store %1, %2 : !uop.ptr<f32, 16>
  uop.sink %3
}

// -----

// In bounds for every value of the variables: here the offset 2 * n + 8
// reaches element 39 of 32 at n = 12.
uop.kernel @out_of_bounds_at_a_corner {
  %n = uop.define_var "n" [0, 12] : si32
  %0 = uop.define_global 0 : !uop.ptr<f32, 32>
  // expected-error @+1 {{reaches element 39 of a buffer of 32 elements}}
  %1 = uop.view %0 [#uop.view<shape = [8], strides = [1], offset = 32, sym = [offset = 2 * n + 8]>] : !uop.ptr<f32, 32>
  %2 = uop.load %1 : !uop.ptr<f32, 32>
  %3 = uop.store %1, %2 : !uop.ptr<f32, 32>
  uop.sink %3
}
