//===- Export.cpp - a uop.kernel to tinygrad's kernel JSON ----------------===//
//
// The inverse of Import.cpp for kernel-AST ops: one node per op, in block
// order, sources as node indices. Fields tinygrad stores but the dialect
// derives (a view's "contiguous") are recomputed.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "DTypes.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::uop;
namespace json = llvm::json;

namespace {

json::Value dtypeJSON(Type t) {
  if (isa<VoidType>(t))
    return "void";
  if (auto p = dyn_cast<PtrType>(t))
    return json::Object{{"ptr", tinygrad::nameOfScalar(p.getElementType())},
                        {"size", p.getSize()},
                        {"addrspace", stringifyAddressSpace(p.getAddressSpace())}};
  return tinygrad::nameOfScalar(t);
}

json::Value intsJSON(ArrayRef<int64_t> xs) { return json::Array(xs); }

/// A kernel's variables by name: their bounds, for the symbolic entries.
using VariableBounds = llvm::StringMap<std::pair<int64_t, int64_t>>;

/// Entry `slot` of `v` (integer `value`): the integer, or its symbolic
/// expression as tinygrad's UOps would print it: {"var", "min", "max"} and
/// {"op": "ADD" | "MUL", "src": [a, b]}.
json::Value entryJSON(ViewAttr v, int64_t slot, int64_t value, const VariableBounds &vars) {
  SymEntryAttr e = v.getSymAt(slot);
  if (!e)
    return value;
  auto binary = [](StringRef op, json::Value a, json::Value b) -> json::Value {
    return json::Object{{"op", op}, {"src", json::Array{std::move(a), std::move(b)}}};
  };
  json::Value sum = nullptr;
  for (auto [c, name] : llvm::zip(e.getCoefs(), e.getVars())) {
    auto [lo, hi] = vars.lookup(name.getValue());
    json::Value term = json::Object{{"var", name.getValue()}, {"min", lo}, {"max", hi}};
    if (c != 1)
      term = binary("MUL", std::move(term), c);
    sum = sum.kind() == json::Value::Null ? std::move(term)
                                          : binary("ADD", std::move(sum), std::move(term));
  }
  if (e.getConstant() != 0)
    sum = binary("ADD", std::move(sum), e.getConstant());
  return sum;
}

json::Value shapeTrackerJSON(ShapeTrackerAttr st, const VariableBounds &vars) {
  json::Array views;
  for (ViewAttr v : st.getViews()) {
    auto list = [&](ArrayRef<int64_t> xs, int64_t firstSlot) {
      json::Array out;
      for (auto [i, x] : llvm::enumerate(xs))
        out.push_back(entryJSON(v, firstSlot + i, x, vars));
      return out;
    };
    int64_t rank = v.getRank();
    json::Value mask = nullptr;
    if (v.hasMask()) {
      json::Array pairs;
      for (size_t i = 0; i < v.getMask().size(); i += 2)
        pairs.push_back(list(v.getMask().slice(i, 2), 2 * rank + 1 + i));
      mask = std::move(pairs);
    }
    views.push_back(json::Object{{"shape", list(v.getShape(), 0)},
                                 {"strides", list(v.getStrides(), rank)},
                                 {"offset", entryJSON(v, 2 * rank, v.getOffset(), vars)},
                                 {"mask", std::move(mask)},
                                 {"contiguous", v.isContiguous()}});
  }
  return json::Object{{"views", std::move(views)}};
}

json::Value constJSON(TypedAttr value) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (value.getType().isInteger(1))
      return i.getValue().getBoolValue();
    if (value.getType().isUnsignedInteger())
      return i.getValue().getZExtValue();
    return i.getValue().getSExtValue();
  }
  APFloat f = cast<FloatAttr>(value).getValue();
  if (f.isNaN())
    return "nan";
  if (f.isInfinity())
    return f.isNegative() ? "-inf" : "inf";
  bool lost;
  f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

} // namespace

LogicalResult mlir::uop::exportTinygradKernel(KernelOp kernel, llvm::raw_ostream &os) {
  DenseMap<Value, int64_t> index;
  json::Array nodes;
  // A kernel AST's DEFINE_VARs live in its views, not among its nodes.
  VariableBounds vars;
  for (DefineVarOp d : kernel.getBodyBlock().getOps<DefineVarOp>())
    vars[d.getName()] = {static_cast<int64_t>(d.getMin()), static_cast<int64_t>(d.getMax())};
  for (Operation &op : kernel.getBodyBlock()) {
    if (auto d = dyn_cast<DefineVarOp>(op); d && d->use_empty())
      continue;
    json::Array srcs;
    for (Value v : op.getOperands())
      srcs.push_back(index.lookup(v));
    json::Value arg = nullptr;
    std::string name;
    bool known = true;
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](SinkOp) { name = "SINK"; })
        .Case([&](DefineGlobalOp d) {
          name = "DEFINE_GLOBAL";
          arg = d.getIndex();
        })
        .Case([&](ViewOp v) {
          name = "VIEW";
          arg = shapeTrackerJSON(v.getSt(), vars);
        })
        .Case([&](ValidOp) { name = "VALID"; })
        .Case([&](LoadOp l) {
          name = "LOAD";
          if (l.getAlt())
            known = false; // a lowered LOAD: not a kernel-AST node
        })
        .Case([&](StoreOp s) {
          name = "STORE";
          if (s.getGate() || s.getUnder())
            known = false;
        })
        .Case([&](ConstOp c) {
          name = "CONST";
          arg = constJSON(c.getScalarValue());
        })
        .Case([&](ShapedConstOp c) {
          name = "CONST";
          arg = constJSON(c.getValue());
        })
        .Case([&](ReduceAxisOp r) {
          name = "REDUCE_AXIS";
          json::Object o{{"op", StringRef(stringifyReduceKind(r.getKind())).upper()},
                         {"axes", intsJSON(r.getAxes())}};
          if (r.getFuse())
            o["fuse"] = true;
          arg = std::move(o);
        })
        .Default([&](Operation *o) {
          name = tinygrad::genericOpName(o).str();
          known = !name.empty();
        });
    if (!known)
      return op.emitOpError() << "has no tinygrad kernel-AST node (export covers the ops the "
                                 "importer reads)";
    Type type = op.getNumResults() ? op.getResult(0).getType() : VoidType::get(op.getContext());
    if (isa<ShapedType>(type))
      return op.emitOpError() << "vector and tensor values have no kernel-AST node";
    if (op.getNumResults())
      index[op.getResult(0)] = nodes.size();
    nodes.push_back(json::Array{name, dtypeJSON(type), std::move(arg), std::move(srcs)});
  }
  os << json::Value(json::Object{{"name", kernel.getSymName()}, {"nodes", std::move(nodes)}});
  return success();
}

/// The buffer number of a schedule's buffer: its argument's or allocation's
/// uop.unique.
static std::optional<int64_t> bufferNumber(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (auto u = f ? f.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "uop.unique") : nullptr)
      return u.getInt();
    return std::nullopt;
  }
  if (auto u =
          v.getDefiningOp() ? v.getDefiningOp()->getAttrOfType<IntegerAttr>("uop.unique") : nullptr)
    return u.getInt();
  return std::nullopt;
}

LogicalResult mlir::uop::exportTinygradSchedule(func::FuncOp schedule, llvm::raw_ostream &os) {
  auto module = schedule->getParentOfType<ModuleOp>();
  json::Array items;
  for (Operation &op : schedule.getBody().front()) {
    // Allocation (and uop-plan-buffers' arena views) is not part of tinygrad's schedule.
    if (isa<memref::AllocOp, memref::ViewOp, memref::DeallocOp, arith::ConstantOp, func::ReturnOp>(
            op))
      continue;
    json::Array globals;
    for (Value b : op.getOperands()) {
      std::optional<int64_t> n = bufferNumber(b);
      if (!n)
        return op.emitError() << "a buffer without a uop.unique number";
      globals.push_back(*n);
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      std::swap(globals[0], globals[1]); // tinygrad binds the destination first
      items.push_back(json::Object{{"kind", "copy"}, {"globals", std::move(globals)}});
      continue;
    }
    auto exec = dyn_cast<ExecOp>(op);
    auto kernel = exec ? module.lookupSymbol<KernelOp>(exec.getKernel()) : nullptr;
    if (!kernel)
      return op.emitError() << "not part of a schedule (uop.exec of a uop.kernel, memref.copy)";
    std::string text;
    llvm::raw_string_ostream ss(text);
    if (failed(exportTinygradKernel(kernel, ss)))
      return failure();
    llvm::Expected<json::Value> k = json::parse(text);
    if (!k)
      return op.emitError() << "kernel export: " << llvm::toString(k.takeError());
    json::Object *o = k->getAsObject();
    (*o)["kind"] = "kernel";
    (*o)["globals"] = std::move(globals);
    items.push_back(std::move(*k));
  }
  os << json::Value(std::move(items)) << "\n";
  return success();
}
