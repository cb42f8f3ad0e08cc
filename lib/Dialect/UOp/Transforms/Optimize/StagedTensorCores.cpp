//===- StagedTensorCores.cpp - STAGE: tensor-core operands via shared memory -===//
//
// Not tinygrad's. After the TC opt each warp reads its mma fragments straight
// from global memory. STAGE:axis:S instead copies, per step of the reduce
// loop `axis`, the block's tile of A and of B into shared memory with
// cp.async (16-byte pieces, consecutive threads on consecutive bytes), into
// a ring of S buffers, and reads the fragments with ldmatrix. Per step kt:
//
//   copy tiles kt + S-2 -> buffer (kt + S-2) % S; commit; wait until at
//   most S-2 groups are in flight (tile kt has landed); barrier; ldmatrix
//   from buffer kt % S; mma
//
// (tiles 0 .. S-3 are copied before the loop). The one barrier per step both
// publishes tile kt and tells every thread that the others are done with
// step kt-1's buffer, which is the next one overwritten two steps later: S
// buffers keep S-2 tiles in flight. The buffers are swizzled (#uop.swizzle)
// so that neither the copies nor the ldmatrix rows conflict on banks.
//
// WGMMA multiplies the staged tiles with Hopper's wgmma instead (planWgmma);
// TMA also copies them with Hopper's tensor memory accelerator: the
// block's first thread copies each tile as a box, completing on the
// buffer's mbarrier, which every thread waits on instead of its copy groups
// (planTma, copyTma); in thread-block clusters (CLUSTER), the blocks that
// read the same tile each copy a share of it and multicast it to all of
// them, and the barriers are the cluster's.
//
// Everything here is derived from the views the TC opt left and checked
// against the PTX ISA's fragment layouts (mmaFragmentCoord): the operand's
// tile must be a box of whole 16-byte rows in its buffer, and each lane's
// fragment must sit where the ISA says, or STAGE is refused.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "uop/Support/SubPartitions.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace mlir::uop;
using shape::ShapeTracker;
using shape::View;

namespace {

/// The tile a block reads per reduce step: `rows` rows of `cols` contiguous
/// elements, `pitch` apart, from the strides of the axes that move inside
/// the block. Fails unless those axes enumerate exactly such a box.
llvm::Error findBox(ArrayRef<std::pair<int64_t, int64_t>> sizeAndStride, int64_t &rows,
                    int64_t &cols, int64_t &pitch) {
  SmallVector<std::pair<int64_t, int64_t>> moving; // (stride, size)
  for (auto [size, stride] : sizeAndStride)
    if (size > 1 && stride != 0)
      moving.push_back({stride, size});
  llvm::sort(moving);
  size_t i = 0;
  cols = 1;
  for (; i < moving.size() && moving[i].first == cols; ++i)
    cols *= moving[i].second;
  CHECK(cols > 1, "its elements are not contiguous within the block's tile");
  pitch = i < moving.size() ? moving[i].first : cols;
  CHECK(pitch >= cols, "the tile's rows overlap");
  rows = 1;
  for (; i < moving.size() && moving[i].first == pitch * rows; ++i)
    rows *= moving[i].second;
  CHECK(i == moving.size(), "the block's tile is not a box of rows in the buffer");
  return llvm::Error::success();
}

/// The swizzle that keeps the 16-byte rows of eight consecutive rows of
/// `rowBytes` (what an ldmatrix matrix reads), and the 128 bytes eight
/// threads copy at once, on distinct banks: the row index (mod 8, or 4 or 2
/// for rows under 128 bytes) XORed into the 16-byte chunk index. None for
/// 16-byte rows (already conflict-free) or rows that are no power of two.
std::optional<std::array<int64_t, 3>> swizzleFor(int64_t rowBytes) {
  if (rowBytes <= 16 || !llvm::isPowerOf2_64(rowBytes))
    return std::nullopt;
  if (rowBytes == 32)
    return std::array<int64_t, 3>{1, 4, 3};
  if (rowBytes == 64)
    return std::array<int64_t, 3>{2, 4, 3};
  return std::array<int64_t, 3>{3, 4, (int64_t)llvm::Log2_64(rowBytes) - 4};
}

/// `st` without the masks PADTO put on the kernel's output axes, as one
/// view. The elements they hide only enter products that land in outputs
/// the store masks off (PADTO pads the output alike), so a staged tile may
/// hold anything there: the copies read what the unmasked view reaches,
/// except past the end of the buffer (`ptr`), which copy_tile does not
/// copy. Fails where a mask is the kernel's own (a pad of the tensor graph,
/// whose elements must read as 0) or may hide reduced elements.
llvm::Expected<ShapeTracker> withoutPadding(const ShapeTracker &st, bool maskedBeforeOpts,
                                            bool paddedReduce, const ShapeTracker &output,
                                            PtrType ptr) {
  CHECK(!maskedBeforeOpts, "its view is masked in the kernel (a pad: those elements read as 0)");
  CHECK(!paddedReduce, "PADTO padded a reduce axis, whose padding must read as 0");
  CHECK(output.hasMask(), "its view is masked where the output's is not");
  CHECK(ptr.getSize() != PtrType::kUnknownSize,
        "its view is padded and its buffer's size is unknown (copies past the end)");
  // The views without their masks, merged from the innermost. A padded
  // outer view reaches past the end of the one below it (a pad of a
  // reshaped axis): that one's outermost dimension is extended (its stride
  // kept) to cover it; only padding lands there.
  auto unmasked = [](const View &v) { return View::create(v.shape, v.strides, v.offset); };
  View merged = unmasked(st.views[0]);
  for (const View &next : ArrayRef(st.views).drop_front()) {
    View outer = unmasked(next);
    CHECK(outer.offset >= 0 && llvm::all_of(outer.strides, [](int64_t s) { return s >= 0; }),
          "its padded view runs backwards");
    int64_t reach = ShapeTracker{{outer}}.realSize();
    if (reach > merged.size()) {
      CHECK(!merged.shape.empty() && merged.shape[0] > 1,
            "its padded view reaches past an inner view of unknown stride");
      shape::Shape extended = merged.shape;
      extended[0] = llvm::divideCeil(reach, merged.size() / extended[0]);
      merged = View::create(extended, merged.strides, merged.offset);
    }
    std::optional<View> composed = merged.compose(outer);
    CHECK(composed, "its padded view is not a single view without the padding");
    merged = *composed;
  }
  CHECK(merged.offset >= 0 && llvm::all_of(merged.strides, [](int64_t s) { return s >= 0; }),
        "its padded view runs backwards");
  return ShapeTracker{{merged}};
}

} // namespace

/// The buffer op (LOAD) operand `i` (0: A, 1: B) of the TC's product reads.
static Operation *tcSource(ReduceAxisOp r, int i) {
  Value product = r.getSrc();
  if (auto cast = product.getDefiningOp<CastOp>())
    product = cast.getSrc();
  auto mul = product.getDefiningOp<MulOp>();
  if (!mul)
    return nullptr;
  Value src = i == 0 ? mul.getLhs() : mul.getRhs();
  return src.getDefiningOp();
}

ShapeTracker OptKernel::clusteredView(ShapeTracker st, ArrayRef<int64_t> extra) const {
  const View &v = st.views.back();
  ArrayRef<int64_t> full = v.shape;
  int64_t wd = globalDims();
  SmallVector<int64_t> shape, strides;
  std::optional<shape::Mask> mask;
  if (v.mask)
    mask.emplace();
  for (int64_t a = 0; a < (int64_t)full.size(); ++a) {
    if (a < wd) {
      assert((!v.mask || (*v.mask)[a] == std::make_pair<int64_t, int64_t>(0, full[a])) &&
             "a view masked along a global axis");
      shape.append({full[a] / cluster[a], cluster[a]});
      strides.append({cluster[a] * v.strides[a], v.strides[a] + extra[a]});
      if (mask)
        mask->append({{0, full[a] / cluster[a]}, {0, cluster[a]}});
    } else {
      shape.push_back(full[a]);
      strides.push_back(v.strides[a]);
      if (mask)
        mask->push_back((*v.mask)[a]);
    }
  }
  shape::Shape outer(full);
  st.views.back() = View::create(shape, strides, v.offset, mask);
  st.views.push_back(View::create(outer));
  return st;
}

llvm::Expected<StagePlan> OptKernel::planStaging(int64_t axis, int64_t stages, bool wgmma,
                                                 bool tma) const {
  CHECK(tensorCore && useTensorCores == 1, "STAGE stages the tensor cores' operands: TC first");
  CHECK(target.hasAsyncCopy,
        "STAGE needs cp.async and ldmatrix (sm_80 or later), not " + target.name);
  CHECK(!wgmma || target.hasWgmma, "WGMMA needs Hopper's wgmma (sm_90a), not " + target.name);
  const TensorCoreDesc &tc = *tensorCore;
  CHECK(tc.in == TCDType::f16 || tc.in == TCDType::bf16,
        "ldmatrix reads 16-bit elements, not the tensor core's tf32");
  CHECK(reduceops.size() == 1 && groupForReduces == 0, "STAGE needs one reduce, not grouped");
  CHECK(stages >= 2 && stages <= 8, "STAGE takes 2 to 8 buffers, not " + std::to_string(stages));
  int64_t wd = globalDims(), fr = firstReduce(), fu = firstUpcast();
  CHECK(fu - fr == 1,
        "STAGE pipelines the one reduce loop, but the kernel has " + std::to_string(fu - fr));
  CHECK(axis == 0, "the reduce loop is axis 0, not " + std::to_string(axis));
  int64_t kt = fr;
  int64_t tcd = fu, ownEnd = tcd + llvm::Log2_64(tc.k) + tc.countOpts('u');
  int64_t nLanes = tc.countOpts('l');

  StagePlan plan;
  plan.stages = stages;
  plan.axis = kt;
  int64_t smemBytes = 0;
  for (int i = 0; i < 2; ++i) {
    StagedOperand &op = plan.operands[i];
    std::string which = i == 0 ? "A" : "B";
    auto refuse = [&](const Twine &why) {
      return llvm::createStringError("cannot stage " + which + ": " + why);
    };
    Operation *load = tcSource(reduceop(), i);
    op.buf = load && isa<LoadOp>(load) ? bufIndex(load) : -1;
    if (op.buf < 0)
      return refuse("it is not a LOAD of a buffer (a cast one cannot be copied as it is)");
    Type elem = cast<PtrType>(ViewOp(bufViews[op.buf]).getType()).getElementType();
    if (elem != getTCElementType(elem.getContext(), tc.in))
      return refuse("its buffer holds " + std::to_string(elem.getIntOrFloatBitWidth()) +
                    "-bit elements, not the tensor core's");
    ShapeTracker st = sts[op.buf].permute(tcSwizzle(i));
    if (st.hasMask()) {
      llvm::Expected<ShapeTracker> unpadded =
          withoutPadding(st, maskedBeforeOpts[op.buf], paddedReduce, sts[0],
                         cast<PtrType>(ViewOp(bufViews[op.buf]).getType()));
      if (!unpadded)
        return refuse(llvm::toString(unpadded.takeError()));
      st = *unpadded;
    }
    if (st.views.size() != 1)
      return refuse("its view is not a single view");
    op.frag = st.views[0];
    ArrayRef<int64_t> shape = op.frag.shape, strides = op.frag.strides;

    // The axes that move inside the block: locals and upcasts.
    SmallVector<std::pair<int64_t, int64_t>> inner;
    for (int64_t a = wd; a < (int64_t)shape.size(); ++a)
      if (a != kt)
        inner.push_back({shape[a], strides[a]});
    if (llvm::Error e = findBox(inner, op.rows, op.cols, op.pitch))
      return refuse(llvm::toString(std::move(e)));
    int64_t esize = elem.getIntOrFloatBitWidth() / 8, step = 16 / esize;
    bool aligned = op.frag.offset % step == 0 && op.pitch % step == 0 && op.cols % step == 0;
    for (int64_t a = 0; a <= kt; ++a)
      aligned &= (a < wd || a == kt) ? strides[a] % step == 0 : true;
    if (!aligned)
      return refuse("its tile's rows are not 16-byte aligned in the buffer");

    // Where each lane's fragment elements are, against the PTX ISA.
    char name = i == 0 ? 'a' : 'b';
    int64_t ept = i == 0 ? tc.eptA : tc.eptB;
    SmallVector<int64_t> fragAxes = tcFragmentAxes(ept);
    auto offsetOf = [&](int64_t lane, int64_t e) {
      int64_t o = 0;
      for (int64_t b = 0; b < nLanes; ++b)
        o += ((lane >> b) & 1) * strides[wd + b];
      for (auto [j, a] : llvm::enumerate(fragAxes))
        o += ((e >> (fragAxes.size() - 1 - j)) & 1) * strides[a];
      return o;
    };
    int64_t ldRow = 0, ldCol = 0; // the operand's (row, col) strides in the buffer
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t e = 0; e < ept; ++e) {
        auto [r, c] = mmaFragmentCoord(name, tc.k, false, lane, e);
        if (r == 1 && c == 0)
          ldRow = offsetOf(lane, e);
        if (r == 0 && c == 1)
          ldCol = offsetOf(lane, e);
      }
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t e = 0; e < ept; ++e) {
        auto [r, c] = mmaFragmentCoord(name, tc.k, false, lane, e);
        if (offsetOf(lane, e) != r * ldRow + c * ldCol)
          return refuse("its fragments are not in the PTX ISA's layout");
      }
    // ldmatrix reads rows of 8 elements along the tile's contiguous
    // direction; a fragment register holds two elements along K.
    int64_t kStride = i == 0 ? ldCol : ldRow, mnStride = i == 0 ? ldRow : ldCol;
    if (kStride != 1 && mnStride != 1)
      return refuse("it is contiguous neither along K nor along " + std::string(i ? "N" : "M"));
    op.trans = kStride != 1;
    op.count = ept / 2;
    op.mnStride = mnStride;
    op.kStride = kStride;

    // The tile in shared memory: rows of `cols`, so a buffer offset
    // r * pitch + c is r * cols + c there.
    auto inTile = [&](int64_t o) { return o / op.pitch * op.cols + o % op.pitch; };
    op.smemStrides.assign(shape.size(), 0);
    for (int64_t a = wd; a < (int64_t)shape.size(); ++a)
      if (a != kt && (a < tcd || a >= ownEnd))
        op.smemStrides[a] = inTile(strides[a]);
    // Lane 8j + r gives row r of matrix j (register j): the element lane
    // 4r holds first there, or with trans, lane r/2's in half r % 2.
    auto address = [&](int64_t l) {
      int64_t ll = l % (8 * op.count), j = ll / 8, r = ll % 8;
      auto [row, col] = op.trans ? mmaFragmentCoord(name, tc.k, false, r / 2, 2 * j + r % 2)
                                 : mmaFragmentCoord(name, tc.k, false, 4 * r, 2 * j);
      return inTile(row * ldRow + col * ldCol);
    };
    op.laneStrides.clear();
    for (int64_t b = 0; b < nLanes; ++b)
      op.laneStrides.push_back(address(int64_t(1) << b) - address(0));
    for (int64_t l = 0; l < 32; ++l) {
      int64_t linear = 0;
      for (int64_t b = 0; b < nLanes; ++b)
        linear += ((l >> b) & 1) * op.laneStrides[b];
      if (address(0) != 0 || address(l) != linear)
        return refuse("its ldmatrix addresses are not linear in the lanes");
    }
    // The rows an ldmatrix matrix reads are this far apart in the tile (a
    // tile row when the box has several; less when its rows are contiguous
    // and merged into one): the swizzle is for rows of that size.
    int64_t rowStep = inTile(kStride == 1 ? mnStride : kStride);
    op.swizzle = swizzleFor(rowStep * esize);
    int64_t tileBytes = op.rows * op.cols * esize;
    if (op.swizzle &&
        tileBytes % (int64_t(1) << ((*op.swizzle)[0] + (*op.swizzle)[1] + (*op.swizzle)[2])) != 0)
      op.swizzle.reset();
    op.conflictFree = op.swizzle || rowStep * esize <= 16;
    smemBytes += stages * tileBytes;
  }
  if (wgmma)
    if (llvm::Error e = planWgmma(plan))
      return e;
  if (tma) {
    if (llvm::Error e = planTma(plan))
      return e;
    smemBytes += 8 * stages; // an mbarrier per buffer
  }
  if (splitAxis >= 0) { // SPLITK's exchange, in as few rounds as fit beside the buffers
    plan.splitRounds = splitRoundsWithin(target.sharedMax - smemBytes);
    CHECK(plan.splitRounds > 0,
          "exceeds maximum shared memory size: " + std::to_string(stages) + " buffers need " +
              std::to_string(smemBytes) + " bytes, and SPLITK's exchange " +
              std::to_string(splitKBytes(1)) + " in one round (no number of rounds fits), max " +
              std::to_string(target.sharedMax));
    smemBytes += splitKBytes(plan.splitRounds);
  }
  CHECK(smemBytes <= target.sharedMax,
        "exceeds maximum shared memory size: " + std::to_string(stages) + " buffers need " +
            std::to_string(smemBytes) + " bytes, max " + std::to_string(target.sharedMax));
  return plan;
}

llvm::Error OptKernel::planWgmma(StagePlan &plan) const {
  const TensorCoreDesc &tc = *tensorCore;
  CHECK(tc.m == 16 && tc.n == 8 && tc.k == 16 && tc.out == TCDType::f32,
        "WGMMA builds on the m16n8k16 tensor core with f32 accumulators");
  int64_t wd = globalDims(), fr = firstReduce(), tcd = firstUpcast();
  int64_t ownEnd = tcd + llvm::Log2_64(tc.k) + tc.countOpts('u');
  int64_t nLanes = tc.countOpts('l');
  const StagedOperand &A = plan.operands[0];
  StagedOperand &B = plan.operands[1];
  ArrayRef<int64_t> sa = A.frag.strides, sb = B.frag.strides;
  ArrayRef<int64_t> full = fullShape();
  // The warpgroup: the TC's 32 lanes, then one LOCAL of 4 warps down M, 16
  // rows apart (wgmma's warp w holds rows 16w .. 16w+15).
  CHECK(fr - wd == nLanes + 1 && full[wd + nLanes] == 4 && sa[wd + nLanes] == 16 * A.mnStride &&
            sb[wd + nLanes] == 0,
        "WGMMA needs a warpgroup: the TC's lanes and then LOCAL 4 on M as the block's threads");
  // A is read along K (K-major); B along N (N-major) or along K (K-major:
  // B = X^T for a row-major X, as in attention's Q K^T), whichever its
  // buffer is contiguous in (planStaging checked it is one of them).
  CHECK(A.kStride == 1, "WGMMA reads A K-major: its buffer must be contiguous in K");
  plan.bKMajor = B.kStride == 1;
  // The other axes inside the block: blocks of 64 rows (a wgmma each),
  // blocks of 8 columns (one wgmma's N), k16 steps.
  int64_t nBlocks = 1, kSteps = 1;
  for (int64_t a = ownEnd; a < (int64_t)full.size(); ++a) {
    if (full[a] == 1)
      continue;
    if (sa[a] == 64 * A.mnStride && sb[a] == 0)
      continue; // a wgmma per 64 rows
    if (sa[a] == 0 && sb[a] == 8 * B.mnStride && plan.nBlockAxis < 0) {
      plan.nBlockAxis = a;
      nBlocks = full[a];
      continue;
    }
    if (sa[a] == 16 && sb[a] == 16 * B.kStride) {
      kSteps *= full[a];
      continue;
    }
    return llvm::createStringError("WGMMA cannot place axis " + std::to_string(a) +
                                   " of the block in a wgmma");
  }
  plan.wgmmaN = 8 * nBlocks;
  // An N-major B of more than 64 columns: panels of 64 columns, each
  // 16 kSteps rows of 128 bytes under the 128-byte swizzle, the next panel
  // LBO (a panel) further on, as the descriptor's MN-major layout has it.
  if (!plan.bKMajor && plan.wgmmaN > 64) {
    // The tile is 16 kSteps rows of N, kStride apart in the buffer
    // (findBox merges rows that are contiguous there: undone here).
    CHECK(plan.wgmmaN % 64 == 0 && B.rows * B.cols == 16 * kSteps * plan.wgmmaN &&
              B.kStride >= plan.wgmmaN,
          "WGMMA needs B's N (" + std::to_string(plan.wgmmaN) +
              ") in panels of 64 columns, its tile's whole rows");
    B.rows = 16 * kSteps;
    B.cols = plan.wgmmaN;
    B.pitch = B.kStride;
    B.panels = plan.wgmmaN / 64;
    B.swizzle = {3, 4, 3};
    for (auto [a, stride] : llvm::enumerate(B.frag.strides)) {
      int64_t r = stride / B.pitch, c = stride % B.pitch;
      if (B.smemStrides[a] != 0)
        B.smemStrides[a] = c / 64 * B.rows * 64 + r * 64 + c % 64;
    }
  }
  // The staged tiles are dense, swizzled by their rows of 32, 64 or 128
  // bytes (#uop.swizzle<1|2|3, 4, 3>: wgmma's swizzles). A K-major tile's
  // rows are the step's K; an N-major B's are the wgmma's N, or a panel's.
  int64_t rowElements[2] = {16 * kSteps, plan.bKMajor ? 16 * kSteps : plan.wgmmaN / B.panels};
  for (int i = 0; i < 2; ++i) {
    const StagedOperand &op = plan.operands[i];
    bool kMajor = i == 0 || plan.bKMajor;
    int64_t rowBytes = 2 * rowElements[i];
    CHECK(op.swizzle && (*op.swizzle)[1] == 4 && (*op.swizzle)[2] == 3 &&
              rowBytes == (int64_t(16) << (*op.swizzle)[0]),
          std::string("WGMMA needs ") + (i ? "B's rows (" : "A's rows (") +
              (kMajor ? "K = " : "N = ") + std::to_string(rowElements[i]) +
              ") to be 32, 64 or 128 bytes of a swizzled tile");
    // Swizzled K-major: 8 rows per SBO (LBO unused); N-major: 8 k per SBO,
    // the next panel of N (a whole panel on) at LBO.
    plan.tileLayout[i] = {rowBytes, kMajor ? 16 : 16 * kSteps * rowBytes, 8 * rowBytes};
  }
  plan.wgmma = true;
  return llvm::Error::success();
}

llvm::Error OptKernel::planTma(StagePlan &plan) const {
  CHECK(plan.wgmma, "TMA copies the tiles wgmma multiplies");
  for (int i = 0; i < 2; ++i) {
    StagedOperand &op = plan.operands[i];
    std::string which = i == 0 ? "A" : "B";
    auto ptr = cast<PtrType>(ViewOp(bufViews[op.buf]).getType());
    int64_t esize = ptr.getElementType().getIntOrFloatBitWidth() / 8;
    // A box's rows are the swizzle's span (the tile's rows as wgmma reads
    // them); findBox merged rows that are contiguous in the buffer.
    int64_t span = plan.tileLayout[i][0] / esize;
    int64_t rows = op.rows, cols = op.cols / op.panels, pitch = op.pitch;
    if (cols != span) {
      CHECK(cols % span == 0 && op.panels == 1 && (rows == 1 || pitch == cols),
            "TMA cannot copy " + which + "'s tile as rows of " + std::to_string(span) +
                " elements");
      rows = rows * cols / span;
      cols = pitch = span;
    }
    CHECK(rows <= 256,
          "TMA copies boxes of at most 256 rows, not " + which + "'s " + std::to_string(rows));
    CHECK(ptr.getSize() != PtrType::kUnknownSize && ptr.getSize() >= pitch &&
              ptr.getSize() / pitch <= INT32_MAX,
          "TMA needs " + which + "'s buffer of a known size, 1 to 2^31 - 1 rows of " +
              std::to_string(pitch) + " elements");
    // The map sees the buffer as rows of `pitch`: a box's row must not run
    // past one (it would read zeros, not the next row's elements). The
    // column of a tile's first element, over every block, step and panel,
    // is at most this sum while it stays below the pitch.
    const View &v = op.frag;
    int64_t lastColumn = v.offset % pitch + (op.panels - 1) * cols;
    bool forward = v.offset >= 0;
    for (int64_t a = 0; a < (int64_t)v.shape.size(); ++a)
      if (a < globalDims() || a == plan.axis) {
        forward &= v.strides[a] >= 0;
        lastColumn += (v.shape[a] - 1) * (v.strides[a] % pitch);
      }
    CHECK(forward && lastColumn + cols <= pitch,
          "TMA cannot copy " + which + "'s tiles: a row of one would cross a row of " +
              std::to_string(pitch) + " elements of its buffer");
    plan.tmaBox[i] = {cols, rows};
    plan.tmaPitch[i] = pitch;
  }
  // CLUSTER: the blocks of a cluster that differ only along global axes
  // an operand's tile does not move with read the same tile; each copies
  // an equal share of its rows and multicasts it to all of them. A share
  // is whole 8-row swizzle atoms, so that it is swizzled as the tile is.
  if (!cluster.empty())
    for (int i = 0; i < 2; ++i) {
      int64_t sharers = 1;
      for (int64_t a = 0; a < globalDims(); ++a)
        if (plan.operands[i].frag.strides[a] == 0)
          sharers *= cluster[a];
      int64_t rows = plan.tmaBox[i][1];
      CHECK(rows % (8 * sharers) == 0,
            std::string(i ? "B" : "A") + "'s tile of " + std::to_string(rows) +
                " rows cannot be shared by the " + std::to_string(sharers) +
                " blocks of a cluster that read it, in shares of whole 8-row swizzle atoms");
      plan.tmaBox[i][1] = rows / sharers;
      plan.sharers[i] = sharers;
    }
  plan.tma = true;
  return llvm::Error::success();
}

llvm::Error OptKernel::applyStage(const Opt &opt) {
  CHECK(!stages, "STAGE is applied once");
  CHECK(opt.axis && opt.arg, "STAGE needs an axis and a number of buffers");
  bool withTma = opt.op == OptOp::TMA;
  llvm::Expected<StagePlan> plan =
      planStaging(*opt.axis, *opt.arg, opt.op == OptOp::WGMMA || withTma, withTma);
  if (!plan)
    return plan.takeError();
  stages = *opt.arg;
  wgmma = opt.op == OptOp::WGMMA || withTma;
  tma = withTma;
  splitRounds = plan->splitRounds;
  appliedOpts.push_back(opt);
  return llvm::Error::success();
}

std::pair<Value, Value> OptKernel::writeStagedOperands(OpBuilder &b, Location loc,
                                                       Value *published) {
  llvm::Expected<StagePlan> planned = planStaging(0, stages, wgmma, tma);
  // (applyStage checked it, and STAGE is the last opt)
  assert(planned && "STAGE was applied to a kernel it does not fit");
  StagePlan &plan = *planned;
  MLIRContext *ctx = kernel.getContext();
  Type voidType = VoidType::get(ctx);
  ArrayRef<int64_t> full = fullShape();
  int64_t kt = plan.axis, steps = full[kt], ahead = plan.stages - 2, wd = globalDims();

  Value local[2], global[2];
  int64_t tile[2];
  for (int i = 0; i < 2; ++i) {
    StagedOperand &op = plan.operands[i];
    tile[i] = op.rows * op.cols;
    global[i] = bufViews[op.buf].getSrc();
    Type elem = cast<PtrType>(global[i].getType()).getElementType();
    auto type = PtrType::get(elem, plan.stages * tile[i], AddressSpace::local);
    SwizzleAttr swizzle;
    if (op.swizzle)
      swizzle = SwizzleAttr::get(ctx, (*op.swizzle)[0], (*op.swizzle)[1], (*op.swizzle)[2]);
    local[i] =
        DefineLocalOp::create(b, loc, type, b.getStringAttr(i == 0 ? "tc_a" : "tc_b"), swizzle);
  }
  auto view = [&](Value buf, ShapeTracker st) -> Value {
    return ViewOp::create(b, loc, buf.getType(), buf, st.toAttr(ctx));
  };
  SmallVector<int64_t> zeros(full.size(), 0);
  // The mask of an op of step `step`: the loop's (-1, for tile kt + ahead)
  // off past the last tile; with `oneThread`, all but the block's first
  // thread off (the TMA's copies and mbarrier ops).
  auto maskOf = [&](int64_t step, bool oneThread) {
    std::optional<shape::Mask> mask;
    auto cut = [&](int64_t axis, int64_t end) {
      if (!mask) {
        mask.emplace();
        for (int64_t size : full)
          mask->push_back({0, size});
      }
      (*mask)[axis].second = end;
    };
    if (step < 0 && ahead > 0)
      cut(kt, std::max<int64_t>(0, steps - ahead));
    for (int64_t a = wd; a < kt && oneThread; ++a)
      cut(a, 1);
    return mask;
  };
  // The first element of tile `step` (-1: the loop's, kt + ahead) in the
  // operand's buffer.
  auto origin = [&](int i, int64_t step, int64_t extra, bool oneThread = false) {
    const View &v = plan.operands[i].frag;
    SmallVector<int64_t> strides(zeros);
    for (int64_t a = 0; a < wd; ++a)
      strides[a] = v.strides[a];
    if (step < 0)
      strides[kt] = v.strides[kt];
    int64_t offset = v.offset + (step < 0 ? ahead : step) * v.strides[kt] + extra;
    return ShapeTracker{{View::create(full, strides, offset, maskOf(step, oneThread))}};
  };
  // Buffer (step % S) of the ring, over the kernel's shape: a view of the
  // flat position step * tile modulo the ring's size.
  auto ring = [&](int i, int64_t shift, ArrayRef<int64_t> inner, int64_t extra = 0) {
    SmallVector<int64_t> strides(inner);
    strides[kt] = tile[i];
    return ShapeTracker{{View::create({plan.stages * tile[i]}),
                         View::create(full, strides, shift * tile[i] + extra)}};
  };

  // Panel p (columns p * cols .. of the tile) lands after p whole panels.
  auto destination = [&](int i, int64_t step, int64_t p) {
    const StagedOperand &op = plan.operands[i];
    int64_t into = p * op.rows * (op.cols / op.panels);
    return step < 0 ? ring(i, ahead, zeros, into)
                    : ShapeTracker{{View::create(full, zeros, step * tile[i] + into)}};
  };

  auto scaled = [](ArrayRef<int64_t> v, int64_t by) {
    return llvm::map_to_vector(v, [&](int64_t x) { return x * by; });
  };
  // Operand i's tile is shared by the blocks of a cluster that agree on
  // the global axes it moves along: a block's share is its place among
  // them (`place`: row-major over the other axes); it multicasts to those
  // whose %cluster_ctarank (x, the last global axis, fastest) is a bit of
  // `receivers << shift`, `shift` being its rank on the axes it moves
  // along.
  struct Sharing {
    SmallVector<int64_t> place, shift;
    int64_t receivers = 0;
  };
  Sharing sharing[2];
  bool multicast = plan.sharers[0] > 1 || plan.sharers[1] > 1;
  UnitAttr clusterBarrier = multicast ? b.getUnitAttr() : UnitAttr();
  if (multicast) {
    SmallVector<int64_t> rank(wd, 1);
    for (int64_t a = wd - 2; a >= 0; --a)
      rank[a] = rank[a + 1] * cluster[a + 1];
    for (int i = 0; i < 2; ++i) {
      Sharing &share = sharing[i];
      share.place.assign(wd, 0);
      share.shift.assign(wd, 0);
      SmallVector<int64_t> ranks{0};
      int64_t weight = 1;
      for (int64_t a = wd - 1; a >= 0; --a) {
        if (plan.operands[i].frag.strides[a] != 0) {
          share.shift[a] = rank[a];
          continue;
        }
        share.place[a] = weight;
        weight *= cluster[a];
        SmallVector<int64_t> more;
        for (int64_t r : ranks)
          for (int64_t q = 0; q < cluster[a]; ++q)
            more.push_back(r + q * rank[a]);
        ranks = std::move(more);
      }
      for (int64_t r : ranks)
        share.receivers |= int64_t(1) << r;
    }
  }

  // cp.async: the block's threads copy 16-byte pieces of tiles 0 .. ahead-1
  // before the loop, one group each (an empty group where there is no such
  // tile, so the loop's count of groups holds), then tile kt + ahead per
  // step; tile kt has landed when at most `ahead` groups are in flight.
  auto copyAsync = [&]() {
    Value group;
    auto after = [&]() { return group ? SmallVector<Value>{group} : SmallVector<Value>{}; };
    auto copies = [&](int64_t step) {
      SmallVector<Value> done;
      for (int i = 0; i < 2; ++i) {
        const StagedOperand &op = plan.operands[i];
        int64_t cols = op.cols / op.panels;
        for (int64_t p = 0; p < op.panels; ++p)
          done.push_back(CopyTileOp::create(
              b, loc, voidType, view(local[i], destination(i, step, p)),
              view(global[i], origin(i, step, p * cols)), op.rows, cols, op.pitch, cols, after()));
      }
      return done;
    };
    for (int64_t step = 0; step < ahead; ++step) {
      SmallVector<Value> issued = step < steps ? copies(step) : after();
      group = AsyncCommitOp::create(b, loc, voidType, issued);
    }
    group = AsyncCommitOp::create(b, loc, voidType, copies(-1));
    Value landed = AsyncWaitOp::create(b, loc, voidType, ahead, ValueRange{group});
    // wgmma reads shared memory through the async proxy: the copies (the
    // generic proxy's writes) are fenced before the barrier publishes them.
    if (plan.wgmma)
      landed = FenceProxyAsyncOp::create(b, loc, voidType, ValueRange{landed});
    return landed;
  };

  // The TMA: the block's first thread copies each tile as boxes, which
  // complete on the tile's mbarrier, one per buffer (`tc_full`); the
  // thread announces their bytes there first. Every thread waits for the
  // phase of tile kt: buffer kt % S's mbarrier completes a phase per tile,
  // so tile kt's is phase kt / S, of parity (kt / S) % 2. The TMA writes
  // through the async proxy, as wgmma reads: no proxy fence.
  auto copyTma = [&]() {
    Type i64 = IntegerType::get(ctx, 64, IntegerType::Signed);
    Value bars = DefineLocalOp::create(b, loc, PtrType::get(i64, plan.stages, AddressSpace::local),
                                       b.getStringAttr("tc_full"), SwizzleAttr());
    // Tile `step`'s mbarrier (-1: the loop's, of tile kt + shift).
    auto bar = [&](int64_t step, int64_t shift, std::optional<shape::Mask> mask) {
      if (step >= 0)
        return view(bars, ShapeTracker{{View::create(full, zeros, step % plan.stages, mask)}});
      SmallVector<int64_t> strides(zeros);
      strides[kt] = 1;
      return view(bars, ShapeTracker{{View::create({plan.stages}),
                                      View::create(full, strides, shift, mask)}});
    };
    // Each block announces the whole tiles' bytes: in a cluster its peers'
    // shares complete on its mbarrier too.
    int64_t bytes = 0;
    for (int i = 0; i < 2; ++i)
      bytes +=
          tile[i] * cast<PtrType>(global[i].getType()).getElementType().getIntOrFloatBitWidth() / 8;
    auto copies = [&](int64_t step, ValueRange after) {
      Value announced = MBarrierExpectTxOp::create(
          b, loc, voidType, bar(step, ahead, maskOf(step, /*oneThread=*/true)), bytes, after);
      SmallVector<Value> done;
      for (int i = 0; i < 2; ++i) {
        const StagedOperand &op = plan.operands[i];
        auto [cols, rows] = plan.tmaBox[i];
        for (int64_t p = 0; p < op.panels; ++p) {
          ShapeTracker src = origin(i, step, p * (op.cols / op.panels), /*oneThread=*/true);
          ShapeTracker dst = destination(i, step, p);
          Value shift;
          IntegerAttr receivers;
          if (plan.sharers[i] > 1) {
            const Sharing &share = sharing[i];
            src = clusteredView(src, scaled(share.place, rows * plan.tmaPitch[i]));
            dst = clusteredView(dst, scaled(share.place, rows * cols));
            shift = ViewOp::create(
                b, loc, voidType, Value(),
                clusteredView(ShapeTracker{{View::create(full, zeros)}}, share.shift).toAttr(ctx));
            receivers = b.getI64IntegerAttr(share.receivers);
          }
          done.push_back(TensorCopyOp::create(
              b, loc, voidType, view(local[i], dst), view(global[i], src), ValueRange{}, rows, cols,
              plan.tmaPitch[i], bar(step, ahead, std::nullopt), shift, receivers, TensorMapAttr(),
              ValueRange{announced}));
        }
      }
      return done;
    };
    SmallVector<Value> issued;
    for (int64_t s = 0; s < plan.stages; ++s)
      issued.push_back(MBarrierInitOp::create(
          b, loc, voidType, bar(s, 0, maskOf(s, /*oneThread=*/true)), 1, ValueRange{}));
    // The mbarriers are ready, in a cluster for the peers' copies too.
    issued = {BarrierOp::create(b, loc, voidType, issued, clusterBarrier)};
    for (int64_t step = 0; step < std::min(ahead, steps); ++step)
      issued = copies(step, issued);
    issued = copies(-1, issued);
    SmallVector<int64_t> strides(zeros);
    strides[kt] = 1;
    Value phase = ViewOp::create(
        b, loc, voidType, Value(),
        ShapeTracker{{View::create({2, plan.stages}, {1, 0}), View::create(full, strides)}}.toAttr(
            ctx));
    return MBarrierWaitOp::create(b, loc, voidType, bar(-1, 0, std::nullopt), phase, issued)
        .getResult();
  };

  Value landed = plan.tma ? copyTma() : copyAsync();
  // In a cluster whose blocks copy into each other, step k's barrier is
  // the cluster's: past it every block has retired step k - 1's wgmmas, so
  // step k + 1's copies may overwrite that buffer everywhere.
  Value barrier = BarrierOp::create(b, loc, voidType, ValueRange{landed}, clusterBarrier);
  *published = barrier;

  if (plan.wgmma) {
    // The warpgroup's tiles start where its first lane's would: no lane,
    // warp or block of 8 columns moves them.
    Value tiles[2];
    for (int i = 0; i < 2; ++i) {
      SmallVector<int64_t> strides(plan.operands[i].smemStrides);
      for (int64_t a = wd; a < kt; ++a)
        strides[a] = 0;
      if (plan.nBlockAxis >= 0)
        strides[plan.nBlockAxis] = 0;
      tiles[i] = view(local[i], ring(i, 0, strides));
    }
    return {tiles[0], tiles[1]};
  }

  // Each lane's ldmatrix row address in buffer kt % S.
  Value frags[2];
  for (int i = 0; i < 2; ++i) {
    const StagedOperand &op = plan.operands[i];
    SmallVector<int64_t> strides(op.smemStrides);
    for (int64_t l = 0; l < (int64_t)op.laneStrides.size(); ++l)
      strides[wd + l] = op.laneStrides[l];
    Type elem = cast<PtrType>(local[i].getType()).getElementType();
    auto type = VectorType::get({2 * op.count}, elem);
    frags[i] = LdMatrixOp::create(b, loc, type, view(local[i], ring(i, 0, strides)), op.count,
                                  op.trans, ValueRange{barrier});
  }
  return {frags[0], frags[1]};
}

/// `base` (its tiling opts applied) with its operands staged: k-steps of 32
/// (one more UNROLL) where 4 or more are left (a loop of 2 is unrolled
/// whole by LLVM, which then keeps both steps' fragments live: spills on the
/// 64-deep corpus matmuls), as many buffers as shared memory holds, at
/// least 3 (a tile in flight); with `conflictFree`, only where ldmatrix
/// reads both tiles without bank conflicts. The opts, or why they cannot be.
static llvm::Expected<SmallVector<Opt>> staged(const OptKernel &base, bool conflictFree) {
  int64_t steps = base.fullShape()[base.firstReduce()];
  std::string why;
  for (bool unroll : {true, false})
    for (int64_t buffers : {4, 3}) {
      if (unroll && (steps % 2 != 0 || steps / 2 < 4))
        continue;
      OptKernel k = base;
      SmallVector<Opt> more;
      if (unroll)
        more.push_back(Opt{OptOp::UNROLL, 0, 2, {}});
      more.push_back(Opt{OptOp::STAGE, 0, buffers, {}});
      bool applied = true;
      for (const Opt &o : more)
        if (llvm::Error e = k.applyOpt(o)) {
          why = o.str() + ": " + llvm::toString(std::move(e));
          applied = false;
          break;
        }
      if (!applied)
        continue;
      if (conflictFree) {
        llvm::Expected<StagePlan> plan = k.planStaging(0, buffers);
        if (!plan || !plan->operands[0].conflictFree || !plan->operands[1].conflictFree) {
          if (!plan)
            llvm::consumeError(plan.takeError());
          return llvm::createStringError(
              "no swizzle keeps its tiles' ldmatrix rows free of bank conflicts");
        }
      }
      return k.appliedOpts;
    }
  return llvm::createStringError(llvm::Twine(why));
}

/// `original` with `opts` applied, or why they do not apply.
static llvm::Expected<OptKernel> applied(const OptKernel &original, ArrayRef<Opt> opts) {
  OptKernel k = original;
  for (const Opt &o : opts)
    if (llvm::Error e = k.applyOpt(o))
      return llvm::createStringError(o.str() + ": " + llvm::toString(std::move(e)));
  return k;
}

/// The blocks of the kernel's grid.
static int64_t gridBlocks(const OptKernel &k) {
  return prod(k.fullShape().take_front(k.globalDims()));
}

/// The work of the busiest tensor core of a 108-SM GPU, in elements of the
/// (padded) iteration space, for a grid of `blocks` blocks of
/// `warpsPerBlock` warps over `elements`, as the roofline model counts it
/// (docs/simulator.md): the busiest SM's ceil(blocks / SMs) blocks' warps
/// share its sub-partitions, each 1 / (blocks * warps per block) of the
/// work (all resident: residency is not known here).
static int64_t busiestTensorCoreWork(int64_t blocks, int64_t warpsPerBlock, int64_t elements) {
  constexpr int64_t kSMs = 108;
  int64_t warpsHere = llvm::divideCeil(blocks, kSMs) * warpsPerBlock;
  return busiestSubPartitionWarps(warpsHere, warpsHere) * (elements / (blocks * warpsPerBlock));
}

/// busiestTensorCoreWork of `k`'s grid.
static int64_t busiestTensorCoreWork(const OptKernel &k) {
  int64_t threads = prod(k.fullShape().slice(k.globalDims(), k.localDims));
  return busiestTensorCoreWork(gridBlocks(k), llvm::divideCeil(threads, 32), prod(k.fullShape()));
}

/// Staged operands are read from shared memory once per warp: the larger a
/// warp's tile, the fewer bytes per mma (ldmatrix's wavefronts bound the
/// schedule at tinygrad's 64x32). So a warp takes 64 columns of N where N
/// allows (UPCAST 8 instead of tinygrad's 4), and the block as many warps
/// (LOCAL 4 or 2 on N) as keep 256 blocks or more in the grid, enough to
/// fill two waves of a 108-SM GPU; the opts, or nothing where the kernel's
/// shape does not allow them.
static std::optional<SmallVector<Opt>> widerWarpTiles(const OptKernel &original) {
  OptKernel k = original;
  auto legal = [](llvm::Error e) {
    bool ok = !e;
    llvm::consumeError(std::move(e));
    return ok;
  };
  if (!legal(k.applyOpt(Opt{OptOp::TC, 0, std::nullopt, {-1, 0, 1}})) || !k.tcOpts)
    return std::nullopt;
  auto upcast = [&](int d, ArrayRef<int64_t> sizes) {
    if (!k.tcOpts->axesExist[d])
      return false;
    int64_t size = k.fullShape()[k.tcOpts->axes[d]];
    for (int64_t sz : sizes)
      if (size % sz == 0)
        return legal(k.applyOpt(Opt{OptOp::UPCAST, k.tcOpts->axes[d], sz, {}}));
    return false;
  };
  // M as tinygrad upcasts it, N by 8.
  if (!upcast(1, {5, 4, 3, 2}) || !upcast(0, {8}))
    return std::nullopt;
  for (int64_t warps : {4, 2}) {
    OptKernel withLocal = k;
    if (!withLocal.tcOpts->axesExist[0] ||
        withLocal.fullShape()[withLocal.tcOpts->axes[0]] % warps != 0 ||
        !legal(withLocal.applyOpt(Opt{OptOp::LOCAL, withLocal.tcOpts->axes[0], warps, {}})))
      continue;
    if (gridBlocks(withLocal) >= 256)
      return withLocal.appliedOpts;
  }
  return k.appliedOpts;
}

namespace {
/// A warp tile of upcast[1] x 16 rows by upcast[0] x 8 columns, warps[1] x
/// warps[0] of them per block, M and N padded (PADTO) to whole blocks.
struct Tiling {
  int64_t upcast[2], warps[2]; // per TC axis: N, M
};
} // namespace

/// Warp tiles of 64 or 48 rows by 64 or 48 columns, or tinygrad's 64x32, in
/// blocks of 2x2, 2x1, 1x2 or one warp: a grid of 64x64 tiles can fall
/// unevenly on the GPU's sub-partitions (the 1024^3 matmul's 256 on an
/// A100's 432 leave the busiest a whole tile; 48x64 tiles, M padded to
/// 1056, leave it 3/4 of one), and a grid too small for 4 warps per SM
/// wants smaller ones. Largest warp tiles first (fewest shared bytes per
/// mma), then largest blocks (fewest L2 bytes per flop): the order ties are
/// broken in.
static SmallVector<Tiling> tilingGrid() {
  SmallVector<Tiling> grid;
  for (auto [mUp, nUp] : {std::pair<int64_t, int64_t>{4, 8}, {4, 6}, {3, 8}, {3, 6}, {4, 4}})
    for (auto [mWarps, nWarps] : {std::pair<int64_t, int64_t>{2, 2}, {2, 1}, {1, 2}, {1, 1}})
      grid.push_back(Tiling{{nUp, mUp}, {nWarps, mWarps}});
  return grid;
}

/// busiestTensorCoreWork of `t` on `tc` (TC applied, M and N global axes),
/// from the shape alone: it is the cost that ranks the grid, so it must not
/// take applying every tiling's opts.
static int64_t busiestTensorCoreWork(const OptKernel &tc, Tiling t) {
  ArrayRef<int64_t> full = tc.fullShape();
  int64_t blocks = gridBlocks(tc), elements = prod(full);
  for (int d = 0; d < 2; ++d) {
    int64_t size = full[tc.tcOpts->axes[d]], block = t.upcast[d] * t.warps[d];
    int64_t padded = llvm::divideCeil(size, block) * block;
    blocks = blocks / size * (padded / block);
    elements = elements / size * padded;
  }
  int64_t threads = prod(full.slice(tc.globalDims(), tc.localDims)) * t.warps[0] * t.warps[1];
  return busiestTensorCoreWork(blocks, llvm::divideCeil(threads, 32), elements);
}

/// `tc` with the opts of `t`: PADTO where M or N do not divide into whole
/// blocks, UPCAST, LOCAL; nothing where one is illegal.
static std::optional<OptKernel> withTiling(const OptKernel &tc, Tiling t) {
  OptKernel k = tc;
  SmallVector<Opt> opts;
  for (int d = 0; d < 2; ++d)
    if (int64_t block = t.upcast[d] * t.warps[d]; k.fullShape()[k.tcOpts->axes[d]] % block != 0)
      opts.push_back(Opt{OptOp::PADTO, k.tcOpts->axes[d], block, {}});
  for (int d = 0; d < 2; ++d)
    opts.push_back(Opt{OptOp::UPCAST, k.tcOpts->axes[d], t.upcast[d], {}});
  for (int d = 0; d < 2; ++d)
    if (t.warps[d] > 1)
      opts.push_back(Opt{OptOp::LOCAL, k.tcOpts->axes[d], t.warps[d], {}});
  for (const Opt &o : opts)
    if (llvm::Error e = k.applyOpt(o)) {
      llvm::consumeError(std::move(e));
      return std::nullopt;
    }
  return k;
}

llvm::Expected<SmallVector<Opt>> mlir::uop::stagedTensorCoreOptimizations(const OptKernel &original,
                                                                          ArrayRef<Opt> tcOpts) {
  // The tiling that leaves the busiest tensor core the least work, staged
  // without bank conflicts; on a tie the first of: wider warp tiles (fewer
  // shared bytes per mma), tinygrad's, the grid's in its order. A grid too
  // small for every SM to get 4 warps of the wider tiles (attention's 16 or
  // 32 blocks) runs faster on tinygrad's narrower ones.
  struct Candidate {
    int64_t work;
    size_t order;                    // ties: the first
    std::optional<OptKernel> kernel; // its opts applied (the grid's: when tried)
    Tiling tiling;
  };
  std::vector<Candidate> candidates; // (each holds a whole OptKernel)
  for (std::optional<SmallVector<Opt>> opts :
       {widerWarpTiles(original), std::optional<SmallVector<Opt>>(tcOpts)}) {
    if (!opts)
      continue;
    llvm::Expected<OptKernel> k = applied(original, *opts);
    if (!k) {
      llvm::consumeError(k.takeError());
      continue;
    }
    candidates.push_back({busiestTensorCoreWork(*k), candidates.size(), std::move(*k), {}});
  }
  OptKernel tc = original;
  if (llvm::Error e = tc.applyOpt(Opt{OptOp::TC, 0, std::nullopt, {-1, 0, 1}}))
    llvm::consumeError(std::move(e));
  else if (tc.tcOpts && tc.tcOpts->axesExist[0] && tc.tcOpts->axesExist[1] &&
           tc.tcOpts->axes[0] < tc.globalDims() && tc.tcOpts->axes[1] < tc.globalDims())
    for (Tiling t : tilingGrid())
      candidates.push_back({busiestTensorCoreWork(tc, t), candidates.size(), std::nullopt, t});
  llvm::sort(candidates, [](auto &x, auto &y) {
    return std::tie(x.work, x.order) < std::tie(y.work, y.order);
  });
  for (Candidate &c : candidates) {
    if (!c.kernel && !(c.kernel = withTiling(tc, c.tiling)))
      continue;
    llvm::Expected<SmallVector<Opt>> opts = staged(*c.kernel, /*conflictFree=*/true);
    if (opts)
      return opts;
    llvm::consumeError(opts.takeError());
  }
  llvm::Expected<OptKernel> k = applied(original, tcOpts);
  if (!k)
    return k.takeError();
  return staged(*k, /*conflictFree=*/false);
}

/// `k` with CLUSTER opts and then `copier` (TMA) applied: of the clusters
/// of 2 to 8 blocks (powers of 2 along each global axis), the one whose
/// blocks read the fewest bytes of A and B tiles from L2 each (a tile
/// shared by n blocks costs each 1/n of it), the smaller on a tie; or why
/// none applies.
static llvm::Expected<OptKernel> withClusters(const OptKernel &k, const Opt &copier) {
  int64_t wd = k.globalDims();
  ArrayRef<int64_t> full = k.fullShape();
  std::optional<OptKernel> best;
  double bestBytes = 0;
  int64_t bestBlocks = 0;
  std::string why = "no cluster of 2 to 8 blocks divides the grid";
  SmallVector<int64_t> sizes(wd, 1);
  std::function<void(int64_t)> tryFrom = [&](int64_t a) {
    if (a < wd) {
      int64_t before = prod(ArrayRef<int64_t>(sizes).take_front(a));
      for (int64_t c = 1; full[a] % c == 0 && before * c <= 8; c *= 2) {
        sizes[a] = c;
        tryFrom(a + 1);
      }
      sizes[a] = 1;
      return;
    }
    int64_t blocks = prod(sizes);
    if (blocks < 2)
      return;
    OptKernel tried = k;
    SmallVector<Opt> opts;
    for (int64_t axis = 0; axis < wd; ++axis)
      if (sizes[axis] > 1)
        opts.push_back(Opt{OptOp::CLUSTER, axis, sizes[axis], {}});
    opts.push_back(copier);
    for (const Opt &o : opts)
      if (llvm::Error e = tried.applyOpt(o)) {
        why = o.str() + ": " + llvm::toString(std::move(e));
        return;
      }
    llvm::Expected<StagePlan> plan = tried.planStaging(0, *copier.arg, true, true);
    if (!plan) {
      why = llvm::toString(plan.takeError());
      return;
    }
    double bytes = 0;
    for (int i = 0; i < 2; ++i)
      bytes += double(plan->operands[i].rows * plan->operands[i].cols) / plan->sharers[i];
    if (!best || bytes < bestBytes || (bytes == bestBytes && blocks < bestBlocks)) {
      best = std::move(tried);
      bestBytes = bytes;
      bestBlocks = blocks;
    }
  };
  tryFrom(0);
  if (!best)
    return llvm::createStringError(llvm::Twine(why));
  return std::move(*best);
}

llvm::Expected<SmallVector<Opt>> mlir::uop::wgmmaTensorCoreOptimizations(const OptKernel &original,
                                                                         OptOp copier,
                                                                         bool clustered,
                                                                         bool splitK) {
  OptKernel base = original;
  auto applyTo = [](OptKernel &k, Opt o) -> llvm::Error {
    if (llvm::Error e = k.applyOpt(o))
      return llvm::createStringError(o.str() + ": " + llvm::toString(std::move(e)));
    return llvm::Error::success();
  };
  if (llvm::Error e = applyTo(base, Opt{OptOp::TC, 0, std::nullopt, {-1, 0, 1}}))
    return std::move(e);
  if (!base.tcOpts || !base.tcOpts->axesExist[0] || !base.tcOpts->axesExist[1])
    return llvm::createStringError("the tensor core's M and N are not both axes of the kernel");
  auto size = [](const OptKernel &k, int d) { return k.fullShape()[k.tcOpts->axes[d]]; };
  // The warpgroup's 4 warps down M; 64 or 128 columns of N per wgmma.
  if (size(base, 1) % 4 != 0 || size(base, 0) % 8 != 0)
    return llvm::createStringError("WGMMA needs M in blocks of 64 and N in blocks of 64");
  if (llvm::Error e = applyTo(base, Opt{OptOp::LOCAL, base.tcOpts->axes[1], 4, {}}))
    return std::move(e);
  // The block's tile: the first of these that leaves the grid 64 blocks or
  // more (half an H100's 132 SMs), else 64x64. They are in order of the L2
  // bytes per flop (1/rows + 1/columns: each block reads its A rows and B
  // columns from L2), which bound the 1024^3 matmul; below 64 blocks idle
  // SMs cost more than the bytes saved (docs/benchmarks.md).
  struct Tile {
    int64_t mBlocks, nUpcast; // wgmmas down M; blocks of 8 columns
  };
  // In clusters, whose blocks share their A and B tiles, L2 bounds less
  // and shared memory more: 64x128 first, the fewest shared-memory
  // wavefronts per flop of those that fill an H100 (docs/benchmarks.md).
  std::string why = "no tile fits";
  SmallVector<Tile> tiles = {Tile{2, 16}, Tile{4, 8}, Tile{1, 16}, Tile{2, 8}, Tile{1, 8}};
  if (clustered)
    tiles = {Tile{1, 16}, Tile{2, 16}, Tile{4, 8}, Tile{2, 8}, Tile{1, 8}};
  // With K split between the blocks of a pair, twice the blocks: 128x128
  // first, the fewest shared-memory wavefronts per flop (docs/benchmarks.md).
  if (splitK)
    tiles = {Tile{2, 16}, Tile{1, 16}, Tile{2, 8}, Tile{1, 8}};
  for (Tile t : tiles) {
    OptKernel k = base;
    bool legal = true;
    for (auto [d, amount] : {std::pair<int, int64_t>{0, t.nUpcast}, {1, t.mBlocks}}) {
      if (amount == 1)
        continue;
      if (size(k, d) % amount != 0) {
        legal = false;
        break;
      }
      if (llvm::Error e = applyTo(k, Opt{OptOp::UPCAST, k.tcOpts->axes[d], amount, {}})) {
        why = llvm::toString(std::move(e));
        legal = false;
        break;
      }
    }
    if (!legal || (t.mBlocks * t.nUpcast > 8 && gridBlocks(k) < 64))
      continue;
    // Then the deepest k-step whose buffers fit the 48 KB of static shared
    // memory (4 k16 steps: 128-byte rows, wgmma's 128-byte swizzle), 4
    // buffers first.
    int64_t steps = k.fullShape()[k.firstReduce()];
    for (int64_t unroll : {4, 2, 1})
      for (int64_t buffers : {4, 3}) {
        if (steps % unroll != 0)
          continue;
        OptKernel tried = k;
        llvm::Error e =
            unroll > 1 ? applyTo(tried, Opt{OptOp::UNROLL, 0, unroll, {}}) : llvm::Error::success();
        if (!e && splitK)
          e = applyTo(tried, Opt{OptOp::SPLITK, 0, 2, {}});
        if (!e && clustered) {
          llvm::Expected<OptKernel> inClusters = withClusters(tried, Opt{copier, 0, buffers, {}});
          if (inClusters)
            return inClusters->appliedOpts;
          e = inClusters.takeError();
        } else if (!e) {
          e = applyTo(tried, Opt{copier, 0, buffers, {}});
        }
        if (!e)
          return tried.appliedOpts;
        why = llvm::toString(std::move(e));
      }
  }
  return llvm::createStringError(llvm::Twine(why));
}
