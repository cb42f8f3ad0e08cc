//===- Passes.td - uop conversion passes ------------------------------------===//

#ifndef UOP_CONVERSION_PASSES_TD
#define UOP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertUOpToSCF : Pass<"convert-uop-to-scf", "::mlir::ModuleOp"> {
  let summary = "Lowered uop kernels to func, scf loops, arith/math and LLVM memory ops";
  let description = [{
    Converts every lowered `uop.kernel` (the output of `uop-lower`: RANGEs,
    INDEX, LOAD/STORE, REDUCE and ALU ops, no VIEWs) into a `func.func` of the
    same name taking one `!llvm.ptr` per DEFINE_GLOBAL index, in index order.

    Placement follows tinygrad's linearizer: each STORE runs inside one
    `scf.for` per range it depends on, ordered by axis number; each REDUCE is
    a nest of `scf.for` over its ranges carrying the accumulator as an
    iter_arg, started from the identity (0, 1, or the dtype's lowest value);
    every other op is emitted once, in the innermost loop among the ranges it
    depends on, so loop-invariant work is hoisted by construction. A gated
    STORE is an `scf.if`; a buffer of known size gets `llvm.dereferenceable`
    (its bytes, which the caller must pass); a gated LOAD gives its alt value (or 0) where the
    gate is off, without a branch where the buffer's size is known (it reads
    the buffer's first elements there instead and selects), else as an
    `scf.if`.

    Values follow tinygrad's semantics (docs/semantics.md): integer ops wrap;
    IDIV/MOD truncate toward zero, with x/0 = x%0 = 0; shifts by the width or
    more give 0 (or the sign); MAX is `a < b ? b : a`; float compares are
    ordered except CMPNE; float-to-int casts truncate and wrap; bool is a
    byte in memory. With `half-in-f32` (the default, tinygrad's C backend)
    f16 and bf16 are computed in f32 and rounded at casts, stores and half
    accumulators.

    ```mlir
    // uop.store %p, %x inside ranges r0 (axis 0) and r1 (axis 1) becomes
    scf.for %i = %c0 to %c4 step %c1 : i32 {
      scf.for %j = %c0 to %c8 step %c1 : i32 {
        ...
        llvm.store %x, %p : f32, !llvm.ptr
      }
    }
    ```
  }];
  let options = [
    Option<"halfInF32", "half-in-f32", "bool", /*default=*/"true",
           "Compute f16/bf16 in f32, rounding at casts, stores and accumulators">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def UOpCheckHostAccesses : Pass<"uop-check-host-accesses", "::mlir::ModuleOp"> {
  let summary = "Bounds-check every load and store of the host kernels at run time";
  let description = [{
    Runs on the `func.func`s `convert-uop-to-scf` makes (one `!llvm.ptr` per
    buffer). Each gets one more pointer argument, the context: 64-bit words,
    64-byte aligned, holding each buffer's size in bytes, written by the
    caller, then a fault count, the first fault's site, buffer and byte
    offset, and 256 bytes of scratch (`CheckedABI.h` has the layout).

    Every `llvm.load` and `llvm.store` compares its byte range with its
    buffer's size. Inside, it runs as before; outside, it reads or writes the
    scratch words instead, and the fault is counted (the first recorded), so
    the kernel never touches memory outside its buffers whatever its index
    math or the caller's buffers. The sites are named, in order, by the
    module's `uop.sites` (op and location), so the caller can say where the
    first fault was. The CPU runner (`uop-run --target=cpu`) runs every
    kernel this way unless told not to.

    An access provably inside is left alone: its address is `gep
    %buffer[%i]` into a buffer of known size (`llvm.dereferenceable`, which
    `convert-uop-to-scf` sets from the pointer type and the caller must
    honour) and MLIR's IntegerRangeAnalysis bounds %i within it. An access
    whose buffer cannot be told (its address is not a GEP or select chain
    from one buffer argument), and any other op that may touch memory, is an
    error: the pass never leaves an unproven access unchecked.

    ```mlir
    %v = llvm.load %p : !llvm.ptr -> f32
    // becomes
    %off = arith.subi %p_as_int, %buffer_as_int : i64
    %in = arith.andi (4 <= %bytes), (%off <= %bytes - 4)
    %q = arith.select %in, %p, %scratch : !llvm.ptr
    scf.if %out { ...count, record the first fault... }
    %v = llvm.load %q : !llvm.ptr -> f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ConvertUOpToGPU : Pass<"convert-uop-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lowered, GPU-mapped uop kernels to gpu.module/gpu.func";
  let description = [{
    Converts every lowered `uop.kernel` whose global and local RANGEs
    `uop-gpu-dims` has replaced by SPECIALs into a `gpu.module` of the same
    name holding one `gpu.func ... kernel`, with one `!llvm.ptr` parameter
    per DEFINE_GLOBAL index, in index order (marked `llvm.noalias`: distinct
    DEFINE_GLOBALs are distinct buffers), then one `i32` per variable
    (`uop.define_var`) sorted by name, named in the module's
    `uop.variables` as `convert-uop-to-scf` does. The ops are placed as
    `convert-uop-to-scf` places them (reduce ranges become `scf.for` loops)
    with the same value semantics, except:
    - `gidxN` is `gpu.block_id`, `lidxN` `gpu.thread_id`, `idxN` the global
      thread index, all as `i32`;
    - halves are computed in their own type (`uop-target-legalize` has moved
      what PTX cannot do in half to f32);
    - the ops in the target's `approx_ops` use PTX's approximate
      instructions (`ex2.approx.f32`/`.f16`, `lg2.approx.f32`,
      `sin.approx.f32`, `sqrt.approx.f32`, `rcp.approx.f32`), as tinygrad's
      PTX renderer does; POW and f64 EXP2/LOG2/SIN, which PTX has no
      instruction for, are errors.
    - WMMA is one `nvvm.mma.sync` (row.col) with the register packing of
      tinygrad's PTX renderer: A, B and C elements in order, two halves per
      32-bit register (bf16 pairs and tf32 inputs as `i32`), the result
      unpacked the same way; the target must list the tensor core;
    - a gated LOAD is an `scf.if` around the load, also where the buffer's
      size is known: ptxas turns the branch into a predicated load.
    Bool buffers are bytes, read as `!= 0` (`ld.global.u8`).
    VECTORIZE and GEP of values are vector inserts, extracts and shuffles.

    The launch dimensions travel with the result: the gpu.func carries
    `known_grid_size`/`known_block_size`, and the module a `uop.launch`
    dictionary, kernel name -> `{grid = array<i32: x, y, z>, block =
    array<i32: x, y, z>}`, which survives `gpu-module-to-binary`. A SPECIAL
    of symbolic size makes its grid or block size the bound, with the size
    as an affine expression of the variables in `sym = [#uop.sym_entry<slot
    = ...>]` (slot 0-2: grid x, y, z; 3-5: block x, y, z), evaluated at
    launch; the gpu.func then has no known size for it (only the bound is
    known). A size that is not affine in the variables is an error.
    The module must carry a `#uop.target` (`uop-attach-target`).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

def UOpPipelineWgmma : Pass<"uop-pipeline-wgmma", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Keep a reduce loop's wgmmas in flight across its steps";
  let description = [{
    `convert-uop-to-gpu` writes each wgmma of the WGMMA schedule as
    `wgmma.fence`, `wgmma.mma_async`, `commit_group` and `wait_group 0`:
    every wgmma completes before the next one issues, so none overlaps
    another or the next step's copies and barrier. This pass lets the last
    step's wgmmas run on: in each outermost `scf.for` whose body issues
    `P` wgmmas per iteration (the wgmma ops in it, times the constant trip
    counts of the loops around them inside it), each `wait_group 0` that
    follows a wgmma's `commit_group` becomes `wait_group P`, and one
    `wait_group 0` after the loop retires them all before anything reads
    the accumulators, as CUTLASS's Hopper mainloops keep a batch of wgmmas
    in flight (`warpgroup_wait<K_PIPE_MMAS>`).

    Why that is safe for the schedule's ring of shared buffers: the copies
    of step `k` write the buffer step `k - 2` read (its `S` buffers are
    filled `S - 2` steps ahead), and at step `k` only the wgmmas of step
    `k - 1` and later can be in flight. In a kernel whose block is one
    warpgroup (the schedule's, `known_block_size` of at most 128 threads) a
    wgmma is the whole block's one operation, so the thread whose
    `wait_group` retired it has seen it complete. The simulator checks both
    rules (no read of an unretired result but as the next wgmma's
    accumulator; no write to shared memory an unretired wgmma reads) on
    every run.

    Loops whose wgmma count is not a constant (a wgmma under an `scf.if`,
    or in a loop of unknown trip count), and kernels whose block is larger
    or of unknown size (another warpgroup's wgmma could still read the
    buffer a thread copies into), are left as they are. So are loops that
    wait on a cluster barrier (CLUSTER's schedule): there the copies of
    step `k + 1` write, in every block of the cluster, the buffer step
    `k - 1` read, which the cluster barrier of step `k` (before step `k`'s
    wgmmas) vouches for only while each step's wgmmas retire within it.

    `uop-to-ptx` runs it unless the PTX printer is `direct`: that printer
    copies values between registers at block boundaries (the loop's
    accumulators too), and PTX forbids touching an unretired wgmma's
    accumulator registers; LLVM's PTX keeps them in place.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def ConvertNVVMToSim : Pass<"convert-nvvm-to-sim"> {
  let summary = "GPU-level LLVM/NVVM kernels to host code that calls the SIMT simulator";
  let description = [{
    Rewrites the `llvm.func`s nested in the op (the body of a `gpu.module`
    after `convert-gpu-to-nvvm`, the IR PTX is made from) so that a host JIT
    can run them one GPU thread at a time under the simulator of
    `uop-run --target=sim` (docs/simulator.md). Everything that is not
    plain host LLVM becomes a call into the simulator's ABI
    (include/uop/Conversion/NVVMToSim/SimABI.h):

    - `nvvm.read.ptx.sreg.*` (tid, ntid, ctaid, nctaid, laneid, warpid,
      warpsize): `__uopsim_sreg(which)`;
    - `nvvm.barrier0` and `nvvm.barrier` (barrier 0, all threads):
      `__uopsim_barrier(site)`;
    - `nvvm.mma.sync` (m16n8k16 f16/bf16, m16n8k8 f16/bf16/tf32, row.col,
      f16/f32 accumulators): the lane's fragment registers are stored as
      32-bit words and passed to `__uopsim_mma`, which computes the warp's
      product once all 32 lanes have arrived;
    - every `llvm.load`, `llvm.store`, `llvm.atomicrmw` and `llvm.cmpxchg`
      first calls `__uopsim_check(ptr, bytes, site)`;
    - shared variables (`llvm.mlir.global` in address space 3) become
      `__uopsim_shared(index)`, one copy per block, their sizes recorded in
      `uop.sim_shared`; `llvm.alloca` becomes `__uopsim_alloca`, private
      memory the checks know about;
    - the approximate PTX math the GPU conversion uses (`ex2.approx`,
      `lg2.approx`, `sin.approx`, `sqrt.approx`, the `rcp.approx.f32`
      inline asm) becomes the exact host operation.

    Any other NVVM op, inline asm, NVVM intrinsic or call of a function
    without a body becomes `__uopsim_unsupported(site)`: the kernel still
    compiles, and the first thread that reaches the op stops with an error
    naming it. The op's name and location for each `site` are recorded in
    the `uop.sites` string array on the op that holds the functions.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def UOpAttachNVVMTarget : Pass<"uop-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "An #nvvm.target on each gpu.module that has no target";
  let description = [{
    Gives every `gpu.module` directly in the module that has no target an
    `#nvvm.target<O = O, chip = chip, features = features>` (features
    default to the chip's PTX version, as uop-attach-target's). A module
    with targets of its own keeps them as they are: upstream's
    `nvvm-attach-target` appends its target to them, and a module with two
    `#nvvm.target`s is one uop-serialize-to-ptx refuses.

    Each module it gives a target is verified then, whether or not the pass
    manager verifies after each pass: with a target, an NVVM op the chip
    does not have (a cluster barrier on sm_80) is an error with its
    location, before any runtime simulates it or LLVM fails on it.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80\"", "GPU architecture (sm_XX)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features (default: the chip's PTX version)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3", "LLVM optimization level (0-3)">
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def UOpGPUToNVVM : Pass<"uop-gpu-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Upstream's convert-gpu-to-nvvm, its patterns built once per pass manager";
  let description = [{
    Upstream's `convert-gpu-to-nvvm` with the same patterns (GPU to NVVM,
    libdevice calls for math ops, WMMA, and every loaded dialect's
    ConvertToLLVMPatternInterface but math's), run so that a module of many
    small kernels pays for them once:

    - The type converter, conversion target and frozen patterns are built
      once, when the pass manager initializes the pass, and shared by every
      `gpu.module` it runs on. Upstream builds them for each module (a fifth
      of its time on the corpus, a kernel per module). A `gpu.module` under
      a data layout spec (its own or an enclosing op's) gets its own, as
      upstream's would.
    - Upstream first runs a greedy rewrite over the module for the GPU ops
      that lower in two steps (`gpu.all_reduce`, `gpu.shuffle`,
      `gpu.global_id`, N-D `vector.from_elements`), which also folds and
      merges constants. So does this pass, without region simplification
      (a third of that rewrite; on both corpora the IR is the same).
    - No pattern rollback (a fifth of the conversion's time on the f16
      matmul): the driver keeps no undo state. In that mode a pattern that
      fails after it has changed the IR is a fatal error, not a rollback;
      none of upstream's does so on either corpus, the differential suite
      or the fuzzers' inputs.

    An op the conversion cannot legalize is an error at the op, as
    upstream's.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", /*default=*/"64",
           "Bitwidth of the index type (0: the data layout's)">
  ];
  // Upstream's: the pre-rewrite builds cf and memref ops.
  let dependentDialects = ["::mlir::cf::ControlFlowDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

def UOpUnrollLoops : Pass<"uop-unroll-loops"> {
  let summary = "Unroll short straight-line scf.for loops, for the direct PTX printer";
  let description = [{
    What LLVM's loop unroller does before its NVPTX back end, for the path
    that has no LLVM (`uop-serialize-to-ptx{printer=direct}`): every
    innermost `scf.for` with constant bounds (of at most 64 bits), a
    positive step and a body of ops without regions is unrolled

    - fully, when its trip count times its body's op count is at most
      `budget`;
    - else by the largest power of two up to `max-factor` that divides the
      trip count and keeps the unrolled body within `budget` ops.

    The budget of 64 ops is where ptxas's registers on corpus-perf match
    LLVM's or fall below them: with 128, attention k2's 8-trip loop (9 ops)
    is unrolled fully, and ptxas takes 30 registers for it instead of 26.

    The copies run in the original order, so a reduction's sum is the same
    bits. The induction value of copy k is `iv + k * step` marked `nsw`: the
    bounds are constants, so it never passes the upper bound.
    A partly unrolled loop is marked not to be unrolled again
    (`llvm.loop_annotation` with `unroll<disable = true>`, which
    convert-scf-to-cf and convert-cf-to-llvm carry to the back edge and the
    direct printer writes as `.pragma "nounroll"`): ptxas otherwise unrolls
    the loop a second time, and holds all of the copies' loads in registers
    at once (softmax k0: 58 registers instead of 22).
  }];
  let options = [
    Option<"maxFactor", "max-factor", "unsigned", /*default=*/"8",
           "the largest partial unroll factor">,
    Option<"budget", "budget", "unsigned", /*default=*/"64",
           "ops an unrolled loop body may have">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def UOpVectorizeLoads : Pass<"uop-vectorize-loads"> {
  let summary = "Adjacent scalar llvm.loads as one vector load (ld.v2/ld.v4)";
  let description = [{
    What LLVM's load-store vectorizer does for the NVPTX back end, for the
    path that has no LLVM: in each block, the `llvm.load`s of one scalar
    type from `llvm.getelementptr %base[i + c]` for consecutive constants
    `c`, with no op between them that may write memory, become one load of
    a vector of a power of two of them, at most 16 bytes (`vector<4xf32>`,
    `vector<8xf16>`, which the direct printer loads as `ld.v4.b32`), and
    `llvm.extractelement`s. An op writes memory if it says so or says
    nothing, but for the intrinsics LLVM's table says do not (the
    `llvm.nvvm.ex2.approx` the lowering calls) and inline asm without side
    effects, memory operands or a memory clobber. The index `i` is compared
    as a sum of values times constants, through `arith`/`llvm` adds,
    subtracts and multiplies by constants that are `nsw` (exact, so `i + c`
    is `c` elements past `i`); anything else, or an index wider than 64
    bits, is a value of its own.

    The vector load needs its alignment proven: the base is a kernel
    argument with `llvm.align` or a global with an alignment, and the index
    is a multiple of the vector's length: each value in it times its
    coefficient, where an `scf.for` induction variable is a multiple of the
    gcd of its constant lower bound and step. Loads that are volatile,
    atomic, nontemporal or invariant are left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def UOpGroupLoopInvariants : Pass<"uop-group-loop-invariants"> {
  let summary = "A loop's integer sums add their loop-invariant terms first";
  let description = [{
    What LLVM's reassociation does before its NVPTX back end, for the path
    that has no LLVM: a chain of `arith.addi` in an `scf.for` (each add but
    the last used only by the next, in one block, a left fold `((t0 + t1) +
    t2) + ...`) is rebuilt so that its terms are added in the order of the
    loops they are defined in, outermost first (a stable sort by the number
    of enclosing `scf.for`s), constants last. ptxas then hoists the
    invariant part, rather than holding each invariant term in a register
    through the loop (conv3x3's loop, with the direct printer: 64 registers
    as written, 56 regrouped).

    Only chains whose constants already come last (the canonicalization
    moves them out) are rebuilt. Those constant adds are kept as they are,
    with their flags: modulo 2^n the sum before them is the same in any
    order. The adds rebuilt before them carry no flags, since a new partial
    sum may wrap where no old one did. It runs after `uop-vectorize-loads`,
    which reads an index through `nsw` adds only.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def UOpPointerInductions : Pass<"uop-pointer-inductions"> {
  let summary = "A loop's addresses as pointers stepped each iteration, for the direct PTX printer";
  let description = [{
    What LLVM's loop strength reduction does before its NVPTX back end, for
    the path that has no LLVM: in an `scf.for` with a constant step and an
    integer induction variable of at most 32 bits, each
    `llvm.getelementptr %base[%index]` (outside nested loops) whose base is
    defined outside the loop and whose index is `terms + c * iv + k`,
    taken apart through `nsw` adds, subtracts and multiplies by constants,
    with loop-invariant terms of at most 32 bits, becomes an offset from a
    pointer the loop carries: one pointer for each base, element type, `c`
    and terms, set before the loop to the address at the lower bound and
    stepped by `c * step` elements each iteration; its addresses differ by
    their constants `k`. Only a base that the loop uses for one such group
    alone gets a pointer: a base used with two sets of terms keeps its
    index math (two pointers take four registers, as many as the base and
    two indices).

    Loops of at most `max-unrolled-trips` iterations (a constant trip
    count) are left as they are: ptxas unrolls them itself, and the
    unrolled copies then step the pointer one after another (attention k0's
    loop of 4 trips: 93 registers as written, 114 with pointers).

    The initial index is computed in 64 bits, exactly (the terms' ranges are
    checked not to leave int64), so every address is the one the original
    index gave: `nsw` said that index did not wrap. The new geps carry no
    `inbounds`: the pointer itself need not point into the buffer.

    ptxas otherwise keeps the base and the invariant part of each index
    live through the loop (conv3x3: 56 registers as written; 48, nvcc's
    figure, with this and `uop-recompute-after-loops`).
  }];
  let options = [
    Option<"maxUnrolledTrips", "max-unrolled-trips", "unsigned", /*default=*/"4",
           "loops of at most this many iterations are left to ptxas's unroller">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def UOpRecomputeAfterLoops : Pass<"uop-recompute-after-loops"> {
  let summary = "Values used after an scf.for recomputed there rather than held through it";
  let description = [{
    For the direct PTX printer, which has no LLVM and no CSE after this: a
    value defined before an `scf.for` in its block, used after it and not
    in it (a store's address after a reduction, from the thread and block
    ids) is recomputed right after the loop, when every op on the way is
    pure, has no regions, and the recomputation takes at most 64 ops
    starting from values that are live through the loop anyway (used in
    it, block arguments, constants). The copies are made once per loop and
    replace the uses after it.

    nvcc's PTX recomputes such values the same way; ptxas, given one value
    held through the loop, keeps it in a register there (conv3x3: 56
    registers; 48 with this and `uop-pointer-inductions`).
  }];
}

def UOpSerializeToPTX : Pass<"uop-serialize-to-ptx", "::mlir::ModuleOp"> {
  let summary = "Each gpu.module (#nvvm.target) to a gpu.binary of PTX, in parallel";
  let description = [{
    Replaces every `gpu.module` directly in the module, each with one
    `#nvvm.target`, by a `gpu.binary` holding its PTX, as
    `gpu-module-to-binary{format=isa}` does: the module is translated to
    LLVM IR, optimized by LLVM at the target's `O`, and compiled by LLVM's
    NVPTX backend; the `#gpu.object` records `O` as upstream's does. It
    differs in what it costs:

    - libdevice (the CUDA toolkit's `nvvm/libdevice/libdevice.10.bc`, the
      toolkit found as upstream finds it: `CUDA_ROOT`, `CUDA_HOME`,
      `CUDA_PATH`; or the `libdevice` option) is read, once, and linked
      (only the functions used, internalized) into a module only when the
      module calls one of its `__nv_*` functions. Upstream reads and links
      it into every module whenever a toolkit is found. A module that calls
      libdevice when there is none is an error naming the function.
    - The NVPTX target machines come from a process-wide pool, one per
      (chip, features, O) and thread, instead of one per module.
    - The modules compile in parallel on the context's thread pool, each in
      its own LLVMContext; diagnostics keep the modules' order.

    The target's `link` files are not supported (an error). LLVM reports
    what it cannot compile (an NVVM op that needs a newer PTX ISA than the
    target's, which instruction selection has no pattern for) by aborting
    the process: the pass recovers (a CrashRecoveryContext around LLVM's
    optimizer and back end), fails with an error on the module after LLVM's
    own message, and abandons the target machine, LLVM module and context
    it was using. The first compile enables the recovery, which installs
    handlers for crash signals process-wide; a crash elsewhere still reaches
    the handlers that were there before.

    With `printer=direct` the PTX is not LLVM's: uop-mlir's own printer
    (include/uop/Target/PTX/PTXPrinter.h) writes it straight from the
    module's `llvm` and `nvvm` ops, a few PTX instructions per op, and
    leaves optimization and register allocation to ptxas, as tinygrad does.
    It skips LLVM's optimizer and NVPTX backend, most of a kernel's compile
    time (docs/compile-speed.md). An op it has no template for is an error
    at the op. libdevice is never linked: a call to it is such an op.

    LLVM's side is linked by choice: `printer=llvm` needs the tool to have
    called `registerLLVMPTXBackend` (include/uop/Conversion/GPUToPTX/
    LLVMBackend.h; `registerUOpPTXDependencies` does), else the pass fails
    to initialize with an error that says so. A tool that only prints
    directly (uop-translate) then links neither LLVM's optimizer nor
    its NVPTX back end, and starts faster.
  }];
  let options = [
    Option<"libdevice", "libdevice", "std::string", /*default=*/"\"\"",
           "libdevice's bitcode file (default: the CUDA toolkit's)">,
    Option<"printer", "printer", "std::string", /*default=*/"\"llvm\"",
           "who writes the PTX: llvm (LLVM's optimizer and NVPTX backend) or direct "
           "(uop-mlir's printer, no LLVM)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif
