//===- Passes.td - kernelize: tensor graphs to kernels and a schedule -----===//

#ifndef UOP_KERNELIZE_PASSES_TD
#define UOP_KERNELIZE_PASSES_TD

include "mlir/Pass/PassBase.td"

def UOpKernelize : Pass<"uop-kernelize", "::mlir::ModuleOp"> {
  let summary = "tinygrad's kernelize and scheduler: tensor graphs to kernels and a schedule";
  let description = [{
    Each `func.func` of uop ops on tensors (a tensor graph: `uop.buffer`s,
    movement ops, ALU ops, `uop.reduce_axis`, `uop.contiguous`,
    `uop.assign`, `uop.copy`, ... returning the tensors to realize) becomes
    what tinygrad's `get_kernelize_map` and `create_schedule_with_vars` make
    of it (tinygrad b73e89110e):
    - one `uop.kernel @<func>_k<N>` per kernel of the schedule (N its
      position in the schedule), its AST exactly tinygrad's: views pushed to
      the loads and stores, LOAD/STORE on DEFINE_GLOBALs;
    - the function rewritten into the schedule on memrefs (the buffers): it
      takes every buffer of the graph and every buffer kernelize creates
      for a result, in `uop.unique` order (argument attributes `uop.unique`,
      `uop.device`), allocates the intermediate buffers (`memref.alloc`,
      freed after their last use), and runs the kernels with `uop.exec` and
      the device copies with `memref.copy`, in tinygrad's order (a BFS over
      the ASSIGN dependencies). It returns nothing; its `uop.outputs`
      attribute says where each former result is: `{unique = N, st =
      #uop.st<...>}` (a view of that buffer) or `{value = dense<...>}` (a
      constant no kernel computes).
    tinygrad's decisions come with it: the graph simplifications (its `sym`
    rules, split_reduceop), which values realize (the grouper), fusion of
    reduces and elementwise children, and the flags below. Each function is
    kernelized as one SINK, as `Tensor.realize` of its results does.
    A graph tinygrad refuses (a cycle through ASSIGNs, a non-contiguous
    self-read in an augmented assign, buffers of one kernel on different
    devices) is an error at the function. docs/kernelize.md has the details.
  }];
  let options = [
    Option<"fuseArange", "fuse-arange", "bool", "false", "tinygrad's FUSE_ARANGE">,
    Option<"fuseConvBw", "fuse-conv-bw", "bool", "false", "tinygrad's FUSE_CONV_BW">,
    Option<"dontRealizeExpand", "dont-realize-expand", "bool", "false",
           "tinygrad's DONT_REALIZE_EXPAND">,
    Option<"dontGroupReduces", "dont-group-reduces", "bool", "false",
           "tinygrad's DONT_GROUP_REDUCES">,
    Option<"splitReduceop", "split-reduceop", "bool", "true", "tinygrad's SPLIT_REDUCEOP">,
    Option<"reduceopSplitThreshold", "reduceop-split-threshold", "int64_t", "32768",
           "tinygrad's REDUCEOP_SPLIT_THRESHOLD">,
    Option<"reduceopSplitSize", "reduceop-split-size", "int64_t", "22",
           "tinygrad's REDUCEOP_SPLIT_SIZE">,
    Option<"maxKernelBuffers", "max-kernel-buffers", "int64_t", "0",
           "tinygrad's MAX_KERNEL_BUFFERS (0: no limit)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect"];
}

def UOpPlanBuffers : Pass<"uop-plan-buffers", "::mlir::ModuleOp"> {
  let summary = "tinygrad's memory planner: a schedule's intermediate buffers share one arena";
  let description = [{
    On each schedule `uop-kernelize` made (a function with `uop.outputs`),
    does what tinygrad's `memory_planner` does on a device whose allocator
    can hand out views (`_offset`, as the CPU's): the buffers the schedule
    allocates itself (`memref.alloc`, not the arguments, and not a buffer a
    `memref.copy` touches) are placed in one `memref<Nxi8>` arena by
    tinygrad's TLSF allocator (4 KiB blocks) walking the schedule: a buffer
    is taken at its first use and given back after its last, so buffers
    whose lifetimes do not overlap share memory. Each becomes a
    `memref.view` of the arena at its offset; the arena is allocated first
    and freed last. A remark on the function reports the bytes before
    (the buffers' sum) and after (the arena).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

#endif
