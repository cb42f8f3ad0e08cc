//===- TensorCores.cpp - tinygrad's TC opt and its WMMA -------------------===//
//
// opt/kernel.py's _create_tc_opts, _apply_tc_opt and apply_tensor_cores,
// and the tensor-core part of get_optimized_ast: a sum of a product of two
// loads is shaped so that 32 threads (the local axes) each hold their
// fragments of A, B and C (the upcast axes), and becomes a WMMA between
// CONTRACTs of the two sources (swizzled onto the PTX ISA's fragment
// layout) whose result is UNROLLed back onto the C axes.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::uop;
using shape::ShapeTracker;

void TCOptions::fixAxes(int64_t removed) {
  for (int d = 0; d < 2; ++d) {
    if (!axesExist[d])
      continue;
    if (removed < axes[d])
      --axes[d];
    else if (removed == axes[d])
      axesExist[d] = false;
  }
}

std::optional<TCOptions> OptKernel::createTCOpts(ReduceAxisOp r, const TensorCoreDesc &tc,
                                                 int64_t axis, int64_t level) const {
  MLIRContext *ctx = r.getContext();
  Type in = getTCElementType(ctx, tc.in), out = getTCElementType(ctx, tc.out);
  Value src = r.getSrc();
  if (tc.in != tc.out) { // the sum is of the product cast to C's dtype
    auto cast = src.getDefiningOp<CastOp>();
    if (!cast || cast.getType() != out)
      return std::nullopt;
    src = cast.getSrc();
  }
  auto mul = src.getDefiningOp<MulOp>();
  if (!mul)
    return std::nullopt;
  // The buffer a source loads, when it is a LOAD of A/B's dtype (at level
  // 1, also a CAST of a LOAD to it).
  auto bufOf = [&](Value s) -> int64_t {
    if (s.getType() != in)
      return -1;
    if (auto load = s.getDefiningOp<LoadOp>())
      return bufIndex(load);
    if (auto cast = s.getDefiningOp<CastOp>(); cast && level >= 1)
      if (Operation *def = cast.getSrc().getDefiningOp())
        return bufIndex(def);
    return -1;
  };
  int64_t buf0 = bufOf(mul.getLhs()), buf1 = bufOf(mul.getRhs());
  if (buf0 < 0 || buf1 < 0)
    return std::nullopt;

  // N is an axis A does not move along, M one B does not.
  shape::RealStrides strides0 = sts[buf0].realStrides(), strides1 = sts[buf1].realStrides();
  int64_t fr = firstReduce();
  SmallVector<int64_t> axes0, axes1;
  for (int64_t i = 0; i < fr; ++i) {
    if (strides0[i] == 0)
      axes0.push_back(i);
    if (strides1[i] == 0)
      axes1.push_back(i);
  }
  if (axes0.empty() || axes1.empty() || (shapeLen() - fr != 1 && level < 1))
    return std::nullopt;
  // itertools.product(axes0, axes1, reduce axes), counted from the end.
  int64_t nk = shapeLen() - fr, count = (int64_t)axes0.size() * axes1.size() * nk;
  if (axis < 0 || axis >= count)
    return std::nullopt;
  int64_t choice = count - 1 - axis;
  TCOptions o;
  o.axes[0] = axes0[choice / (axes1.size() * nk)];
  o.axes[1] = axes1[choice / nk % axes1.size()];
  o.axes[2] = fr + choice % nk;
  int64_t dims[3] = {tc.n, tc.m, tc.k};
  for (int i = 0; i < 3; ++i)
    if (fullShape()[o.axes[i]] % dims[i] != 0)
      o.pads.push_back({o.axes[i], dims[i]});
  if (!o.pads.empty() && level < 2)
    return std::nullopt;
  return o;
}

llvm::Error OptKernel::applyTC(const Opt &opt) {
  auto fail = [](const char *why) { return llvm::createStringError(llvm::Twine(why)); };
  if (!appliedOpts.empty())
    return fail("tensor core opts must be first");
  if (target.tensorCores.empty())
    return fail("must have tensor cores");
  // (tinygrad's would apply where the TC's axes are not symbolic; our WMMA
  // writer takes integer views only.)
  if (symbolic())
    return fail("tensor cores on a kernel with symbolic shapes are not supported");
  if (!opt.axis)
    return fail("tensor core opts must have an axis");
  if (opt.tc.size() != 3)
    return fail("tensor core opts must have valid arg");
  int64_t select = opt.tc[0], level = opt.tc[1], use = opt.tc[2];
  if (select < -1 || select >= (int64_t)target.tensorCores.size())
    return fail("tensor core opts must have valid tc_select");
  if (level < 0 || level > 2)
    return fail("tensor core opts must have valid tc_opt");
  if (use <= 0 || use > 2)
    return fail("use_tensor_cores value is not valid");

  ReduceAxisOp r = reduceop();
  if (r && r.getKind() == ReduceKind::add) {
    ArrayRef<TensorCoreDesc> cores = target.tensorCores;
    if (select >= 0)
      cores = cores.slice(select, 1);
    for (const TensorCoreDesc &tc : cores) {
      std::optional<TCOptions> o = createTCOpts(r, tc, *opt.axis, level);
      for (ReduceAxisOp other : ArrayRef(reduceops).drop_front())
        if (!(createTCOpts(other, tc, *opt.axis, level) == o))
          return fail("the kernel's reduces would need different tensor core opts");
      if (!o)
        continue;
      tcOpts = o;
      // Pad the axes that need it; a failed pad tries the next tensor core.
      bool padded = true;
      for (auto [axis, dim] : o->pads)
        if (llvm::Error e = applyOpt(Opt{OptOp::PADTO, axis, dim, {}}, /*appendOpt=*/false)) {
          llvm::consumeError(std::move(e));
          padded = false;
          break;
        }
      if (!padded)
        continue;
      // Unroll K by 2 log2(K) times, then upcast and local N and M by 2.
      for (int64_t i = 0; i < llvm::Log2_64(tc.k); ++i)
        if (llvm::Error e = applyOpt(Opt{OptOp::UNROLL, tcOpts->axes[2] - firstReduce(), 2, {}},
                                     /*appendOpt=*/false))
          return e;
      for (TCShapeOpt s : tc.opts)
        if (llvm::Error e = applyOpt(
                Opt{s.kind == 'u' ? OptOp::UPCAST : OptOp::LOCAL, tcOpts->axes[s.dim], 2, {}},
                /*appendOpt=*/false))
          return e;
      tensorCore = tc;
      useTensorCores = use;
      appliedOpts.push_back(opt);
      return llvm::Error::success();
    }
  }
  return fail("no tensor core available");
}

std::optional<SmallVector<Opt>> mlir::uop::tensorCoreOptimizations(const OptKernel &original) {
  if (original.target.tensorCores.empty())
    return std::nullopt;
  OptKernel k = original;
  // A failed opt means no TC schedule (tinygrad catches its KernelOptError).
  auto legal = [](llvm::Error e) {
    bool ok = !e;
    llvm::consumeError(std::move(e));
    return ok;
  };
  auto apply = [&](OptOp op, int64_t axis, int64_t amt) {
    return legal(k.applyOpt(Opt{op, axis, amt, {}}));
  };
  if (!legal(k.applyOpt(Opt{OptOp::TC, 0, std::nullopt, {-1, 0, 1}})))
    return std::nullopt;
  // The hand-coded TC opts: upcast M and N, then a local on N.
  for (int d : {1, 0}) {
    if (!k.tcOpts->axesExist[d])
      continue;
    int64_t size = k.fullShape()[k.tcOpts->axes[d]];
    for (int64_t sz : {5, 4, 3, 2})
      if (size % sz == 0) {
        if (!apply(OptOp::UPCAST, k.tcOpts->axes[d], sz))
          return std::nullopt;
        break;
      }
  }
  if (k.tcOpts->axesExist[0]) {
    int64_t size = k.fullShape()[k.tcOpts->axes[0]];
    for (int64_t sz : {4, 2})
      if (size % sz == 0) {
        if (!apply(OptOp::LOCAL, k.tcOpts->axes[0], sz))
          return std::nullopt;
        break;
      }
  }
  return k.appliedOpts;
}

SmallVector<int64_t> OptKernel::tcFragmentAxes(int64_t elements) const {
  const TensorCoreDesc &tc = *tensorCore;
  int64_t last = firstUpcast() + llvm::Log2_64(tc.k) + tc.countOpts('u');
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < (int64_t)llvm::Log2_64(elements); ++i)
    axes.push_back(last - (i + 1));
  return axes;
}

SmallVector<int64_t> OptKernel::tcSwizzle(int operand) const {
  const TensorCoreDesc &tc = *tensorCore;
  const TCSwizzle &s = tc.swizzle[operand];
  int64_t wd = globalDims(), tcd = firstUpcast(), nLocal = tc.countOpts('l');
  int64_t offset = tcd - (wd + nLocal);
  auto at = [&](int64_t x) { return wd + x + (x >= nLocal ? offset : 0); };
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, wd));
  for (int64_t x : s.local)
    perm.push_back(at(x));
  llvm::append_range(perm, llvm::seq<int64_t>(wd + nLocal, tcd));
  for (int64_t x : s.upcast)
    perm.push_back(at(x));
  llvm::append_range(perm, llvm::seq<int64_t>(tcd + s.upcast.size(), shapeLen()));
  return perm;
}

void OptKernel::writeTensorCore(ReduceAxisOp r, ArrayRef<int64_t> axes) {
  const TensorCoreDesc &tc = *tensorCore;
  MLIRContext *ctx = kernel.getContext();
  int64_t tcd = firstUpcast(), nReduce = llvm::Log2_64(tc.k);

  auto upcastAxes = [&](int64_t elements) {
    SmallVector<int64_t> flat;
    for (int64_t a : tcFragmentAxes(elements))
      flat.append({a, 2});
    return AxisSizesAttr::get(ctx, flat);
  };

  OpBuilder b(r);
  Location loc = r.getLoc();
  Value product = r.getSrc();
  if (auto cast = product.getDefiningOp<CastOp>())
    product = cast.getSrc();
  auto mul = product.getDefiningOp<MulOp>();
  // A swizzled source is a copy of the buffer op (a LOAD, or at tc_opt 1 a
  // CAST of one) reading through a permuted view: a VIEW of a LOAD pushed
  // into the LOAD. Only a WMMA gets them: tinygrad swizzles for TC=2 too,
  // but a plain sum of the two permuted sources pairs the wrong elements.
  Value srcs[2] = {mul.getLhs(), mul.getRhs()};
  Value staged[2], tilesReady;
  if (stages)
    std::tie(staged[0], staged[1]) = writeStagedOperands(b, r.getLoc(), &tilesReady);
  for (int i = 0; i < 2 && useTensorCores == 1 && !stages; ++i) {
    Operation *load = srcs[i].getDefiningOp();
    auto castOp = dyn_cast<CastOp>(load);
    if (castOp)
      load = castOp.getSrc().getDefiningOp();
    ViewOp view = bufViews[bufIndex(load)]; // (createTCOpts found it a buffer op)
    // Each copy goes where its original is, so the AST keeps its order.
    IRMapping map;
    auto copyAfter = [&](Operation *op) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfter(op);
      Operation *copy = b.clone(*op, map);
      map.map(op->getResult(0), copy->getResult(0));
      return copy;
    };
    auto permuted = cast<ViewOp>(copyAfter(view));
    permuted.setStAttr(ShapeTracker::fromAttr(view.getSt()).permute(tcSwizzle(i)).toAttr(ctx));
    Operation *copy = copyAfter(load);
    if (castOp)
      copy = copyAfter(castOp);
    srcs[i] = copy->getResult(0);
  }

  SmallVector<int64_t> tcReduce;
  for (int64_t i = 0; i < nReduce; ++i)
    tcReduce.push_back(tcd + i);
  Type out = getTCElementType(ctx, tc.out);
  Value result;
  if (wgmma) {
    // A warpgroup's wgmma per 64 rows: the tiles' starts, its N / 2
    // accumulators per thread (the N blocks of 8, then the m16n8 fragment).
    llvm::Expected<StagePlan> plan = planStaging(0, stages, true);
    assert(plan && "WGMMA was applied to a kernel it does not fit");
    SmallVector<int64_t> cFlat;
    if (plan->nBlockAxis >= 0)
      cFlat.append({plan->nBlockAxis, plan->wgmmaN / 8});
    for (int64_t a : tcFragmentAxes(tc.eptC))
      cFlat.append({a, 2});
    auto cAxes = AxisSizesAttr::get(ctx, cFlat),
         none = AxisSizesAttr::get(ctx, ArrayRef<int64_t>{});
    auto cType = VectorType::get({plan->wgmmaN / 2}, out);
    Value c = ConstOp::create(b, loc, cType, SplatElementsAttr::get(cType, b.getZeroAttr(out)));
    auto tile = [&](int i) {
      auto [swizzle, lbo, sbo] = plan->tileLayout[i];
      return WgmmaTileAttr::get(ctx, i == 0 || plan->bKMajor ? "k" : "mn", swizzle, lbo, sbo);
    };
    auto op = WmmaOp::create(
        b, loc, cType, staged[0], staged[1], c, b.getDenseI64ArrayAttr({plan->wgmmaN, 64, 16}),
        b.getStringAttr("CUDA"), b.getI64IntegerAttr(128), b.getArrayAttr({none, none, cAxes}),
        b.getDenseI64ArrayAttr(tcReduce), tile(0), tile(1), ValueRange{tilesReady});
    result = UnrollOp::create(b, loc, op, cAxes);
  } else if (useTensorCores == 1) {
    // Each lane's fragments: gathered from its loads, or read by ldmatrix.
    Value a = stages ? staged[0] : ContractOp::create(b, loc, srcs[0], upcastAxes(tc.eptA));
    Value bb = stages ? staged[1] : ContractOp::create(b, loc, srcs[1], upcastAxes(tc.eptB));
    auto cType = VectorType::get({tc.eptC}, out);
    Value c = ConstOp::create(b, loc, cType, SplatElementsAttr::get(cType, b.getZeroAttr(out)));
    SmallVector<Attribute> fragments = {upcastAxes(tc.eptA), upcastAxes(tc.eptB),
                                        upcastAxes(tc.eptC)};
    Value wmma = WmmaOp::create(b, loc, cType, a, bb, c, b.getDenseI64ArrayAttr({tc.n, tc.m, tc.k}),
                                b.getStringAttr("CUDA"), b.getI64IntegerAttr(tc.threads),
                                b.getArrayAttr(fragments), b.getDenseI64ArrayAttr(tcReduce),
                                WgmmaTileAttr(), WgmmaTileAttr(), ValueRange{});
    result = UnrollOp::create(b, loc, wmma, upcastAxes(tc.eptC));
  } else { // TC=2: the TC's shapes, a plain sum
    Value p = MulOp::create(b, loc, srcs[0].getType(), srcs[0], srcs[1]);
    if (p.getType() != out)
      p = CastOp::create(b, loc, out, p);
    result = ReduceAxisOp::create(b, loc, out, ReduceKind::add, p, tcReduce);
  }

  SmallVector<int64_t> rest;
  for (int64_t a : axes)
    if (!llvm::is_contained(tcReduce, a))
      rest.push_back(a);
  if (!rest.empty()) {
    r.getSrcMutable().assign(result);
    r.setAxes(rest);
  } else {
    r.getResult().replaceAllUsesWith(result);
    r.erase();
  }
}
