//===- KernelizePass.cpp - uop-kernelize ----------------------------------===//
//
// A tensor graph (func.func of uop tensor ops) -> kernelize's Graph ->
// tinygrad's kernelize and schedule -> uop.kernels and the schedule as a
// function on memrefs.
//
//===----------------------------------------------------------------------===//

#include "TensorGraphIR.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Kernelize/GraphJSON.h"
#include "uop/Kernelize/Kernelize.h"
#include "uop/Kernelize/Passes.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPKERNELIZE
#include "uop/Kernelize/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;
namespace kz = mlir::uop::kernelize;

namespace {

/// Where a kernelized result lives: a view of a buffer, or a constant.
struct ResultPlace {
  const kz::Node *buffer = nullptr;
  shape::ShapeTracker st;
  const kz::Node *constant = nullptr;
};

/// The buffer (or constant) under a kernelized tensor, with ASSIGNs replaced
/// by their buffer as Tensor.schedule_with_vars does.
std::optional<ResultPlace> placeOf(const kz::Node *n) {
  const kz::Node *base = n->base();
  ResultPlace p;
  p.st = *n->st();
  if (base->op == kz::Op::ASSIGN && base->src[0]->op == kz::Op::BUFFER)
    base = base->src[0];
  if (base->op == kz::Op::BUFFER) {
    p.buffer = base;
    return p;
  }
  if (base->op == kz::Op::CONST) {
    p.constant = base;
    return p;
  }
  return std::nullopt;
}

struct KernelizePass : uop::impl::UOpKernelizeBase<KernelizePass> {
  using UOpKernelizeBase::UOpKernelizeBase;

  kz::KernelizeOptions options() const {
    kz::KernelizeOptions o;
    o.fuseArange = fuseArange;
    o.fuseConvBw = fuseConvBw;
    o.dontRealizeExpand = dontRealizeExpand;
    o.dontGroupReduces = dontGroupReduces;
    o.splitReduceop = splitReduceop;
    o.reduceopSplitThreshold = reduceopSplitThreshold;
    o.reduceopSplitSize = reduceopSplitSize;
    o.maxKernelBuffers = maxKernelBuffers;
    return o;
  }

  LogicalResult kernelizeFunc(ModuleOp module, func::FuncOp f);

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> graphs;
    for (auto f : module.getOps<func::FuncOp>())
      if (kz::isTensorGraph(f))
        graphs.push_back(f);
    for (func::FuncOp f : graphs)
      if (failed(kernelizeFunc(module, f)))
        return signalPassFailure();
  }
};

LogicalResult KernelizePass::kernelizeFunc(ModuleOp module, func::FuncOp f) {
  MLIRContext *ctx = &getContext();
  kz::Graph g;
  FailureOr<const kz::Node *> sink = kz::graphFromFunc(g, f);
  if (failed(sink))
    return failure();
  std::string error;
  std::optional<kz::NodeMap> map = kz::getKernelizeMap(g, *sink, options(), error);
  kz::NodeList outs;
  std::optional<std::vector<kz::ScheduleItem>> schedule;
  if (map) {
    for (const kz::Node *s : (*sink)->src)
      outs.push_back(map->lookup(s));
    schedule = kz::createSchedule(g.sink(outs), error);
  }
  if (!schedule)
    return f.emitError() << "kernelize: " << error;

  // Buffers: the graph's by their unique id, then the ones kernelize made,
  // numbered in order of first use (as tinygrad's graph cases number them).
  llvm::MapVector<const kz::Node *, int64_t> numbers;
  int64_t next = 0;
  for (const kz::Node *n : (*sink)->toposort())
    if (n->op == kz::Op::BUFFER)
      next = std::max(next, n->src[0]->intArg() + 1);
  llvm::SmallVector<const kz::Node *> graphBuffers;
  for (const kz::Node *n : (*sink)->toposort())
    if (n->op == kz::Op::BUFFER)
      graphBuffers.push_back(n);
  llvm::sort(graphBuffers,
             [](auto *a, auto *b) { return a->src[0]->intArg() < b->src[0]->intArg(); });
  for (auto [i, n] : llvm::enumerate(graphBuffers)) {
    if (i && graphBuffers[i - 1]->src[0]->intArg() == n->src[0]->intArg())
      return f.emitError() << "kernelize: two different buffers have unique id "
                           << n->src[0]->intArg();
    numbers[n] = n->src[0]->intArg();
  }
  for (const kz::ScheduleItem &item : *schedule)
    for (const kz::Node *b : item.bufs) {
      if (b->op != kz::Op::BUFFER)
        return f.emitError() << "kernelize: a kernel binds a " << kz::opName(b->op)
                             << " (only whole buffers are supported)";
      if (!numbers.count(b))
        numbers[b] = next++;
    }

  // Results.
  std::vector<ResultPlace> places;
  llvm::DenseSet<const kz::Node *> outputBuffers;
  for (const kz::Node *o : outs) {
    std::optional<ResultPlace> p = placeOf(o);
    if (!p)
      return f.emitError() << "kernelize: a result is neither a buffer nor a constant";
    if (p->buffer)
      outputBuffers.insert(p->buffer);
    places.push_back(*p);
  }

  // The kernels.
  std::string name = f.getName().str();
  SmallVector<std::string> kernelNames;
  for (auto [i, item] : llvm::enumerate(*schedule)) {
    kernelNames.push_back(name + "_k" + std::to_string(i));
    if (item.ast->op != kz::Op::SINK)
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::json::Value(llvm::json::Object{{"nodes", kz::astToJSON(item.ast)}});
    if (failed(importTinygradKernel(text, "kernelize:" + name, kernelNames.back(), module)))
      return f.emitError() << "kernelize: kernel " << i << " did not import";
  }

  // The schedule: arguments for the graph's buffers and the result buffers,
  // allocations for the others.
  auto memrefOf = [&](const kz::Node *b) {
    return MemRefType::get({b->size()}, kz::typeOf(ctx, b->dtype.scalar));
  };
  SmallVector<const kz::Node *> args(graphBuffers.begin(), graphBuffers.end());
  for (const kz::Node *b : outputBuffers)
    if (!llvm::is_contained(args, b))
      args.push_back(b);
  llvm::sort(args, [&](auto *a, auto *b) { return numbers[a] < numbers[b]; });
  SmallVector<Type> argTypes;
  for (const kz::Node *b : args)
    argTypes.push_back(memrefOf(b));
  OpBuilder builder(f);
  auto prog =
      func::FuncOp::create(builder, f.getLoc(), name, builder.getFunctionType(argTypes, {}));
  Block *body = prog.addEntryBlock();
  llvm::DenseMap<const kz::Node *, Value> values;
  for (auto [i, b] : llvm::enumerate(args)) {
    values[b] = body->getArgument(i);
    prog.setArgAttr(i, "uop.unique", builder.getI64IntegerAttr(numbers[b]));
    prog.setArgAttr(i, "uop.device", builder.getStringAttr(*b->device()));
  }
  // Last use of each allocated buffer, to free it after.
  llvm::DenseMap<const kz::Node *, size_t> lastUse;
  for (auto [i, item] : llvm::enumerate(*schedule))
    for (const kz::Node *b : item.bufs)
      lastUse[b] = i;
  builder.setInsertionPointToStart(body);
  Location loc = f.getLoc();
  for (auto [i, item] : llvm::enumerate(*schedule)) {
    SmallVector<Value> bufs;
    for (const kz::Node *b : item.bufs) {
      Value &v = values[b];
      if (!v) {
        v = memref::AllocOp::create(builder, loc, memrefOf(b));
        v.getDefiningOp()->setAttr("uop.unique", builder.getI64IntegerAttr(numbers[b]));
      }
      bufs.push_back(v);
    }
    if (item.ast->op == kz::Op::SINK) {
      ExecOp::create(builder, loc, kernelNames[i], bufs);
    } else if (item.ast->op == kz::Op::COPY && bufs.size() == 2 &&
               bufs[0].getType() == bufs[1].getType()) {
      memref::CopyOp::create(builder, loc, bufs[1], bufs[0]);
    } else {
      return f.emitError() << "kernelize: schedule item " << i << " (" << kz::opName(item.ast->op)
                           << ") is not a kernel or a whole-buffer copy";
    }
    for (const kz::Node *b : item.bufs)
      if (lastUse[b] == i && !llvm::is_contained(args, b))
        memref::DeallocOp::create(builder, loc, values[b]);
  }
  func::ReturnOp::create(builder, loc);

  // Where each former result is.
  SmallVector<Attribute> outputs;
  for (const ResultPlace &p : places) {
    if (p.buffer) {
      outputs.push_back(builder.getDictionaryAttr(
          {builder.getNamedAttr("unique", builder.getI64IntegerAttr(numbers[p.buffer])),
           builder.getNamedAttr("st", p.st.toAttr(ctx))}));
      continue;
    }
    if (p.st.hasMask() || p.constant->src[0]->viewArg().hasMask())
      return f.emitError() << "kernelize: a masked constant result is not supported";
    auto type = RankedTensorType::get(p.st.shape(), kz::typeOf(ctx, p.constant->dtype.scalar));
    const kz::ConstValue &v = p.constant->as<kz::ConstValue>();
    Attribute scalar;
    if (type.getElementType().isInteger(1))
      scalar = builder.getBoolAttr(v.kind == kz::ConstValue::Float ? v.f != 0 : v.i != 0);
    else if (auto it = dyn_cast<IntegerType>(type.getElementType()))
      scalar = IntegerAttr::get(it, APInt(64, v.i, true).trunc(it.getWidth()));
    else {
      APFloat x(v.asDouble());
      bool lost;
      x.convert(cast<FloatType>(type.getElementType()).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lost);
      scalar = FloatAttr::get(type.getElementType(), x);
    }
    outputs.push_back(builder.getDictionaryAttr(
        {builder.getNamedAttr("value", DenseElementsAttr::get(type, scalar))}));
  }
  prog->setAttr("uop.outputs", builder.getArrayAttr(outputs));
  f.erase();
  return success();
}

} // namespace
