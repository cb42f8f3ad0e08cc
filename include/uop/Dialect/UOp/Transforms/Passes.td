//===- Passes.td - uop dialect passes ---------------------------------------===//

#ifndef UOP_DIALECT_UOP_TRANSFORMS_PASSES_TD
#define UOP_DIALECT_UOP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def UOpOptimize : Pass<"uop-optimize", "::mlir::uop::KernelOp"> {
  let summary = "tinygrad's kernel optimizations (OptOps) on a kernel AST";
  let description = [{
    Applies tinygrad's OptOps (opt/kernel.py) to a kernel AST before
    `uop-lower`, for the target of the module's `#uop.target` (or the CPU,
    which has no local memory, when there is none):
    - the opts are the kernel's `uop.opts` string attribute if it has one
      (`""`: none), else the `opts` option (for every kernel), else, with
      `heuristic` (the default), what tinygrad's hand_coded_optimizations
      picks;
    - the notation is tinygrad's, comma-separated: `LOCAL:0:4` (a global
      axis split by 4 onto threads), `UPCAST:1:4` (into registers),
      `UNROLL:0:4` (a reduce axis into registers; the axis counts from the
      first reduce axis), `GROUP:0:16` / `GROUPTOP:0:16` (a reduce axis
      split across threads that combine through shared memory),
      `PADTO:1:32` (an axis padded up to a multiple), `NOLOCALS`,
      `SWAP:0:1` (two global axes swapped). An amount of 0 takes the whole
      axis;
    - the axes index the kernel's shape after tinygrad's simplifications
      (axes of size 1 dropped, adjacent axes merged where every buffer
      allows), ordered global, local, grouped, reduce, upcast;
    - an opt that is illegal (axis out of range, an amount that does not
      divide, over a limit of the target, an op the target lacks) is an
      error naming the opt, the shape and tinygrad's reason.
    The result has every VIEW reshaped and permuted, each REDUCE_AXIS
    reducing its new axes, a grouped reduce going through a `define_local`
    buffer (each thread's partial sum stored, loaded back and reduced over
    the group), and a `#uop.kernel_info` attribute with the role of each
    axis, which `uop-lower` reads. A kernel that already has one, or is
    lowered, is left alone. `TC` (tensor cores) makes the reduce a WMMA
    over the tensor core's axes (docs/optimize.md). Grouping (GROUP,
    GROUPTOP) a kernel with more than one reduce is refused.

    A symbolic kernel (views over `uop.define_var`s) takes opts as tinygrad
    does: no symbolic axis is split, PADTO and TC are refused, and the
    views stay exact (affine in the variables). Where the heuristic's opts
    would need a view that is not, the kernel is left without opts and a
    remark says why.
  }];
  let options = [
    Option<"opts", "opts", "std::string", /*default=*/"",
           "Opts for every kernel in tinygrad's notation, e.g. \"UPCAST:0:4,LOCAL:0:8\"">,
    Option<"heuristic", "heuristic", "bool", /*default=*/"true",
           "Without explicit opts, apply tinygrad's hand_coded_optimizations">,
    Option<"tcSchedule", "tc-schedule", "std::string", /*default=*/"\"auto\"",
           "The heuristic's tensor-core schedule: \"tinygrad\" (fragments loaded from "
           "global memory, as tinygrad does), \"staged\" (tiles staged in shared memory: "
           "STAGE), \"wgmma\" (Hopper's wgmma from staged tiles: WGMMA, sm_90a), \"tma\" "
           "(wgmma from tiles the tensor memory accelerator copies: TMA, sm_90a), \"cluster\" "
           "(TMA's, the blocks in thread-block clusters sharing their tiles: CLUSTER, "
           "sm_90a), \"splitk\" (the cluster schedule's with K split between the blocks "
           "of a pair: SPLITK, sm_90a) or \"auto\" "
           "(wgmma on sm_90a, else staged, where the kernel and target allow)">
  ];
  let dependentDialects = ["::mlir::uop::UOpDialect"];
}

def UOpLower : Pass<"uop-lower", "::mlir::uop::KernelOp"> {
  let summary = "tinygrad's lowerer: VIEWs to index arithmetic over RANGEs";
  let description = [{
    Lowers a kernel AST the way tinygrad's codegen/lowerer.py does:
    - one `uop.range` per axis of the kernel's full shape (the per-dimension
      maximum over its views). Without a `#uop.kernel_info`: `reduce` for
      the axes some REDUCE_AXIS reduces, `global` for the others. With one
      (from `uop-optimize`): its first `global_dims` axes `global`, the next
      `local_dims` `local`, the last `upcasted` `upcast` (or `unroll` if
      reduced), the rest `reduce` or `loop`;
    - a load from a `define_local` (a grouped reduce reading the partial
      results) indexes the grouped axes with ranges of their own
      (`group_reduce`, axis 1000 + a) and waits at a `uop.barrier` for the
      store; a global store is gated to the group's first thread;
    - each VIEW becomes an index, `offset + sum(idx[i] * stride[i])` over the
      dimensions of size > 1 and stride != 0, and a validity, the AND of
      `idx[i] >= lo` and `idx[i] < hi` for the mask bounds that cut anything;
      a multi-view ShapeTracker unravels that flat index into the previous
      view's shape (`(flat / acc) % dim`) and so on down to the buffer,
      ANDing every view's validity;
    - LOAD(VIEW(buf)) becomes LOAD(INDEX(buf, idx, gate valid), alt 0), so a
      masked load reads 0; STORE(VIEW(buf), x) becomes STORE(INDEX(buf, idx,
      gate valid), x); a CONST under a masked view becomes WHERE(valid, c, 0)
      and VALID(VIEW) the validity itself;
    - REDUCE_AXIS becomes REDUCE over the ranges of its axes.
    As in tinygrad, where only what the SINK reaches exists, ops left unused
    are dropped. A kernel without VIEWs (already lowered) is left alone.
    Index arithmetic is `si32`, tinygrad's `dtypes.int`, except where a value
    can leave int32 (a buffer of 2^31 elements or more): as tinygrad's
    `pm_upcast`, such an operation is computed in `si64` over casts of its
    sources, and one with an `si64` source whose value fits is computed in
    `si64` and cast back. An axis of 2^31 elements or more is an error: a
    RANGE counts in `si32`. The index arithmetic is hash-consed as
    tinygrad's UOps are: the accesses share each constant and each
    expression of the same operands (their adds, multiplies, divisions,
    remainders and comparisons) instead of each building its own.
  }];
}

def UOpExpand : Pass<"uop-expand", "::mlir::uop::KernelOp"> {
  let summary = "tinygrad's expander: upcast and unroll axes as copies, CONTRACT and UNROLL of a WMMA";
  let description = [{
    Runs after `uop-lower`, on lowered kernels, as tinygrad's expander (seed
    001) does with upcast axes:
    - a STORE of the SINK that depends on upcast ranges becomes one STORE
      per combination of their values, each a copy of the ops it needs with
      the ranges replaced by constants (shared where they do not depend on
      them), REDUCEs included; the code generators run REDUCEs over the same
      ranges in one loop, so a matmul keeps its tile of accumulators in
      registers, and STOREs over the same loops in one loop nest. Behind a
      BARRIER (a grouped reduce), the stores to shared memory it waits for
      are expanded first and one BARRIER waits for all their copies. More
      than 256 copies keep their upcast loops;
    - a CONTRACT over axes becomes a VECTORIZE of its source once per
      combination of those axes (the first axis varies slowest), each copy
      of the source's ops with the axes' ranges replaced by constants;
    - a CONTRACT feeding a WMMA also sets the WMMA's other axes (its reduce
      axes and the other sources' fragment axes) to 0, as tinygrad's
      expander does, so each lane loads exactly its fragment;
    - REDUCE(x, UNROLL(v)) over ranges the vector does not depend on becomes
      UNROLL(REDUCE(v)): one vector accumulator, which the code generators
      fold into the WMMA's C operand (tinygrad's `acc + WMMA(a, b, 0)`
      rule);
    - a REDUCE of a WMMA whose sources depend on other upcast axes (the
      heuristic's UPCASTs after TC) becomes one REDUCE per combination of
      them, over the same ranges: the code generators put REDUCEs that share
      their ranges in one loop, so a K step issues all its WMMAs, as
      tinygrad's expander does;
    - in a STORE's copies, an UNROLL (of a WMMA's accumulator) is the GEP
      of the lane its axes' constants select; an UNROLL under a store kept
      as a loop gets the lane the axes' ranges select (a GEP per lane and a
      WHERE chain, which LLVM folds once it unrolls the loops);
    - a REDUCE over unroll axes (upcast reduce axes) takes its source once
      per combination of their values (the first axis slowest): a
      horizontal REDUCE of that vector over its other ranges, which folds
      the lanes into the accumulator in order, or, with no other ranges,
      the lanes combined in order without an accumulator (tinygrad's
      `horizontal_reduce`).
    The copies of one expansion (a STORE's, a CONTRACT's lanes, a REDUCE's)
    are hash-consed as tinygrad's UOps are: a pure op copied twice with the
    same operands is one op, so the copies share the math that depends on
    only some of the axes; ops that touch memory are copied each time.
    Loads and stores are folded into vector accesses by `uop-devectorize`,
    after canonicalize and CSE. A kernel AST (with VIEWs) is left alone.
  }];
}

def UOpCanonicalize : Pass<"uop-canonicalize"> {
  let summary = "canonicalize, with value ranges remembered across folds";
  let description = [{
    Upstream's `canonicalize` (every loaded dialect's and registered op's
    canonicalization patterns and folders, top-down, region simplification
    as its `region-simplify` option says, at most 10 iterations), except
    that tinygrad's range queries (`getIntRange`: the min == max rule every
    integer op's folder asks for, and the rules that need a bound) share one
    memo for the run instead of walking their value's operands afresh. When
    the rewriter changes or replaces an op, the memo forgets what was
    computed from it unless its range stayed the same, so the result is
    `canonicalize`'s, op for op. The pipelines run it on kernels where
    tinygrad's symbolic rules apply (after `uop-lower`, after `uop-expand`,
    after `uop-target-legalize`), there with `region-simplify=disabled` (a
    kernel's body is one block without nested regions, where region
    simplification finds nothing the rewrite does not, at a tenth of the
    pass's time), and, in place of `canonicalize`, on the module after the
    conversions out of the uop dialect. The instances a pipeline builder
    makes share one frozen pattern set (`createUOpCanonicalize(cache)`),
    which upstream's would each build.
  }];
  let options = [
    Option<"regionSimplifyLevel", "region-simplify", "mlir::GreedySimplifyRegionLevel",
           /*default=*/"mlir::GreedySimplifyRegionLevel::Normal",
           "Control-flow simplification of the region tree, as canonicalize's option",
           [{::llvm::cl::values(
             clEnumValN(mlir::GreedySimplifyRegionLevel::Disabled, "disabled",
                        "No control-flow simplification"),
             clEnumValN(mlir::GreedySimplifyRegionLevel::Normal, "normal",
                        "Simple control-flow simplifications (e.g. dead argument elimination)"),
             clEnumValN(mlir::GreedySimplifyRegionLevel::Aggressive, "aggressive",
                        "Also merge blocks"))}]>,
    Option<"testRanges", "test-ranges", "bool", /*default=*/"false",
           "For tests, as canonicalize's test-convergence: answer every range query by a "
           "fresh walk too; a remembered range that differs is an error at its value">
  ];
}

def UOpDevectorize : Pass<"uop-devectorize", "::mlir::uop::KernelOp"> {
  let summary = "tinygrad's devectorizer: loads and stores of consecutive elements as vector accesses";
  let description = [{
    Runs after `uop-expand`, canonicalize and CSE, on lowered kernels, as
    tinygrad's devectorizer (seed 001: `load_store_folding`,
    `split_load_store`) does with the lanes of an expanded LOAD or STORE:
    - LOADs of one pointer with one alt value and the same deps are first
      one LOAD, as in tinygrad's hash-consed graph (CSE keeps such copies
      apart where a STORE sits between them in the block);
    - LOADs of one kernel parameter or shared buffer under one gate, one alt
      value and one BARRIER, at a constant distance from each other (one
      base plus constants, or one expression with constants in different
      places), are grouped; each run of consecutive elements is split into
      chunks of 8, 4 or 2 elements (at most 16 bytes) whose first index is
      a multiple of the chunk (from the constant factor of the index math:
      buffers are 16-byte aligned), and each chunk becomes one vector LOAD
      through a pointer cast, its lanes GEPs of it;
    - the STOREs of the SINK, and those a BARRIER waits for, are grouped and
      split the same way (one gate, consecutive elements), each chunk one
      vector STORE of a VECTORIZE of the values;
    - everything else stays scalar. The body is then sorted so that each
      vector load comes before its users.

    ```mlir
    // two stores of out[2g] and out[2g+1] become
    %p = uop.cast %q : !uop.ptr<f32, 16> -> !uop.ptr<vector<2xf32>, 8>
    %s = uop.store %p, %v : !uop.ptr<vector<2xf32>, 8>
    ```
  }];
}

def UOpAttachTarget : Pass<"uop-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach the target description (#uop.target) to the module";
  let description = [{
    Sets the module's `uop.target` attribute to the `#uop.target` of `chip`
    with that chip's defaults (tinygrad's launch limits, tensor cores, native
    half, approximate and other ops); the passes read it from there. `host`
    is the CPU (tinygrad's C backend), which the GPU passes refuse. A module
    that already has a target for `chip` keeps it, so a target written with
    other limits or tensor cores (bf16, tf32) survives the pipelines; a
    target for another chip is replaced. An unknown chip is an error that
    lists the known ones.

    ```mlir
    // uop-opt --uop-attach-target="chip=sm_80"
    module attributes {uop.target = #uop.target<"sm_80">} { ... }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string",
           /*default=*/"::mlir::uop::TargetAttr::kDefaultChip.str()",
           "The GPU architecture (sm_XX) or host; an unknown one is an error listing the known ones">
  ];
  let dependentDialects = ["::mlir::uop::UOpDialect"];
}

def UOpDecomposeMath : Pass<"uop-decompose-math", "::mlir::uop::KernelOp"> {
  let summary = "tinygrad's decompositions of the math ops the target lacks and of division by constants";
  let description = [{
    tinygrad's late rewrites of uop/transcendental.py, as
    codegen/devectorizer.py applies them: POW becomes `xpow` and THREEFRY
    tinygrad's `threefry2x32` (always: no target has them; symbolic.py),
    and EXP2, LOG2 and SIN of f16/f32/f64 the
    target has no instruction for (`#uop.target`'s `native_ops`, see
    TargetAttr) become `xexp2`, `xlog2` and `xsin` (with Payne-Hanek
    reduction beyond 30); SQRT without an instruction becomes
    `xpow(x, 0.5)`. A bf16 op is decomposed in f32 and rounded back (tinygrad
    has no bf16 decomposition). The result is the same graph of ALU ops
    tinygrad builds, so that the host computes tinygrad's CPU results bit for
    bit (with `uop-fuse-mulacc` after it).

    IDIV and MOD of a scalar integer by a constant d > 1 become what
    tinygrad's late rewrites make of them, where they give C's truncated
    results for every value in the dividend's range (tinygrad's vmin and
    vmax): for d = 2^k, `x >> k` (after tinygrad's `x + (x < 0 ? d - 1 :
    0)` where x may be negative) and, where x is never negative, `x & (d -
    1)`; for other d and a never negative x, tinygrad's `fast_idiv`, `(x *
    m) >> s` (Hacker's Delight's magic numbers for x's range), in x's dtype
    or, cast, the next wider one (si32 to si64). Any other MOD is `x - d *
    (x // d)`, which keeps C's sign (tinygrad's MOD by 2^k is an AND whatever
    the sign); a division none of these fit stays. ptxas turns a PTX div or
    rem into a division routine even by a constant, so the direct printer's
    kernels need these (LLVM's optimizer finds them itself).

    ```mlir
    // uop-opt --uop-attach-target=chip=host --uop-decompose-math
    %y = uop.exp2 %x : f32     // becomes the polynomial of xexp2
    %q = uop.idiv %i, %c4 : si32  // uop.shr %i, %c2 where %i >= 0
    ```
  }];
  let dependentDialects = ["::mlir::uop::UOpDialect"];
}

def UOpCExpressions : Pass<"uop-c-expressions", "::mlir::uop::KernelOp"> {
  let summary = "Float expressions as tinygrad's C renderer writes them";
  let description = [{
    The host computes what clang computes from tinygrad's C, whose float
    expressions are not the uop graph as is (renderer/cstyle.py):
    - `x * -1` is `-x` and `x + -y` is `x - y` (its late rewrites);
    - an ADD or MUL operand that is itself an ADD (MUL) with no other use is
      written inline without its parentheses (strip_parens), so
      `x + (y + z)` is evaluated as `(x + y) + z`.
    `uop-fuse-mulacc` then fuses products as clang's contraction does. The
    CPU pipeline runs both; they change floats only.

    ```mlir
    %s = uop.add %y, %z : f32
    %r = uop.add %x, %s : f32   // -> uop.add (uop.add %x, %y), %z
    ```
  }];
  let dependentDialects = ["::mlir::uop::UOpDialect"];
}

def UOpFuseMulAcc : Pass<"uop-fuse-mulacc", "::mlir::uop::KernelOp"> {
  let summary = "Fuse float a * b + c into MULACC where the target does";
  let description = [{
    On a target with `mulacc` in `native_ops` (PTX), every float
    `ADD(MUL(a, b), c)` (either operand order) becomes `MULACC(a, b, c)`,
    tinygrad's late rewrite; it renders as `fma.rn`. On the host, where
    tinygrad's C is compiled with clang's default `-ffp-contract=on`, only a
    product with no other use is fused (tinygrad's C renderer writes such a
    value inline, and clang contracts `a*b+c` within one expression), and
    also `a*b - c` and `a - b*c`; the host's MULACC is LLVM's `fmuladd`,
    which is fused where the CPU has FMA, as `-march=native` makes it. A
    REDUCE that sums products fuses in the code generator by the same rule.

    ```mlir
    %p = uop.mul %a, %b : f32
    %s = uop.add %p, %c : f32   // -> uop.mulacc %a, %b, %c : f32
    ```
  }];
  let dependentDialects = ["::mlir::uop::UOpDialect"];
}

def UOpGPUDims : Pass<"uop-gpu-dims", "::mlir::uop::KernelOp"> {
  let summary = "tinygrad's gpudims: global and local RANGEs to grid and block indices";
  let description = [{
    Replaces the kernel's `global` RANGEs by block indices (`uop.special
    "gidxN"`) and its `local` RANGEs by thread indices (`"lidxN"`), as
    tinygrad's codegen/gpudims.py does, within the limits of the module's
    `#uop.target`:
    - global axes are taken last to first, so `gidx0` is the innermost
      (fastest-varying) axis; local axes first to last;
    - more than three dimensions, or a dimension over its maximum: adjacent
      dimensions are merged (`(a, b, c, d) -> (ab, c, d)`) and each original
      index is recovered with `%` and `//`; failing that, a dimension over
      its maximum is split by its smallest factor into the next one;
    - a kernel whose dimensions cannot be fitted is an error naming them;
    - a dimension of symbolic size (computed from the kernel's
      `uop.define_var`s alone) becomes `uop.special "gidxN" size %v max B`,
      B its upper bound; as in tinygrad, a kernel with such a dimension has
      its dimensions neither merged nor split, so each bound must fit. The
      size's computation moves to the top of the body with the SPECIALs.
    The SPECIAL sizes are the launch dimensions: grid = the gidx sizes,
    block = the lidx sizes (1 where absent).
  }];
}

def UOpTargetLegalize : Pass<"uop-target-legalize", "::mlir::uop::KernelOp"> {
  let summary = "Rewrite a lowered kernel into ops the target has (the PTX renderer's extra_matcher)";
  let description = [{
    The rewrites of tinygrad's PTX renderer (renderer/ptx.py `ptx_matcher`)
    that change uop ops, driven by the module's `#uop.target`:
    - an f16 ALU op not in the target's `half_ops` is computed in f32 and
      cast back (`recip`, `log2`, `sin`, `sqrt`, `mulacc`, ...); bf16, which
      PTX has no arithmetic for before sm_90, is computed in f32 for every
      ALU op;
    - comparisons of bools become bit ops: `x != y` is `x ^ y`, `x < y` is
      `(x ^ true) & y`, `x == y` is `(x ^ y) ^ true`;
    - shift amounts become `u32` (PTX's `shl`/`shr` take an unsigned 32-bit
      amount) when the amount is at most 32 bits wide or its range is known
      to fit, so that the value, read as unsigned, is the same;
    - a product of halves cast to f32, `cast<f32>(a * b)`, is computed in
      f32 from the operands: exactly the product, as tinygrad's CPU backend
      and the tensor cores give it (the PTX renderer's `mul.f16` would round
      it to half first; the corpus's expected values are the exact ones);
    - a half `mulacc` by +1 or -1 (tinygrad's `z + x`, `z - x`) is a half
      `add` or `sub` of `z` and `x` where the target has half `add` (PTX's
      `sub.f16` stands beside `add.f16`): the f32 `mulacc` rounds `z +- x`
      to f32 and then to f16, which is f16's own rounding of it (f32's 24
      bits >= 2 * 11 + 2), so the bits are the same without the
      conversions. Not where `x` or `z` is a half product, which the f32
      `mulacc` takes unrounded (the rule above).
    Bool buffers are bytes (`u8`) in memory and transcendentals use PTX's
    approximate instructions: those two adaptations happen in
    `convert-uop-to-gpu`, which reads the same target.
  }];
}

#endif
