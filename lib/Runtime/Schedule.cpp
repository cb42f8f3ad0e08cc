//===- Schedule.cpp - running a kernelized schedule -----------------------===//

#include "uop/Runtime/Schedule.h"
#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"
#include "uop/Runtime/HostBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

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
                                     ArrayRef<MutableArrayRef<uint8_t>> args,
                                     ScheduleRunStats *stats) {
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
  for (auto [i, a] : llvm::enumerate(args)) {
    auto type = cast<MemRefType>(schedule.getArgument(i).getType());
    int64_t bytes =
        type.hasStaticShape() ? type.getNumElements() * elementBytes(type.getElementType()) : -1;
    if ((int64_t)a.size() != bytes)
      return schedule.emitError() << "argument " << i << " is " << type << ": " << bytes
                                  << " bytes, got " << a.size();
    memory[schedule.getArgument(i)] = a;
  }
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
                                                    ArrayRef<MutableArrayRef<uint8_t>> args) {
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
  std::optional<size_t> arg;
  for (size_t k = 0; k < schedule.getNumArguments(); ++k)
    if (auto u = schedule.getArgAttrOfType<IntegerAttr>(k, "uop.unique"); u && u.getInt() == unique)
      arg = k;
  if (!arg || *arg >= args.size())
    return schedule.emitError() << "output " << i << " is in buffer " << unique
                                << ", which is not an argument";
  auto type = cast<MemRefType>(schedule.getArgument(*arg).getType());
  Type dtype = type.getElementType();
  int64_t n = st.size(), w = elementBytes(dtype), size = type.getNumElements();
  ArrayRef<uint8_t> bytes = args[*arg];
  if ((int64_t)bytes.size() != size * w)
    return schedule.emitError() << "argument " << *arg << " has the wrong size";
  ScheduleBuffer out{-1, dtype, n, std::vector<uint8_t>(n * w, 0)};
  ArrayRef<int64_t> shape = st.shape();
  SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    std::optional<int64_t> flat = st.flatIndex(idx);
    if (flat) {
      if (*flat < 0 || *flat >= size)
        return schedule.emitError() << "output " << i << " reads element " << *flat << " of buffer "
                                    << unique << ", which has " << size;
      std::memcpy(out.bytes.data() + k * w, bytes.data() + *flat * w, w);
    }
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

FailureOr<std::string> mlir::uop::describeSchedule(func::FuncOp schedule) {
  auto outputs = schedule->getAttrOfType<ArrayAttr>("uop.outputs");
  if (!outputs)
    return schedule.emitError() << "not a schedule (no uop.outputs)";
  FailureOr<std::vector<ScheduleBuffer>> args = scheduleArguments(schedule);
  if (failed(args))
    return failure();
  llvm::json::Array argsJSON, outsJSON;
  for (const ScheduleBuffer &a : *args)
    argsJSON.push_back(llvm::json::Object{
        {"unique", a.unique}, {"dtype", getTinygradName(a.dtype)}, {"size", a.size}});
  for (Attribute o : outputs) {
    auto entry = cast<DictionaryAttr>(o);
    llvm::json::Array shape;
    std::string dtype;
    if (auto value = entry.getAs<DenseElementsAttr>("value")) {
      auto t = cast<ShapedType>(value.getType());
      shape = llvm::json::Array(t.getShape());
      dtype = getTinygradName(t.getElementType());
    } else {
      auto st = shape::ShapeTracker::fromAttr(entry.getAs<ShapeTrackerAttr>("st"));
      shape = llvm::json::Array(st.shape());
      int64_t unique = entry.getAs<IntegerAttr>("unique").getInt();
      for (const ScheduleBuffer &a : *args)
        if (a.unique == unique)
          dtype = getTinygradName(a.dtype);
    }
    outsJSON.push_back(llvm::json::Object{{"shape", std::move(shape)}, {"dtype", dtype}});
  }
  int64_t kernels = llvm::range_size(schedule.getBody().getOps<ExecOp>());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(llvm::json::Object{
      {"arguments", std::move(argsJSON)}, {"outputs", std::move(outsJSON)}, {"kernels", kernels}});
  return text;
}
