// A 32x8x32 half matmul with TC and one more UPCAST of M (as the heuristic
// adds on bigger kernels): uop-expand puts the two WMMAs of a K step side by
// side, two accumulators in one K loop, and stores each lane of each;
// uop-devectorize stores consecutive lanes in pairs: four vector stores of 2.
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize --uop-lower --uop-expand --canonicalize --cse --uop-devectorize | FileCheck %s --check-prefix=SIDE
// SIDE: %[[K:.*]] = uop.range %{{.*}} axis 5 reduce
// SIDE: %[[W0:.*]] = uop.wmma
// SIDE: uop.reduce add %[[W0]] [%[[K]] : si32] : vector<4xf32>
// SIDE: %[[W1:.*]] = uop.wmma
// SIDE: uop.reduce add %[[W1]] [%[[K]] : si32] : vector<4xf32>
// SIDE-NOT: uop.wmma
// SIDE-COUNT-4: uop.store %{{.*}} : !uop.ptr<vector<2xf32>, 128>
// SIDE: uop.sink %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}{{$}}
// RUN: uop-opt %s --uop-to-ptx="to-binary=false" | FileCheck %s --check-prefix=SIDEGPU
// SIDEGPU: llvm.br ^bb1(%{{.*}}, %{{.*}}, %{{.*}} : i32, vector<4xf32>, vector<4xf32>)
// SIDEGPU-COUNT-2: nvvm.mma.sync
// SIDEGPU-NOT: nvvm.mma.sync

uop.kernel @tc_side attributes {uop.opts = "TC:0:-1,0,1,UPCAST:0:2"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 256>
  %out_v = uop.view %out [#uop.view<shape = [32, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 256>
  %a = uop.define_global 1 : !uop.ptr<f16, 1024>
  %a_v = uop.view %a [#uop.view<shape = [32, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 1024>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [32, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 1024>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 256>
  uop.sink %st
}
