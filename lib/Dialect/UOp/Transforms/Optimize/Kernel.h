//===- Kernel.h - tinygrad's Kernel: opts at the shape level ---*- C++ -*-===//
//
// tinygrad's opt/kernel.py: the ShapeTrackers of a kernel AST (one per
// buffer op, two per REDUCE_AXIS, one for the full shape) reshaped and
// permuted together as opts are applied, then written back into the AST.
// The axes of the shape are ordered
//   <global> <local> <grouped reduce> <reduce> <upcast/unroll>
// and an opt's axis indexes that shape as tinygrad's does.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_DIALECT_UOP_TRANSFORMS_OPTIMIZE_KERNEL_H
#define UOP_LIB_DIALECT_UOP_TRANSFORMS_OPTIMIZE_KERNEL_H

#include "Opt.h"
#include "SymbolicShape.h"

#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

/// An opt's legality check: the enclosing function (returning an
/// llvm::Error or Expected) fails with `msg` unless `cond`.
#define CHECK(cond, msg)                                                                           \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      return llvm::createStringError(llvm::Twine(msg));                                            \
  } while (false)

namespace mlir::uop {

using shape::prod;

/// tinygrad's TensorCoreOptions: where the TC's N, M and K axes are, whether
/// N and M still exist (an opt may have used them up), and the pads needed.
struct TCOptions {
  int64_t axes[3];
  bool axesExist[2] = {true, true};
  SmallVector<std::pair<int64_t, int64_t>> pads; // (axis, multiple)

  /// fix_axes: `removed` was dropped from the shape.
  void fixAxes(int64_t removed);
  bool operator==(const TCOptions &o) const {
    return llvm::equal(axes, o.axes) && llvm::equal(axesExist, o.axesExist) && pads == o.pads;
  }
};

/// How STAGE copies one tensor-core operand through shared memory
/// (StagedTensorCores.cpp): the block's tile of it per reduce step, the
/// tile's strides in shared memory, and how ldmatrix reads the fragments.
struct StagedOperand {
  int64_t buf = -1;                  // in bufs
  shape::View frag;                  // its view, swizzled onto the lanes by the TC opt
  int64_t rows = 0, cols = 0;        // the tile: rows of cols contiguous elements
  int64_t pitch = 0;                 // elements between rows in the buffer
  SmallVector<int64_t> smemStrides;  // per axis, in the tile in shared memory (rows cols apart)
  SmallVector<int64_t> laneStrides;  // per TC lane axis: the ldmatrix row address it moves
  int64_t count = 0;                 // ldmatrix's matrices
  bool trans = false;                // ldmatrix .trans: the tile is contiguous along M or N
  int64_t mnStride = 0, kStride = 0; // in the buffer: between consecutive M (N) and K
  std::optional<std::array<int64_t, 3>> swizzle; // #uop.swizzle's bits, base, shift
  bool conflictFree = false; // ldmatrix rows on distinct banks: swizzled, or of 16 bytes
  // WGMMA: an N-major B wider than 64 columns is staged as panels of 64
  // columns (128-byte rows), each rows x 64, one after the other.
  int64_t panels = 1;
};

struct StagePlan {
  int64_t stages = 0, axis = 0; // buffers; the reduce loop's axis in the shape
  StagedOperand operands[2];    // A, B
  // WGMMA: the wgmma's N, the axis of its blocks of 8 columns (-1: one
  // block), whether B's tile is K-major (A's always is), and each tile's
  // layout: swizzle, LBO, SBO in bytes.
  bool wgmma = false, bKMajor = false;
  int64_t wgmmaN = 0, nBlockAxis = -1;
  // TMA: each operand's tile (each panel of it) copied as a box of
  // tmaBox[i] = (columns, rows), tmaPitch[i] elements between rows.
  bool tma = false;
  std::array<std::array<int64_t, 2>, 2> tmaBox{};
  std::array<int64_t, 2> tmaPitch{};
  // In clusters (CLUSTER): the blocks that share operand i's tile, each
  // copying sharers[i] of its rows and multicasting them (1: no sharing).
  std::array<int64_t, 2> sharers{1, 1};
  // SPLITK: the rounds of its exchange that fit beside the buffers.
  int64_t splitRounds = 1;
  std::array<std::array<int64_t, 3>, 2> tileLayout{};
};

class OptKernel {
public:
  /// The kernel's shape-level state; an error on the kernel (and nullopt)
  /// when it is not an AST tinygrad's Kernel accepts.
  static std::optional<OptKernel> create(KernelOp kernel, const OptTarget &target);
  /// Whether a VIEW of the kernel depends on its Variables.
  static bool hasSymbolicViews(KernelOp kernel);

  /// Kernel.apply_opt; an error (tinygrad's KernelOptError) says why the opt
  /// is illegal here, and the state is then unspecified: the caller stops.
  llvm::Error applyOpt(const Opt &opt, bool appendOpt = true);
  /// Kernel.get_optimized_ast: the new views, reduce axes, grouped reduces
  /// through DEFINE_LOCAL, and the #uop.kernel_info.
  void writeBack();

  int64_t shapeLen() const { return sts[0].rank(); }
  ArrayRef<int64_t> fullShape() const { return sts.back().shape(); }
  ArrayRef<int64_t> outputShape() const { return sts[0].shape(); }
  int64_t firstUpcast() const { return shapeLen() - upcasted; }
  int64_t firstReduce() const;
  int64_t globalDims() const { return firstReduce() - localDims; }
  ReduceAxisOp reduceop() const { return reduceops.empty() ? ReduceAxisOp() : reduceops[0]; }
  /// The index of a buffer op (LOAD, STORE, ...) in `bufs`, or -1.
  int64_t bufIndex(Operation *op) const;

  /// Whether the kernel's shapes depend on its Variables: then `symSts` hold
  /// the ShapeTrackers and `sts` their upper bounds.
  bool symbolic() const { return !symSts.empty(); }
  /// Whether axis `axis` of sts[st] (the full shape by default) is symbolic
  /// (tinygrad: not an int).
  bool isSymbolic(int64_t axis, int64_t st = -1) const;
  /// tinygrad's `full_shape[axis] % amount == 0`: false on a symbolic axis.
  bool divides(int64_t axis, int64_t amount) const;

  struct UpcastedAxis {
    int64_t size;
    std::optional<int64_t> stride;
    bool reduced;
  };
  /// Kernel.upcasted_axis: the upcast axes as seen by sts[i].
  SmallVector<UpcastedAxis> upcastedAxis(int64_t i) const;

  KernelOp kernel;
  OptTarget target;
  SmallVector<Operation *> bufs; // buffer ops, last first (bufs[0]: the output)
  SmallVector<ViewOp> bufViews;  // the VIEW of each
  SmallVector<ReduceAxisOp> reduceops;
  std::vector<shape::ShapeTracker> sts;
  std::vector<shape::SymShapeTracker> symSts; // empty unless symbolic()
  shape::VarRanges varRanges;
  int64_t localDims = 0, upcasted = 0, groupForReduces = 0;
  bool dontUseLocals = false;
  // Per st: whether the kernel as written masks it (a pad of the tensor
  // graph), as against masks PADTO adds; and whether PADTO padded a reduce
  // axis (its padding must read as 0). STAGE tells them apart.
  SmallVector<bool> maskedBeforeOpts;
  bool paddedReduce = false;
  SmallVector<Opt> appliedOpts;
  // The TC opt: the tensor core chosen (a copy, not a pointer into
  // target.tensorCores, so that copies and moves of the kernel stay valid),
  // 1 (WMMA) or 2 (its shapes only), and where its axes are.
  std::optional<TensorCoreDesc> tensorCore;
  int64_t useTensorCores = 0;
  std::optional<TCOptions> tcOpts;
  // STAGE, WGMMA and TMA: the number of shared-memory buffers of the staged
  // operands; whether wgmma multiplies them; whether the TMA copies them.
  int64_t stages = 0;
  bool wgmma = false, tma = false;
  // CLUSTER: blocks per thread-block cluster along each global axis; empty
  // without clusters.
  SmallVector<int64_t> cluster;
  // SPLITK: the global axis whose two blocks each sum half the reduce, or
  // -1; the rounds its exchange takes (STAGE, WGMMA and TMA choose: as few
  // as fit beside their buffers).
  int64_t splitAxis = -1, splitRounds = 1;

  /// How SPLITK's blocks exchange their partial sums in `rounds` rounds
  /// (SplitK.cpp): the output's upcast axis whose values they finish half
  /// each (-1: none of even size), the axis whose values the rounds take
  /// in turn (-1: one round; none: no axis they divide), and a block's
  /// buffer of the values its peer gives it in a round, `elements` in all:
  /// a thread's values (valueAxes; the partition axis counted half, the
  /// round axis 1/rounds) valueStrides apart, the threads threadStride
  /// apart.
  struct SplitPlan {
    int64_t partition = -1, half = 0, threads = 0, threadStride = 1, elements = 0;
    int64_t roundAxis = -1, rounds = 1;
    SmallVector<int64_t> valueAxes, valueStrides;
  };
  std::optional<SplitPlan> splitPlan(int64_t rounds = 1) const;
  /// The shared memory SPLITK's exchange takes in `rounds` rounds (0
  /// without SPLITK, -1 if the rounds do not divide its values).
  int64_t splitKBytes(int64_t rounds = 1) const;
  /// The fewest rounds (a power of 2) whose exchange fits in `bytes`; 0
  /// if none does.
  int64_t splitRoundsWithin(int64_t bytes) const;
  /// CLUSTER: `st` (of any shape that has the kernel's global axes) with
  /// sum_a (g_a % cluster[a]) * extra[a] added to its index, g_a the block's
  /// place along global axis a: its outer view split, each global axis into
  /// (g_a / cluster[a], g_a % cluster[a]), under a row-major view of its
  /// shape. A mask (never on a global axis) stays on the split view.
  shape::ShapeTracker clusteredView(shape::ShapeTracker st, ArrayRef<int64_t> extra) const;

  /// How STAGE:axis:stages (WGMMA:axis:stages with `wgmma`, TMA:axis:stages
  /// with `tma` too) would stage the TC's operands, or why it cannot.
  llvm::Expected<StagePlan> planStaging(int64_t axis, int64_t stages, bool wgmma = false,
                                        bool tma = false) const;

private:
  OptKernel(KernelOp kernel, const OptTarget &target) : kernel(kernel), target(target) {}
  /// Every st reshaped (a symbolic one by `symReshape`, which fails where
  /// it cannot be exact), then permuted.
  llvm::Error reshapeAndPermute(function_ref<shape::Shape(ArrayRef<int64_t>)> newShape,
                                ArrayRef<int64_t> perm,
                                function_ref<bool(shape::SymShapeTracker &)> symReshape = {});
  /// Builds symSts from the kernel's views (create, for a symbolic kernel).
  llvm::Error createSymbolic();
  /// sts from symSts: each symbolic entry as its upper bound.
  llvm::Error projectSymbolic();
  llvm::Error shiftTo(int64_t axis, int64_t amount, bool top, std::optional<int64_t> insertBefore);
  llvm::Expected<bool> simplifyOnes();
  llvm::Error simplifyMergeAdjacent();
  int64_t realAxis(const Opt &opt) const;
  llvm::Error applyPadTo(int64_t axis, int64_t amt);
  // TensorCores.cpp
  llvm::Error applyTC(const Opt &opt);
  std::optional<TCOptions> createTCOpts(ReduceAxisOp r, const TensorCoreDesc &tc, int64_t axis,
                                        int64_t level) const;
  void writeTensorCore(ReduceAxisOp r, ArrayRef<int64_t> axes);
  /// get_tc_swizzle_st's permutation of operand 0 (A) or 1 (B): the TC's
  /// local and upcast axes moved so each lane reads its fragment.
  SmallVector<int64_t> tcSwizzle(int operand) const;
  /// The axes of a fragment of `elements` elements per thread (a CONTRACT's
  /// or UNROLL's), the first slowest.
  SmallVector<int64_t> tcFragmentAxes(int64_t elements) const;
  // SplitK.cpp
  llvm::Error applySplitK(int64_t axis, int64_t amt);
  /// The exchange of r's partial sums between the blocks of a SPLITK pair
  /// at r, in splitRounds rounds, each block storing its half of the
  /// output (a store per round).
  void writeSplitK(ReduceAxisOp r);
  // StagedTensorCores.cpp
  llvm::Error applyStage(const Opt &opt);
  /// WGMMA's part of planStaging: the warpgroup, the wgmma's N, the tiles'
  /// layouts as wgmma reads them, or why the staged tiles do not fit it.
  llvm::Error planWgmma(StagePlan &plan) const;
  /// TMA's part: each tile as boxes of a 2d tensor map of its buffer.
  llvm::Error planTma(StagePlan &plan) const;
  /// The shared-memory buffers, copies and barrier of STAGE at `b`, and the
  /// A and B fragments each lane reads from there (WGMMA: the starts of the
  /// warpgroup's A and B tiles there, and in `barrier` the barrier that
  /// publishes them).
  std::pair<Value, Value> writeStagedOperands(OpBuilder &b, Location loc, Value *barrier);
};

/// tinygrad's hand_coded_optimizations for `k` (on a copy): the opts to
/// apply, or an error naming the opt that unexpectedly failed.
llvm::Expected<SmallVector<Opt>> handCodedOptimizations(const OptKernel &k);
/// tinygrad's Kernel.apply_tensor_cores(1) on a copy of `k`: the TC opt and
/// the hand-coded opts that go with it, or nothing when no tensor core fits.
std::optional<SmallVector<Opt>> tensorCoreOptimizations(const OptKernel &k);
/// The tensor-core opts for staged operands (StagedTensorCores.cpp): of
/// tinygrad's tiling (`tcOpts`) and wider or padded warp tiles, the one
/// that leaves the busiest tensor core the least work, then UNROLL for
/// k-steps of 32 where it fits and STAGE; or why they cannot be staged.
llvm::Expected<SmallVector<Opt>> stagedTensorCoreOptimizations(const OptKernel &k,
                                                               ArrayRef<Opt> tcOpts);
/// The tensor-core opts for Hopper's wgmma (sm_90a): TC, a warpgroup per
/// block (LOCAL 4 down M), UPCAST 8 on N and 2 on M (two m64n64 wgmmas),
/// UNROLL for k-steps of 64 (128-byte rows) where K allows, then WGMMA (or
/// `copier`: TMA, its tiles copied by the TMA); with `clustered`, 64x128
/// tiles first and CLUSTER opts before TMA, the blocks of a cluster sharing
/// their tiles; with `splitK` too, 128x128 tiles first and SPLITK before
/// the CLUSTER opts; or why they cannot be.
llvm::Expected<SmallVector<Opt>> wgmmaTensorCoreOptimizations(const OptKernel &k,
                                                              OptOp copier = OptOp::WGMMA,
                                                              bool clustered = false,
                                                              bool splitK = false);

} // namespace mlir::uop

#endif
