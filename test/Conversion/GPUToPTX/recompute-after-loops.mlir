// uop-recompute-after-loops: a value defined before an scf.for, used after
// it and not in it, is recomputed right after the loop from values live
// through the loop (used in it, arguments, constants), and the original
// goes if nothing else needs it. Left: values the loop uses, values from a
// load or an op with regions, and a recomputation of more than 64 ops.
// RUN: uop-opt %s --uop-recompute-after-loops | FileCheck %s

// The store's index: (tid * 7 + a) * 3, with tid * 7 also the loop's, so
// only the rest moves; x = a * 5 + tid goes after the loop whole; the load
// and the scf.if stay where they are, as does y, which the loop uses.
// CHECK-LABEL: func.func @store_after
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[T:.*]] = arith.index_castui %[[TID]] : index to i32
// CHECK-NEXT: %[[T7:.*]] = arith.muli %[[T]], %c7_i32 : i32
// CHECK-NEXT: %[[L:.*]] = llvm.load %arg1
// CHECK-NEXT: %[[IF:.*]] = scf.if %arg2 -> (i32) {
// CHECK: %[[Y:.*]] = arith.addi %arg0, %[[T7]] : i32
// CHECK-NEXT: scf.for
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[T7]], %arg0 : i32
// CHECK-NEXT: %[[S3:.*]] = arith.muli %[[S]], %c3_i32 : i32
// CHECK-NEXT: %[[A5:.*]] = arith.muli %arg0, %c5_i32 : i32
// CHECK-NEXT: %[[TID2:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[T2:.*]] = arith.index_castui %[[TID2]] : index to i32
// CHECK-NEXT: %[[X:.*]] = arith.addi %[[A5]], %[[T2]] : i32
// CHECK-NEXT: llvm.getelementptr %arg1[%[[S3]]]
// CHECK: llvm.getelementptr %arg1[%[[X]]]
// CHECK: llvm.getelementptr %arg1[%[[L]]]
// CHECK: llvm.getelementptr %arg1[%[[IF]]]
// CHECK: llvm.getelementptr %arg1[%[[Y]]]
func.func @store_after(%a: i32, %p: !llvm.ptr, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %c64 = arith.constant 64 : i32
  %z = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %t = arith.index_castui %tid : index to i32
  %t7 = arith.muli %t, %c7 : i32
  %s = arith.addi %t7, %a : i32
  %s3 = arith.muli %s, %c3 : i32
  %a5 = arith.muli %a, %c5 : i32
  %x = arith.addi %a5, %t : i32
  %l = llvm.load %p : !llvm.ptr -> i32
  %if = scf.if %c -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %c0 : i32
  }
  %y = arith.addi %a, %t7 : i32
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %k = arith.addi %t7, %i : i32
    %k2 = arith.addi %y, %k : i32
    %g = llvm.getelementptr %p[%k2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  %g0 = llvm.getelementptr %p[%s3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  llvm.store %r, %g0 : f32, !llvm.ptr
  %g1 = llvm.getelementptr %p[%x] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  llvm.store %r, %g1 : f32, !llvm.ptr
  %g2 = llvm.getelementptr %p[%l] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  llvm.store %r, %g2 : f32, !llvm.ptr
  %g3 = llvm.getelementptr %p[%if] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  llvm.store %r, %g3 : f32, !llvm.ptr
  %g4 = llvm.getelementptr %p[%y] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  llvm.store %r, %g4 : f32, !llvm.ptr
  return
}

// A chain of 65 adds is more than a recomputation may take: it stays.
// CHECK-LABEL: func.func @too_long
// CHECK: %[[LAST:.*]] = arith.addi %63, %arg0 : i32
// CHECK-NEXT: scf.for
// CHECK-NOT: arith.addi
// CHECK: llvm.getelementptr %arg1[%[[LAST]]]
func.func @too_long(%a: i32, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %z = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %t = arith.index_castui %tid : index to i32
  %v1 = arith.addi %t, %a : i32
  %v2 = arith.addi %v1, %a : i32
  %v3 = arith.addi %v2, %a : i32
  %v4 = arith.addi %v3, %a : i32
  %v5 = arith.addi %v4, %a : i32
  %v6 = arith.addi %v5, %a : i32
  %v7 = arith.addi %v6, %a : i32
  %v8 = arith.addi %v7, %a : i32
  %v9 = arith.addi %v8, %a : i32
  %v10 = arith.addi %v9, %a : i32
  %v11 = arith.addi %v10, %a : i32
  %v12 = arith.addi %v11, %a : i32
  %v13 = arith.addi %v12, %a : i32
  %v14 = arith.addi %v13, %a : i32
  %v15 = arith.addi %v14, %a : i32
  %v16 = arith.addi %v15, %a : i32
  %v17 = arith.addi %v16, %a : i32
  %v18 = arith.addi %v17, %a : i32
  %v19 = arith.addi %v18, %a : i32
  %v20 = arith.addi %v19, %a : i32
  %v21 = arith.addi %v20, %a : i32
  %v22 = arith.addi %v21, %a : i32
  %v23 = arith.addi %v22, %a : i32
  %v24 = arith.addi %v23, %a : i32
  %v25 = arith.addi %v24, %a : i32
  %v26 = arith.addi %v25, %a : i32
  %v27 = arith.addi %v26, %a : i32
  %v28 = arith.addi %v27, %a : i32
  %v29 = arith.addi %v28, %a : i32
  %v30 = arith.addi %v29, %a : i32
  %v31 = arith.addi %v30, %a : i32
  %v32 = arith.addi %v31, %a : i32
  %v33 = arith.addi %v32, %a : i32
  %v34 = arith.addi %v33, %a : i32
  %v35 = arith.addi %v34, %a : i32
  %v36 = arith.addi %v35, %a : i32
  %v37 = arith.addi %v36, %a : i32
  %v38 = arith.addi %v37, %a : i32
  %v39 = arith.addi %v38, %a : i32
  %v40 = arith.addi %v39, %a : i32
  %v41 = arith.addi %v40, %a : i32
  %v42 = arith.addi %v41, %a : i32
  %v43 = arith.addi %v42, %a : i32
  %v44 = arith.addi %v43, %a : i32
  %v45 = arith.addi %v44, %a : i32
  %v46 = arith.addi %v45, %a : i32
  %v47 = arith.addi %v46, %a : i32
  %v48 = arith.addi %v47, %a : i32
  %v49 = arith.addi %v48, %a : i32
  %v50 = arith.addi %v49, %a : i32
  %v51 = arith.addi %v50, %a : i32
  %v52 = arith.addi %v51, %a : i32
  %v53 = arith.addi %v52, %a : i32
  %v54 = arith.addi %v53, %a : i32
  %v55 = arith.addi %v54, %a : i32
  %v56 = arith.addi %v55, %a : i32
  %v57 = arith.addi %v56, %a : i32
  %v58 = arith.addi %v57, %a : i32
  %v59 = arith.addi %v58, %a : i32
  %v60 = arith.addi %v59, %a : i32
  %v61 = arith.addi %v60, %a : i32
  %v62 = arith.addi %v61, %a : i32
  %v63 = arith.addi %v62, %a : i32
  %v64 = arith.addi %v63, %a : i32
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %g = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  %g0 = llvm.getelementptr %p[%v64] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  llvm.store %r, %g0 : f32, !llvm.ptr
  return
}
