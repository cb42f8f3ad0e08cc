// uop-canonicalize simplifies the region tree as canonicalize does (here:
// drops block arguments nothing uses), unless told not to; the pipelines
// do not on kernels, whose body is one block.
// RUN: uop-opt %s --uop-canonicalize | FileCheck %s --check-prefix=NORMAL
// RUN: uop-opt %s --uop-canonicalize=region-simplify=disabled | FileCheck %s --check-prefix=DISABLED
// RUN: not uop-opt %s --uop-canonicalize=region-simplify=sometimes 2>&1 | FileCheck %s --check-prefix=BAD

// NORMAL-LABEL: func.func @dead_arguments
// NORMAL: cf.cond_br %{{.*}}, ^bb1, ^bb2
// NORMAL: ^bb1:
// NORMAL: ^bb2:
// DISABLED-LABEL: func.func @dead_arguments
// DISABLED: cf.cond_br %{{.*}}, ^bb1(%{{.*}} : i32), ^bb2(%{{.*}} : i32)
// DISABLED: ^bb1(%{{.*}}: i32):
// DISABLED: ^bb2(%{{.*}}: i32):
// BAD: Cannot find option named 'sometimes'
func.func @dead_arguments(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2(%a : i32)
^bb1(%x: i32):
  return %a : i32
^bb2(%y: i32):
  %z = arith.addi %a, %a : i32
  return %z : i32
}
