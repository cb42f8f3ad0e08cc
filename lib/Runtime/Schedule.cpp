//===- Schedule.cpp - running a kernelized schedule -----------------------===//

#include "uop/Runtime/Schedule.h"
#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Runtime/HostBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstring>

using namespace mlir;
using namespace mlir::uop;

FailureOr<std::vector<ScheduleBuffer>> mlir::uop::scheduleArguments(func::FuncOp schedule) {
  std::vector<ScheduleBuffer> args;
  for (auto [i, t] : llvm::enumerate(schedule.getArgumentTypes())) {
    auto m = dyn_cast<MemRefType>(t);
    auto unique = schedule.getArgAttrOfType<IntegerAttr>(i, "uop.unique");
    if (!m || !m.hasStaticShape() || m.getRank() != 1 || !unique)
      return schedule.emitError() << "argument " << i
                                  << " of a schedule must be a 1-D static memref with uop.unique";
    int64_t bytes = m.getNumElements() * elementBytes(m.getElementType());
    args.push_back(
        {unique.getInt(), m.getElementType(), m.getNumElements(), std::vector<uint8_t>(bytes, 0)});
  }
  return args;
}

LogicalResult mlir::uop::runSchedule(func::FuncOp schedule, Runner &runner,
                                     std::vector<ScheduleBuffer> &args, ScheduleRunStats *stats) {
  auto module = schedule->getParentOfType<ModuleOp>();
  ScheduleRunStats local;
  ScheduleRunStats &st = stats ? *stats : local;
  // Each buffer value's bytes: an argument, an allocation, or a view into
  // an allocation (uop-plan-buffers' arena).
  llvm::DenseMap<Value, MutableArrayRef<uint8_t>> memory;
  llvm::DenseMap<Value, std::unique_ptr<std::vector<uint8_t>>> owned;
  llvm::DenseMap<Value, int64_t> indexConstants;
  if (args.size() != schedule.getNumArguments())
    return schedule.emitError() << "the schedule takes " << schedule.getNumArguments()
                                << " buffers, got " << args.size();
  for (auto [i, a] : llvm::enumerate(args))
    memory[schedule.getArgument(i)] = a.bytes;
  llvm::StringMap<std::unique_ptr<CompiledKernel>> compiled;
  int64_t live = 0;
  for (Operation &op : schedule.getBody().front()) {
    if (auto c = dyn_cast<arith::ConstantIndexOp>(op)) {
      indexConstants[c.getResult()] = c.value();
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType t = alloc.getType();
      if (!t.hasStaticShape() || t.getRank() != 1)
        return alloc.emitError() << "a schedule allocates 1-D static buffers only";
      auto &bytes = owned[alloc.getResult()];
      bytes = std::make_unique<std::vector<uint8_t>>(
          t.getNumElements() * elementBytes(t.getElementType()), 0xA5);
      memory[alloc.getResult()] = *bytes;
      live += bytes->size();
      st.peakAllocatedBytes = std::max(st.peakAllocatedBytes, live);
      continue;
    }
    if (auto view = dyn_cast<memref::ViewOp>(op)) {
      MutableArrayRef<uint8_t> base = memory.lookup(view.getSource());
      auto offset = indexConstants.find(view.getByteShift());
      MemRefType t = view.getType();
      int64_t bytes = t.hasStaticShape() && t.getRank() == 1
                          ? t.getNumElements() * elementBytes(t.getElementType())
                          : -1;
      if (base.empty() || offset == indexConstants.end() || bytes < 0 || offset->second < 0 ||
          offset->second + bytes > (int64_t)base.size())
        return view.emitError() << "a view the schedule cannot place: a constant offset and a "
                                   "1-D static type inside an allocated buffer";
      memory[view.getResult()] = base.slice(offset->second, bytes);
      continue;
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      auto it = owned.find(dealloc.getMemref());
      if (it == owned.end() || !it->second)
        return dealloc.emitError() << "frees a buffer the schedule did not allocate";
      live -= it->second->size();
      it->second.reset();
      memory.erase(dealloc.getMemref());
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      MutableArrayRef<uint8_t> from = memory.lookup(copy.getSource()),
                               to = memory.lookup(copy.getTarget());
      if (from.empty() || from.size() != to.size())
        return copy.emitError() << "copies between buffers the schedule does not hold";
      std::memcpy(to.data(), from.data(), to.size());
      ++st.copies;
      continue;
    }
    if (auto exec = dyn_cast<ExecOp>(op)) {
      StringRef name = exec.getKernel();
      std::unique_ptr<CompiledKernel> &k = compiled[name];
      if (!k) {
        auto kernel = module.lookupSymbol<KernelOp>(name);
        if (!kernel)
          return exec.emitError() << "no uop.kernel named '" << name << "'";
        OwningOpRef<ModuleOp> one = ModuleOp::create(kernel.getLoc());
        one.get()->setAttrs(module->getAttrs());
        one->push_back(kernel->clone());
        FailureOr<std::unique_ptr<CompiledKernel>> c = runner.compile(*one, name);
        if (failed(c))
          return exec.emitError() << "kernel '" << name << "' did not compile";
        k = std::move(*c);
      }
      SmallVector<MutableArrayRef<uint8_t>> bufs;
      for (Value b : exec.getBuffers()) {
        auto it = memory.find(b);
        if (it == memory.end())
          return exec.emitError() << "runs on a buffer the schedule does not hold";
        bufs.push_back(it->second);
      }
      if (llvm::Error e = k->run(bufs))
        return exec.emitError() << "kernel '" << name << "': " << llvm::toString(std::move(e));
      ++st.kernels;
      st.times.pipelineMs += k->getTimes().pipelineMs;
      st.times.jitMs += k->getTimes().jitMs;
      st.times.runMs += k->getTimes().runMs;
      continue;
    }
    if (isa<func::ReturnOp>(op))
      break;
    return op.emitError() << "not part of a schedule (uop.exec, memref.alloc, memref.view, "
                             "memref.dealloc, memref.copy, arith.constant)";
  }
  return success();
}

FailureOr<ScheduleBuffer> mlir::uop::scheduleOutput(func::FuncOp schedule, size_t i,
                                                    ArrayRef<ScheduleBuffer> args) {
  auto outputs = schedule->getAttrOfType<ArrayAttr>("uop.outputs");
  if (!outputs || i >= outputs.size())
    return schedule.emitError() << "the schedule has no uop.outputs entry " << i;
  auto entry = cast<DictionaryAttr>(outputs[i]);
  if (auto value = entry.getAs<DenseElementsAttr>("value")) {
    // A constant: its splat value in every element.
    auto type = cast<ShapedType>(value.getType());
    Type elem = type.getElementType();
    int64_t n = type.getNumElements(), w = elementBytes(elem);
    ScheduleBuffer out{-1, elem, n, std::vector<uint8_t>(n * w)};
    Attribute s = value.getSplatValue<Attribute>();
    uint64_t bits = 0;
    if (auto f = dyn_cast<FloatAttr>(s))
      bits = f.getValue().bitcastToAPInt().getZExtValue();
    else
      bits = cast<IntegerAttr>(s).getValue().getZExtValue();
    for (int64_t k = 0; k < n; ++k)
      std::memcpy(out.bytes.data() + k * w, &bits, w);
    return out;
  }
  int64_t unique = entry.getAs<IntegerAttr>("unique").getInt();
  shape::ShapeTracker st = shape::ShapeTracker::fromAttr(entry.getAs<ShapeTrackerAttr>("st"));
  const ScheduleBuffer *buf = nullptr;
  for (const ScheduleBuffer &a : args)
    if (a.unique == unique)
      buf = &a;
  if (!buf)
    return schedule.emitError() << "output " << i << " is in buffer " << unique
                                << ", which is not an argument";
  int64_t n = st.size(), w = elementBytes(buf->dtype);
  ScheduleBuffer out{-1, buf->dtype, n, std::vector<uint8_t>(n * w, 0)};
  ArrayRef<int64_t> shape = st.shape();
  SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    std::optional<int64_t> flat = st.flatIndex(idx);
    if (flat) {
      if (*flat < 0 || *flat >= buf->size)
        return schedule.emitError() << "output " << i << " reads element " << *flat << " of buffer "
                                    << unique << ", which has " << buf->size;
      std::memcpy(out.bytes.data() + k * w, buf->bytes.data() + *flat * w, w);
    }
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}
