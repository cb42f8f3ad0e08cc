//===- UOpToGPU.cpp - GPU-mapped uop kernels to gpu.module/gpu.func -------===//
//
// Each kernel becomes `gpu.module @k { gpu.func @k(...) kernel }`, its ops
// placed in loops by the shared emitter (Conversion/Common) for NVPTX
// (NVPTXTargetInfo: SPECIALs as block and thread ids, shared memory, WMMA,
// approximate instructions). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "uop/Conversion/Common/KernelEmitter.h"

#include "NVPTXTargetInfo.h"

#include "uop/Dialect/UOp/Utils/AffineSum.h"
#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::uop {
#define GEN_PASS_DEF_CONVERTUOPTOGPU
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// `v` as constant + sum(coef * variable) of the kernel's uop.define_vars,
/// if it is one: sums, differences, negations and products by constants of
/// constants and variables (what uop-lower builds symbolic sizes from).
class AffineReader {
public:
  std::optional<sym::AffineSum> read(Value v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    std::optional<sym::AffineSum> a = compute(v);
    memo[v] = a;
    return a;
  }

private:
  llvm::DenseMap<Value, std::optional<sym::AffineSum>> memo;

  std::optional<sym::AffineSum> compute(Value v) {
    Operation *op = v.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (std::optional<int64_t> c = sym::intConst(v))
      return sym::AffineSum::ofConstant(*c);
    if (auto var = dyn_cast<DefineVarOp>(op))
      return sym::AffineSum::ofVariable(var.getName());
    if (isa<NegOp>(op)) {
      std::optional<sym::AffineSum> x = read(op->getOperand(0));
      return x ? x->times(-1) : std::nullopt;
    }
    if (!isa<AddOp, SubOp, MulOp>(op))
      return std::nullopt;
    std::optional<sym::AffineSum> x = read(op->getOperand(0)), y = read(op->getOperand(1));
    if (!x || !y)
      return std::nullopt;
    if (isa<AddOp>(op))
      return x->plus(*y);
    if (isa<SubOp>(op)) {
      std::optional<sym::AffineSum> negY = y->times(-1);
      return negY ? x->plus(*negY) : std::nullopt;
    }
    if (x->isConstant())
      return y->times(x->constant);
    if (y->isConstant())
      return x->times(y->constant);
    return std::nullopt;
  }
};

/// The grid and block sizes the kernel's SPECIALs imply (1 where absent);
/// a symbolic size (a SPECIAL of a dynamic size) as its upper bound and its
/// expression (#uop.sym_entry, slot 0-2 grid x, y, z, 3-5 block x, y, z).
struct KernelDims {
  int32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  SmallVector<SymEntryAttr> symbolic;

  LogicalResult collect(KernelOp kernel) {
    llvm::StringMap<SpecialOp> seen;
    AffineReader affine;
    for (SpecialOp s : kernel.getBodyBlock().getOps<SpecialOp>()) {
      StringRef name = s.getName();
      int64_t size = static_cast<int64_t>(s.getSize());
      auto [it, inserted] = seen.try_emplace(name, s);
      if (!inserted) {
        SpecialOp first = it->second;
        if (first.getSize() != s.getSize())
          return s.emitOpError() << "'" << name << "' has size " << size << " here and "
                                 << static_cast<int64_t>(first.getSize())
                                 << " elsewhere in the kernel";
        if (first.getDynamicSize() != s.getDynamicSize())
          return s.emitOpError() << "'" << name
                                 << "' has a symbolic size here that differs from its size "
                                    "elsewhere in the kernel";
        continue;
      }
      unsigned slot = s.isThreadIndex() ? 3 + s.getDim() : s.getDim(); // idx: one thread a block
      (slot < 3 ? grid[slot] : block[slot - 3]) = size;
      if (Value dynamic = s.getDynamicSize()) {
        std::optional<sym::AffineSum> a = affine.read(dynamic);
        if (!a || a->isConstant())
          return s.emitOpError() << "has a size that is not an affine expression of the "
                                    "kernel's variables (constant + sum of constant * variable)";
        symbolic.push_back(a->toAttr(s.getContext(), slot));
      }
    }
    for (int d = 0; d < 3; ++d)
      if (seen.count(("gidx" + Twine(d)).str()) && seen.count(("idx" + Twine(d)).str()))
        return kernel.emitOpError() << "uses both gidx" << d << " and idx" << d;
    return success();
  }

  bool isSymbolic(bool ofBlock) const {
    return llvm::any_of(symbolic, [&](SymEntryAttr e) { return (e.getSlot() >= 3) == ofBlock; });
  }

  /// The kernel's uop.launch entry, with the tensor maps it takes.
  DictionaryAttr attr(Builder &b, ArrayRef<TensorMapAttr> maps) const {
    SmallVector<NamedAttribute> entries{b.getNamedAttr("block", b.getDenseI32ArrayAttr(block)),
                                        b.getNamedAttr("grid", b.getDenseI32ArrayAttr(grid))};
    if (!symbolic.empty())
      entries.push_back(b.getNamedAttr(
          "sym", b.getArrayAttr(SmallVector<Attribute>(symbolic.begin(), symbolic.end()))));
    if (!maps.empty())
      entries.push_back(b.getNamedAttr(
          "tensor_maps", b.getArrayAttr(SmallVector<Attribute>(maps.begin(), maps.end()))));
    return b.getDictionaryAttr(entries);
  }
};

struct ConvertUOpToGPUPass : mlir::uop::impl::ConvertUOpToGPUBase<ConvertUOpToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;
    TargetAttr targetAttr = TargetAttr::lookupGPU(module);
    if (!targetAttr)
      return signalPassFailure();
    NVPTXTargetInfo target(targetAttr);

    Builder b(&getContext());
    SmallVector<NamedAttribute> launch;
    UOpDialect::LaunchAttrHelper launchAttr(&getContext());
    if (DictionaryAttr old = launchAttr.getAttr(module))
      llvm::append_range(launch, old.getValue());
    for (KernelOp kernel : kernels) {
      KernelDims dims;
      SmallVector<TensorMapAttr> maps = kernelTensorMaps(kernel);
      if (failed(checkMapped(kernel)) || failed(dims.collect(kernel)) ||
          failed(convert(kernel, target, dims, maps)))
        return signalPassFailure();
      launch.push_back(b.getNamedAttr(kernel.getSymName(), dims.attr(b, maps)));
      kernel.erase();
    }
    launchAttr.setAttr(module, b.getDictionaryAttr(launch));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
  }

  static LogicalResult checkMapped(KernelOp kernel) {
    for (RangeOp r : kernel.getBodyBlock().getOps<RangeOp>())
      if (r.getKind() == AxisKind::global || r.getKind() == AxisKind::local)
        return r.emitOpError() << "(axis " << r.getAxis() << ", " << stringifyAxisKind(r.getKind())
                               << ") is not mapped to a GPU index: run uop-gpu-dims first";
    return success();
  }

  /// `uop.kernel @k` becomes `gpu.func @k(%buf0: !llvm.ptr, ..., %var0: i32,
  /// ..., %map0: !llvm.ptr, ...) kernel`: one pointer per DEFINE_GLOBAL
  /// index, then one integer per variable (DEFINE_VAR) sorted by name, as on
  /// the CPU (the module's `uop.variables` names them), then a pointer to
  /// each tensor map its TMA copies read (its uop.launch entry lists them).
  static LogicalResult convert(KernelOp kernel, const TargetInfo &target, const KernelDims &dims,
                               ArrayRef<TensorMapAttr> maps) {
    MLIRContext *ctx = kernel.getContext();
    Location loc = kernel.getLoc();
    OpBuilder b(kernel);
    auto gpuModule = gpu::GPUModuleOp::create(b, loc, kernel.getSymName());
    b.setInsertionPointToStart(gpuModule.getBody());
    unsigned numBuffers = countBuffers(kernel);
    SmallVector<Type> args(numBuffers, LLVM::LLVMPointerType::get(ctx));
    SmallVector<DefineVarOp> vars = kernelVariables(kernel);
    for (DefineVarOp v : vars)
      args.push_back(target.types.storage(v.getType()));
    args.append(maps.size(), LLVM::LLVMPointerType::get(ctx));
    auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(), b.getFunctionType(args, {}));
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    // Known sizes are exact: a symbolic grid or block has only a bound.
    if (!dims.isSymbolic(/*ofBlock=*/false))
      func.setKnownGridSizeAttr(b.getDenseI32ArrayAttr(dims.grid));
    if (!dims.isSymbolic(/*ofBlock=*/true))
      func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(dims.block));
    // Clusters (CLUSTER): sizes per global axis, whose last is the grid's x
    // (uop-gpu-dims checked that each is a grid dimension); upstream's
    // lowering makes them nvvm.cluster_dim (PTX's .reqnctapercluster).
    if (KernelInfoAttr info = UOpDialect::KernelInfoAttrHelper(ctx).getAttr(kernel);
        info && !info.getCluster().empty()) {
      SmallVector<int32_t> cluster(3, 1);
      for (auto [i, c] : llvm::enumerate(llvm::reverse(info.getCluster())))
        cluster[i] = static_cast<int32_t>(c);
      func.setKnownClusterSizeAttr(b.getDenseI32ArrayAttr(cluster));
    }
    // Buffers are the runtime's allocations (cuMemAlloc: 256-byte aligned),
    // so 16 bytes is known: LLVM may then merge adjacent loads and stores
    // into ld/st.global.v2/v4, as tinygrad's devectorizer does.
    for (unsigned i = 0; i < numBuffers; ++i) {
      func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
      func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(16));
    }
    recordKernelVariables(kernel);
    Block *entry = &func.getBody().front();
    b.setInsertionPointToEnd(entry);
    gpu::ReturnOp::create(b, loc);
    if (failed(emitKernel(kernel, entry, target, "convert-uop-to-gpu"))) {
      gpuModule.erase();
      return failure();
    }
    return success();
  }
};

} // namespace
