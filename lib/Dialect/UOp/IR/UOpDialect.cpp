//===- UOpDialect.cpp - uop dialect registration ---------------------------===//

#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::uop;

#include "uop/Dialect/UOp/IR/UOpOpsDialect.cpp.inc"
#include "uop/Dialect/UOp/IR/UOpOpsEnums.cpp.inc"

void UOpDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "uop/Dialect/UOp/IR/UOpOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

std::optional<std::array<int32_t, 3>> mlir::uop::readLaunchSize(Attribute a) {
  auto arr = dyn_cast_or_null<DenseI32ArrayAttr>(a);
  if (!arr || arr.size() != 3 || llvm::any_of(arr.asArrayRef(), [](int32_t d) { return d < 1; }))
    return std::nullopt;
  return std::array<int32_t, 3>{arr[0], arr[1], arr[2]};
}

std::optional<SmallVector<SymEntryAttr>> mlir::uop::readLaunchSymbolic(Attribute a) {
  SmallVector<SymEntryAttr> entries;
  if (!a)
    return entries;
  auto arr = dyn_cast<ArrayAttr>(a);
  if (!arr)
    return std::nullopt;
  for (Attribute x : arr) {
    auto e = dyn_cast<SymEntryAttr>(x);
    if (!e || e.getSlot() > 5 ||
        llvm::any_of(entries, [&](SymEntryAttr o) { return o.getSlot() == e.getSlot(); }))
      return std::nullopt;
    entries.push_back(e);
  }
  return entries;
}

std::optional<SmallVector<TensorMapAttr>> mlir::uop::readLaunchTensorMaps(Attribute a) {
  SmallVector<TensorMapAttr> maps;
  if (!a)
    return maps;
  auto arr = dyn_cast<ArrayAttr>(a);
  if (!arr || !llvm::all_of(arr, llvm::IsaPred<TensorMapAttr>))
    return std::nullopt;
  for (Attribute x : arr)
    maps.push_back(cast<TensorMapAttr>(x));
  return maps;
}

// The discardable attributes UOpBase.td declares: each on the op it belongs
// to, with its type.
LogicalResult UOpDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  Attribute value = attr.getValue();
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitError() << "'" << name << "' must be " << what;
  };
  bool onModule = isa<ModuleOp>(op), onKernel = isa<KernelOp>(op);
  if (name == TargetAttrHelper::getNameStr())
    return expect(onModule && isa<TargetAttr>(value), "a #uop.target on a builtin.module");
  if (name == KernelInfoAttrHelper::getNameStr())
    return expect(onKernel && isa<KernelInfoAttr>(value), "a #uop.kernel_info on a uop.kernel");
  if (name == OptsAttrHelper::getNameStr())
    return expect(onKernel && isa<StringAttr>(value), "a string of opts on a uop.kernel");
  if (name == LaunchAttrHelper::getNameStr()) {
    auto kernels = dyn_cast<DictionaryAttr>(value);
    bool ok = onModule && kernels && llvm::all_of(kernels, [&](NamedAttribute k) {
                auto entry = dyn_cast<DictionaryAttr>(k.getValue());
                return entry &&
                       entry.size() == 2u + !!entry.get("sym") + !!entry.get("tensor_maps") &&
                       readLaunchSize(entry.get("grid")) && readLaunchSize(entry.get("block")) &&
                       readLaunchSymbolic(entry.get("sym")) &&
                       readLaunchTensorMaps(entry.get("tensor_maps"));
              });
    return expect(ok, "a dictionary on a builtin.module of {grid, block} per kernel, each an "
                      "array<i32: x, y, z> of positive sizes, and for a symbolic kernel sym, "
                      "its symbolic sizes (#uop.sym_entry: slots 0-2 grid, 3-5 block; the "
                      "array holds their upper bounds), and for a kernel that takes tensor "
                      "maps tensor_maps, an array of #uop.tensor_map");
  }
  if (name == VariablesAttrHelper::getNameStr()) {
    auto kernels = dyn_cast<DictionaryAttr>(value);
    bool ok = onModule && kernels && llvm::all_of(kernels, [&](NamedAttribute k) {
                auto names = dyn_cast<ArrayAttr>(k.getValue());
                return names && llvm::all_of(names, llvm::IsaPred<StringAttr>);
              });
    return expect(ok, "a dictionary on a builtin.module of variable names per kernel");
  }
  // convert-nvvm-to-sim puts these on the op that holds the functions.
  bool onTable = op->hasTrait<OpTrait::SymbolTable>();
  if (name == SitesAttrHelper::getNameStr())
    return expect(onTable && isa<ArrayAttr>(value) &&
                      llvm::all_of(cast<ArrayAttr>(value), llvm::IsaPred<StringAttr>),
                  "an array of strings on a symbol table (builtin.module, gpu.module)");
  if (name == SimSharedAttrHelper::getNameStr())
    return expect(onTable && isa<DenseI64ArrayAttr>(value) &&
                      cast<DenseI64ArrayAttr>(value).size() % 2 == 0,
                  "an array<i64: bytes, alignment, ...> on a symbol table (builtin.module, "
                  "gpu.module)");
  if (name == SimBlocksAttrHelper::getNameStr())
    return expect(onTable && isa<DenseI64ArrayAttr>(value) &&
                      llvm::all_of(cast<DenseI64ArrayAttr>(value).asArrayRef(),
                                   [](int64_t n) { return n >= 0; }),
                  "an array<i64: ...> of instruction counts on a symbol table (builtin.module, "
                  "gpu.module)");
  if (name == DeviceAttrHelper::getNameStr())
    return expect(isa<ConstOp>(op) && isa<TensorType>(op->getResult(0).getType()) &&
                      isa<StringAttr>(value),
                  "a device string on a uop.const of a tensor");
  if (name == UniqueAttrHelper::getNameStr())
    return expect((op->getName().getStringRef() == "memref.alloc" ||
                   op->getName().getStringRef() == "memref.view") &&
                      isa<IntegerAttr>(value) && cast<IntegerAttr>(value).getInt() >= 0,
                  "a non-negative buffer number on a memref.alloc (or memref.view) of a "
                  "schedule");
  if (name == OutputsAttrHelper::getNameStr()) {
    auto outputs = dyn_cast<ArrayAttr>(value);
    bool ok = isa<FunctionOpInterface>(op) && outputs && llvm::all_of(outputs, [](Attribute a) {
                auto d = dyn_cast<DictionaryAttr>(a);
                if (!d)
                  return false;
                if (d.size() == 1)
                  return isa_and_nonnull<DenseElementsAttr>(d.get("value"));
                return d.size() == 2 && isa_and_nonnull<IntegerAttr>(d.get("unique")) &&
                       isa_and_nonnull<ShapeTrackerAttr>(d.get("st"));
              });
    return expect(ok, "an array on a function of {unique = N, st = #uop.st<...>} or "
                      "{value = dense<...>}, one per result of the tensor graph");
  }
  return op->emitError() << "unknown uop attribute '" << name
                         << "' (uop.target, uop.launch, uop.variables, uop.opts, uop.kernel_info, "
                            "uop.sites, uop.sim_shared, uop.device, uop.outputs)";
}

// The argument attributes of a schedule (uop-kernelize): each buffer's
// number and device.
LogicalResult UOpDialect::verifyRegionArgAttribute(Operation *op, unsigned region, unsigned arg,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name == UniqueAttrHelper::getNameStr() &&
      (!isa<IntegerAttr>(attr.getValue()) || cast<IntegerAttr>(attr.getValue()).getInt() < 0))
    return op->emitError() << "'" << name << "' of argument " << arg
                           << " must be a non-negative integer (the buffer's number)";
  if (name == DeviceAttrHelper::getNameStr() && !isa<StringAttr>(attr.getValue()))
    return op->emitError() << "'" << name << "' of argument " << arg << " must be a device string";
  if (name != UniqueAttrHelper::getNameStr() && name != DeviceAttrHelper::getNameStr())
    return op->emitError() << "unknown uop argument attribute '" << name
                           << "' (uop.unique, uop.device)";
  return success();
}
